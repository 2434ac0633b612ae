/** ORDER_MAX_YUAN (README: Configuration): the ceiling of one order's total, WeChat Pay's per-payment limit by default. */
import { describe, expect, it } from "vitest";
import { configFromEnv } from "../../server/config";
import { DEFAULT_ORDER_MAX_FEN } from "../../server/payments/orders";

describe("ORDER_MAX_YUAN", () => {
  it("defaults to CNY 50,000, WeChat Pay's limit of one payment", () => {
    expect(DEFAULT_ORDER_MAX_FEN).toBe(5_000_000);
    expect(configFromEnv({}).orderMaxFen).toBe(DEFAULT_ORDER_MAX_FEN);
    expect(configFromEnv({ ORDER_MAX_YUAN: "" }).orderMaxFen).toBe(DEFAULT_ORDER_MAX_FEN);
  });

  it("takes an amount in yuan, to the fen", () => {
    expect(configFromEnv({ ORDER_MAX_YUAN: "20000" }).orderMaxFen).toBe(2_000_000);
    expect(configFromEnv({ ORDER_MAX_YUAN: " 8800.5 " }).orderMaxFen).toBe(880_050);
  });

  it("refuses anything else at start, naming the variable", () => {
    for (const value of ["0", "-1", "abc", "1.234", "1e6"]) {
      expect(() => configFromEnv({ ORDER_MAX_YUAN: value }), value).toThrow(`ORDER_MAX_YUAN must be an amount in yuan above 0, such as 50000 or 8800.50, got "${value}"`);
    }
  });
});
