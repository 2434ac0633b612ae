/**
 * An action's record named by a unique field instead of its id (`key`), and the state an action requires of a record
 * it refers to (`requires`), as the engine runs them for every action (server/engine/actions.ts): on the real server
 * through the code's bind (tracesourcebind, keyed by the code, requiring the item's order paid); and on declarations
 * made for this file, registered on a registry of their own and called with the demo accounts' real authority, as the
 * protocol would call them once their checks have passed: the engine's own messages, a reference among the record's
 * own fields, a key unique within each provider sought across all of them. Expected outcomes are written out here.
 */
import { and, asc, count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ActionDecl } from "../../common/catalogue";
import { entities } from "../../resources.config";
import { auditLog, providers, shopOrderItems, shopOrders, traceSources } from "../../server/db/schema";
import { registerEntityActions, type ActionCall } from "../../server/engine/actions";
import { translator } from "../../server/lib/i18n";
import { ApiFailure } from "../../server/protocol/envelope";
import { OperationRegistry } from "../../server/protocol/registry";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, idByTitle, operationContextOf, type TestApp } from "./support";

type Row = Record<string, unknown>;

const PAID = ["undelivered", "delivered", "completed"];
const ROLES = ["servicev2", "systemv2"];
const asked = { label: "retail.trace.bind.submit", confirm: "retail.trace.bind.hint", roles: ROLES };
/** a shop order named by its number, unique platform-wide */
const orderByNumber: ActionDecl = { name: "testorderbyno", ...asked, key: "order_no" };
/** a code named by its value, unique within its provider */
const codeByValue: ActionDecl = { name: "testcodebyvalue", ...asked, key: "code" };
/** a bound code whose own order (a field of the record) must still be waiting to be delivered */
const codeOfWaitingOrder: ActionDecl = { name: "testcodeoforder", ...asked, from: ["bound"], requires: { field: "order_id", states: ["undelivered"] } };

const en = translator("en");

