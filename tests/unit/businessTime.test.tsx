/**
 * Times are China time whatever the reader's zone (DESIGN 8): the helper the console and the payer page format
 * times with, and the console's time cell, run here in a process whose clock is Mexico City's (UTC-6), where a
 * time read in the browser's zone would be 14 hours off and often on another day.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import type { FieldDecl } from "../../common/catalogue";
import { businessTime, instantOf, readerOutsideBusinessZone, timeText } from "../../common/businessTime";
import { changeLanguage } from "../../providers/i18n";
import { displayValue } from "../../src/engine/fields";

const zoneBefore = process.env.TZ;

beforeAll(async () => {
  process.env.TZ = "America/Mexico_City";
  await changeLanguage("en");
});
afterAll(() => {
  cleanup();
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

describe("a time as China time", () => {
  it("runs in another zone: the process's clock reads these instants otherwise", () => {
    // the premise of every test below: 09:02 UTC is 03:02 in Mexico City, 17:02 in China
    expect(new Date("2026-11-25T09:02:11.000Z").getHours()).toBe(3);
  });

  it("writes an instant the API sends as China time, to the second or to the minute", () => {
    expect(timeText("2026-11-25T09:02:11.000Z")).toBe("2026-11-25 17:02:11");
    expect(timeText("2026-11-25T09:02:11.000Z", "minute")).toBe("2026-11-25 17:02");
    // an offset other than UTC names the same instant
    expect(timeText("2026-11-25T03:02:11-06:00")).toBe("2026-11-25 17:02:11");
    expect(timeText(new Date("2026-11-25T09:02:11Z"))).toBe("2026-11-25 17:02:11");
    expect(businessTime(new Date("2026-11-25T09:02:11Z"))).toBe("2026-11-25 17:02:11");
  });

  it("puts an instant after China's midnight on China's next day, whatever day the reader's clock says", () => {
    // 16:30 UTC: 10:30 of the 25th in Mexico City, 00:30 of the 26th in China
    expect(new Date("2026-11-25T16:30:00Z").getDate()).toBe(25);
    expect(timeText("2026-11-25T16:30:00Z")).toBe("2026-11-26 00:30:00");
    // and the last second of a year is the next year's in China
    expect(timeText("2026-12-31T16:00:00Z")).toBe("2027-01-01 00:00:00");
  });

  it("leaves a value that names no instant as it came", () => {
    expect(timeText("2026-11-25")).toBe("2026-11-25");
    // a time without its offset is no instant: which zone it meant is unknown
    expect(timeText("2026-11-25T09:02:11")).toBe("2026-11-25T09:02:11");
    expect(timeText("not a time")).toBe("not a time");
    expect(timeText(null)).toBe("");
    expect(timeText(undefined)).toBe("");
    expect(instantOf("2026-13-45T09:02:11Z")).toBeNull();
  });

  it("knows when the reader's clock is not China's", () => {
    expect(readerOutsideBusinessZone(new Date("2026-11-25T09:02:11Z"))).toBe(true);
    process.env.TZ = "Asia/Shanghai";
    try {
      expect(readerOutsideBusinessZone(new Date("2026-11-25T09:02:11Z"))).toBe(false);
    } finally {
      process.env.TZ = "America/Mexico_City";
    }
  });
});

describe("the console's time cell", () => {
  const field: FieldDecl = { name: "paid_at", label: "collection.field.paid_at", type: "datetime" } as FieldDecl;
  const t = (key: string) => key;

  it("shows China time, names the zone in its tooltip and, for a reader abroad, after the time", () => {
    render(<div data-testid="cell">{displayValue(field, "2026-11-25T16:30:00.000Z", t)}</div>);
    const time = screen.getByTestId("cell").querySelector("time")!;
    // the text is the time alone: the zone is drawn after it by the style sheet
    expect(time.textContent).toBe("2026-11-26 00:30:00");
    expect(time.getAttribute("datetime")).toBe("2026-11-25T16:30:00.000Z");
    expect(time.getAttribute("title")).toBe("China time (UTC+8)");
    expect(time.dataset.zone).toBe("UTC+8");
    cleanup();
  });

  it("does not say the zone to a reader in China, where the time cannot be misread", () => {
    process.env.TZ = "Asia/Shanghai";
    try {
      render(<div data-testid="cell">{displayValue(field, "2026-11-25T16:30:00.000Z", t)}</div>);
      const time = screen.getByTestId("cell").querySelector("time")!;
      expect(time.textContent).toBe("2026-11-26 00:30:00");
      expect(time.dataset.zone).toBeUndefined();
      expect(time.getAttribute("title")).toBe("China time (UTC+8)");
    } finally {
      process.env.TZ = "America/Mexico_City";
      cleanup();
    }
  });
});
