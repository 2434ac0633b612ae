/**
 * An action's form filled in from its record (FieldDecl.prefill): a refund's amount starts as what the order paid
 * less what was refunded of it; nothing when nothing is left or the record lacks the figures.
 */
import { describe, expect, it } from "vitest";
import { refundAdd } from "../../catalogue/collectionOrders";
import { prefilledValues } from "../../src/engine/EntityActions";

describe("an action's prefilled values", () => {
  it("starts a refund at what is left to refund of the order", () => {
    expect(prefilledValues(refundAdd, { id: 1, amount: "956.50", refunded_amount: "0.00" })).toEqual({ amount: "956.50" });
    expect(prefilledValues(refundAdd, { id: 1, amount: "956.50", refunded_amount: "239.12" })).toEqual({ amount: "717.38" });
  });

  it("leaves the field empty when nothing is left, or the record does not say", () => {
    expect(prefilledValues(refundAdd, { id: 1, amount: "956.50", refunded_amount: "956.50" })).toEqual({});
    expect(prefilledValues(refundAdd, { id: 1 })).toEqual({});
    expect(prefilledValues(refundAdd, undefined)).toEqual({});
  });
});
