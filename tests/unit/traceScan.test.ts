/**
 * What the trace-source bind dialog takes from a scanned label: the code itself, or the code at the end of the
 * address of the garment's public page that a label's QR code may hold.
 */
import { describe, expect, it } from "vitest";
import { scannedTraceCode } from "../../src/domains/retail/TraceBindDialog";

describe("a scanned trace-source label", () => {
  it("gives the code it holds, trimmed", () => {
    expect(scannedTraceCode(" CG2409S00001 \n")).toBe("CG2409S00001");
    expect(scannedTraceCode("10012.1001.2409.000001")).toBe("10012.1001.2409.000001");
  });

  it("gives the code at the end of a garment page's address", () => {
    expect(scannedTraceCode("https://pay.example.cn/h5/abc/trace/CG2409S00001")).toBe("CG2409S00001");
    expect(scannedTraceCode("https://pay.example.cn/h5/abc/trace/CG2409S00001/?from=label#top")).toBe("CG2409S00001");
    expect(scannedTraceCode("https://pay.example.cn/h5/abc/trace/A%2DB")).toBe("A-B");
  });
});