describeOnEmbedded("actions keyed by a unique field, and requiring a state of a record they refer to", (kind) => {
  let t: TestApp;
  let svc: string;
  let sunrise: number;
  let harbour: number;

  const call = (method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: svc, headers: { "accept-language": "en" } });
  const binds = async () => (await t.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, "tracesourcebind")))[0]!.n;
  const codeRow = async (code: string) => (await t.db.select().from(traceSources).where(eq(traceSources.code, code)))[0]!;
  /** a free code of a provider, and a paid order's item of the same provider */
  const freeCode = async (sysid: number) =>
    (await t.db.select({ code: traceSources.code }).from(traceSources).where(and(eq(traceSources.sysid, sysid), eq(traceSources.status, "free"))).orderBy(asc(traceSources.id)))[0]!.code;
  const paidItem = async (sysid: number) =>
    (
      await t.db
        .select({ id: shopOrderItems.id, order_id: shopOrderItems.order_id, status: shopOrders.status })
        .from(shopOrderItems)
        .innerJoin(shopOrders, eq(shopOrders.id, shopOrderItems.order_id))
        .where(and(eq(shopOrders.sysid, sysid), inArray(shopOrders.status, PAID)))
        .orderBy(asc(shopOrderItems.id))
    )[0]!;

  // the declarations of this file, on a registry of their own beside the catalogue's entities (their references' targets)
  const registry = new OperationRegistry();
  // what the effect was handed, by the last call that reached it
  let seen: ActionCall["referenced"] | undefined;
  const handed = () => seen;
  const extra: Record<string, ActionDecl[]> = { shoporder: [orderByNumber], tracesource: [codeByValue, codeOfWaitingOrder] };
  registerEntityActions(
    registry,
    entities.map((e) => ({ ...e, actions: extra[e.name] ?? [] })),
    {
      [codeOfWaitingOrder.name]: async (call) => {
        seen = call.referenced;
      },
    },
  );

  /** the action's record as answered, or its failure's message and fields */
  async function declared(username: string, method: string, payload: Row): Promise<{ items?: Row; message?: string; errors?: unknown }> {
    const ctx = await operationContextOf(t, username, payload);
    try {
      const result = await registry.get("adminapiv2", method)!.handler(ctx, ctx.payload);
      return { items: result.data?.items as Row };
    } catch (err) {
      if (err instanceof ApiFailure) return { message: en(err.messageKey, err.params), errors: err.data?.errors };
      throw err;
    }
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    svc = await t.login("svc");
    sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    harbour = await idByTitle(t.db, providers, "Harbour Education Services");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses a value no record of the caller's tenant holds as unknown, naming the key's field, another tenant's as well", async () => {
    const item = await paidItem(sunrise);
    const theirs = await freeCode(harbour);
    const before = await binds();
    for (const code of ["CG0000Z00001", theirs]) {
      const res = await call("tracesourcebind", { code, order_item_id: item.id });
      expect(res).toEqual({ return_code: "FAIL", return_msg: `No code ${code}`, data: { errors: [{ field: "code", message: `No code ${code}` }] } });
    }
    expect((await codeRow(theirs)).status).toBe("free");
    expect(await binds()).toBe(before);

    // the engine's own words, where the action gives none
    const order = (await t.db.select({ order_no: shopOrders.order_no }).from(shopOrders).where(eq(shopOrders.sysid, sunrise)))[0]!.order_no;
    const foreign = (await t.db.select({ order_no: shopOrders.order_no }).from(shopOrders).where(eq(shopOrders.sysid, harbour)))[0]!.order_no;
    expect((await declared("svc", orderByNumber.name, { order_no: order })).items).toMatchObject({ order_no: order });
    expect(await declared("svc", orderByNumber.name, { order_no: foreign })).toEqual({
      message: `Order no. “${foreign}” was not found`,
      errors: [{ field: "order_no", message: `Order no. “${foreign}” was not found` }],
    });
    // a value that can be no key is told as the field's kind tells it
    expect((await declared("svc", orderByNumber.name, {})).errors).toEqual([{ field: "order_no", message: expect.any(String) }]);
  });

  it("refuses an item of an order in a state it does not require, naming the field and the order's state, and changes nothing", async () => {
    const item = await paidItem(sunrise);
    const code = await freeCode(sunrise);
    const before = await binds();
    for (const [state, label] of [
      ["unpaid", "Unpaid"],
      ["cancelled", "Cancelled"],
    ]) {
      await t.db.update(shopOrders).set({ status: state }).where(eq(shopOrders.id, item.order_id));
      const res = await call("tracesourcebind", { code, order_item_id: item.id });
      const message = `The order is ${label}: no code can be bound to it`;
      expect(res).toEqual({ return_code: "FAIL", return_msg: message, data: { errors: [{ field: "order_item_id", message }] } });
    }
    await t.db.update(shopOrders).set({ status: item.status }).where(eq(shopOrders.id, item.order_id));
    expect(await codeRow(code)).toMatchObject({ status: "free", order_id: null, order_item_id: null });
    expect(await binds()).toBe(before);
  });

  it("refuses another tenant's item as unknown, naming the field", async () => {
    const code = await freeCode(sunrise);
    const theirs = await paidItem(harbour);
    const res = await call("tracesourcebind", { code, order_item_id: theirs.id });
    expect(res).toEqual({ return_code: "FAIL", return_msg: "No such order item", data: { errors: [{ field: "order_item_id", message: "No such order item" }] } });
    expect((await codeRow(code)).status).toBe("free");
  });

  it("requires a state of a record the record itself refers to, hands it to the effect, and refuses another tenant's as unknown", async () => {
    // a bound code of an order still to be delivered, and one of an order collected since
    const bound = await t.db
      .select({ id: traceSources.id, order_id: traceSources.order_id, status: shopOrders.status })
      .from(traceSources)
      .innerJoin(shopOrders, eq(shopOrders.id, traceSources.order_id))
      .where(eq(traceSources.sysid, sunrise))
      .orderBy(asc(traceSources.id));
    const waiting = bound.find((b) => b.status === "undelivered")!;
    const collected = bound.find((b) => b.status === "completed")!;

    seen = undefined;
    expect((await declared("svc", codeOfWaitingOrder.name, { id: waiting.id })).items).toMatchObject({ id: waiting.id, status: "bound" });
    expect(handed()?.order_id?.record).toMatchObject({ id: waiting.order_id, status: "undelivered" });
    expect(handed()?.order_id?.parent).toBeUndefined();

    seen = undefined;
    const message = "Shop order: the record chosen is Completed, so “Bind” is not possible";
    expect(await declared("svc", codeOfWaitingOrder.name, { id: collected.id })).toEqual({ message, errors: [{ field: "order_id", message }] });
    expect(handed()).toBeUndefined();

    // the code's order is another provider's: as if there were none
    const [theirs] = await t.db.select({ id: shopOrders.id }).from(shopOrders).where(and(eq(shopOrders.sysid, harbour), eq(shopOrders.status, "undelivered")));
    await t.db.update(traceSources).set({ order_id: theirs!.id }).where(eq(traceSources.id, waiting.id));
    const unknown = "Shop order: the chosen record does not exist or is not available";
    expect(await declared("svc", codeOfWaitingOrder.name, { id: waiting.id })).toEqual({ message: en("api.invalid_params", { field: "order_id" }), errors: [{ field: "order_id", message: unknown }] });
    await t.db.update(traceSources).set({ order_id: waiting.order_id }).where(eq(traceSources.id, waiting.id));
  });

  it("refuses a key unique within each provider sought across several, until the provider is named", async () => {
    const code = await freeCode(sunrise);
    const [theirs] = await t.db.select().from(traceSources).where(eq(traceSources.sysid, harbour)).limit(1);
    const { id: _id, ...copy } = theirs!;
    await t.db.insert(traceSources).values({ ...copy, code, status: "free", order_id: null, order_item_id: null, bound_at: null, bound_by: null });
    // a platform operator, acting in no provider
    const message = `Several records have Code “${code}”: name the provider or school you act in`;
    expect(await declared("sysadmin", codeByValue.name, { code })).toEqual({ message, errors: [{ field: "code", message }] });
    expect((await declared("sysadmin", codeByValue.name, { code, sysid: sunrise })).items).toMatchObject({ code, sysid: sunrise });
    expect((await declared("sysadmin", codeByValue.name, { code, sysid: harbour })).items).toMatchObject({ code, sysid: harbour });
    // a provider finds its own
    expect((await declared("svc", codeByValue.name, { code })).items).toMatchObject({ code, sysid: sunrise });
  });
});
