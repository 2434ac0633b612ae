/** The top bar's breadcrumb (spec 2.4): Home first unless on the dashboard, the group, the list a hidden page belongs to. */
import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { changeLanguage } from "../../providers/i18n";
import { Breadcrumbs } from "../../src/shell/Breadcrumbs";
import { renderDialog } from "../helpers/renderDialog";

function crumbs(path: string): { text: string; href: string | null }[] {
  cleanup();
  renderDialog(<Breadcrumbs />, { path });
  return [...screen.getByTestId("breadcrumb").querySelectorAll("li:not(.ant-breadcrumb-separator)")].map((li) => ({
    text: li.textContent ?? "",
    href: li.querySelector("a")?.getAttribute("href") ?? null,
  }));
}

beforeAll(async () => {
  await changeLanguage("en");
});
afterEach(cleanup);

describe("breadcrumb", () => {
  it("is the dashboard alone on the dashboard", () => {
    expect(crumbs("/Dashboard/Dashboard")).toEqual([{ text: "Dashboard", href: null }]);
  });

  it("leads from Home through the group and the list to a hidden record page", () => {
    expect(crumbs("/schoolv2/schoolrenewinfo/5")).toEqual([
      { text: "Home", href: "/Dashboard/Dashboard" },
      { text: "Schools", href: null },
      { text: "Renewal records", href: "/schoolv2/schoolrenewlist" },
      { text: "Renewal details", href: null },
    ]);
  });

  it("names a group once when its list bears the same name", () => {
    expect(crumbs("/actcode/actcodeadd")).toEqual([
      { text: "Home", href: "/Dashboard/Dashboard" },
      { text: "Activation codes", href: "/actcode/actcodelist" },
      { text: "Generate activation codes", href: null },
    ]);
    expect(crumbs("/actcode/actcodelist").map((c) => c.text)).toEqual(["Home", "Activation codes"]);
  });
});
