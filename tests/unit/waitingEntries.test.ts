/**
 * Where the menu counts what waits for a decision (the sidebar's badges, the home page's cards): on the entries
 * where it is decided. The after-sales list is one page in /shop and in /order, each route opening its own part
 * first: a provider's refund requests are counted on /order's, its after-sales on /shop's, never on the refund
 * records (refundrecord), which list every refund.
 */
import { expect, it } from "vitest";
import { waitingEntries } from "../../common/waiting";
import { menus } from "../../resources.config";

const SVC = ["servicev2", "xcxuploadv2", "is_show_fee"];

it("counts a provider's refund requests and after-sales each on the after-sales entry opening it first", () => {
  expect(waitingEntries(menus, SVC, { entity: "refund", states: ["applied"] }, "status")).toEqual(["/order/saleslist"]);
  expect(waitingEntries(menus, SVC, { entity: "aftersale", states: ["applied", "returning"] }, "status")).toEqual(["/shop/saleslist"]);
});

