/**
 * The state rules of every record action, held to a table written by hand (stateRules.expected.ts), not to the
 * declarations under test: the catalogue must declare the states, actions, start states and roles the table
 * holds, no more and no fewer; and on the real server each action, called on a record in each state as each demo
 * account, is refused (by role, then by state, changing nothing and auditing nothing) or let through exactly as
 * the table says (in a state's own words where the table gives them). The payer page's rule (which bills an order
 * may hold) is held to the table too. Other tenants' ids are covered for every action by authorization.test.ts, bad
 * values by fuzz.test.ts.
 */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EntityDecl } from "../../common/catalogue";
import { termExpired } from "../../server/auth/expiry";
import { tableColumn, tenantColumnNames } from "../../server/db/catalogueTables";
import { auditLog, bills, catalogueTables, paymentChannels, reconBatches, reconItems, shopOrderItems, shopOrders, traceSources } from "../../server/db/schema";
import { entities } from "../../resources.config";
import { refundEntity, refundReview } from "../../catalogue/collectionRefunds";
import { registerEntityActions } from "../../server/engine/actions";
import { OperationRegistry } from "../../server/protocol/registry";
import { describeOnEmbedded } from "../helpers/db";
import { findStudent, h5, payerWorld, unpaidStudents } from "./payerSupport";
import { demoAccountCases, sessionOf, type DemoAccountCase } from "./registryCases";
import { expectedPayableBillStates, expectedStateRules, type ExpectedAction, type ExpectedEntity } from "./stateRules.expected";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;

const REFUSED_BY_ROLE = /^You are not allowed to do this$/;
const REFUSED_BY_STATE = /is not possible: the record is /;

const declaredStateful = entities.filter((entity) => entity.stateField);
const declaredStates = (entity: EntityDecl) => entity.fields.find((f) => f.name === entity.stateField)?.options?.map((o) => o.value) ?? [];
const sorted = (values: readonly string[]) => [...values].sort();

/** What each action is sent besides the record's id: fields that pass its checks, so only its rules can refuse it. */
function payloadOf(action: string, state: string): Row {
  switch (action) {
    case "activityact":
      return { act: state === "draft" ? "open" : "close" };
    case "billwaive":
      return { reason: "Family hardship" };
    case "billadjust":
      return { amount: "1.00", reason: "Sibling discount" };
    case "refundadd":
    case "shoporderrefund":
      return { amount: "0.01", reason: "Overpaid" };
    case "refundreview":
    case "paychnlreview":
    case "registerreview":
      return { result: "reject", reason: "Not as agreed" };
    case "aftersalereview":
      return { result: "refuse", reason: "Not as described" };
    case "aftersalereceive":
      return { result: "refuse", reason: "Not the item sold" };
    case "miniappcommit":
      return { user_version: "1.0.1", user_desc: "Term fees" };
    case "miniappprivacy":
      return { privacy_ver: "dev", notice_method: "In-app notice", privacy_settings: "UserInfo: to show the payer's name" };
    case "miniappsandbox":
      return { event: "audit_success" };
    case "reconrun":
      return { bill_date: "2026-03-01" };
    case "reconresolve":
      return { note: "Checked with the bank" };
    case "shoporderdeliver":
    case "zdorderdeliver":
      return { express_code: "SF", tracking_no: "SF1000000001" };
    default:
      return {};
  }
}

/**
 * The actions whose effect may refuse a demo record the rules let through, and why: the check is then that neither
 * the role nor the state refused it.
 */
const effectMayRefuse = new Set([
  // a demo activity past its end date is not opened
  "activityact",
  // a guardian reminded within the provider's interval (by the account before) is not reminded again
  "billremind",
  // a demo order put back in unpaid was paid at its gateway, which is asked first: the payment stands
  "shopordercancel",
  // a demo app put in released without a version before it has nothing to go back to
  "miniapprevert",
  // the demo publishes through the sandbox, whose apps need no owner's authorisation
  "miniappauthorize",
]);

/**
 * What a record must hold for an action's effect to let it through, besides the table's rules: a code bound in the
 * demo, whose order's item has a place for it again once it is put back in free (recordPayload below).
 */
const effectNeeds: Readonly<Record<string, (row: Row) => boolean>> = {
  tracesourcebind: (row) => row.order_item_id !== null,
};

describe("the declarations hold the expected state rules", () => {
  it("declares every entity with states the table holds, and no other", () => {
    expect(sorted(declaredStateful.map((e) => e.name))).toEqual(sorted(Object.keys(expectedStateRules)));
  });

  for (const [name, expected] of Object.entries(expectedStateRules)) {
    it(`${name}: its states, its actions, where each starts and who may call it`, () => {
      const entity = entities.find((e) => e.name === name);
      expect(entity?.stateField, `${name} declares a state field`).toBeDefined();
      expect(sorted(declaredStates(entity!)), `${name}'s states`).toEqual(sorted(expected.states));
      const declared = entity!.actions ?? [];
      expect(sorted(declared.map((a) => a.name)), `${name}'s actions`).toEqual(sorted(Object.keys(expected.actions)));
      for (const action of declared) {
        const want = expected.actions[action.name]!;
        expect(sorted(action.from ?? []), `${action.name} starts from`).toEqual(sorted(want.from));
        expect(sorted(action.roles), `${action.name} is called by`).toEqual(sorted(want.roles));
        expect(action.onlyWhere, `${action.name} is only for`).toEqual(want.onlyWhere);
        expect(sorted(Object.keys(action.refuseIn ?? {})), `${action.name} is refused in words of its own in`).toEqual(sorted(Object.keys(want.refusedAs ?? {})));
      }
    });
  }
});

describe("an action's result field", () => {
  const withReview = (review: typeof refundReview) => [{ ...refundEntity, actions: [review] }];
  const register = (review: typeof refundReview) => () => registerEntityActions(new OperationRegistry(), withReview(review));

  it("chooses the state of each decision, declared for every option and only among the action's states", () => {
    expect(register(refundReview)).not.toThrow();
    expect(register({ ...refundReview, result: { field: "result", to: { approve: "processing" } } })).toThrow("refundreview: its result reject leads to no state of processing, rejected");
    expect(register({ ...refundReview, result: { field: "result", to: { approve: "success", reject: "rejected" } } })).toThrow("refundreview: its result approve leads to no state");
    expect(register({ ...refundReview, result: { field: "reason", to: {} } })).toThrow("refundreview: its result reason is no required enum field of the action");
    // without a result, an action of several states needs an effect to choose one
    expect(register({ ...refundReview, result: undefined })).toThrow("refundreview leads to several states");
  });
});

describeOnEmbedded("record actions on the server", (kind) => {
  let t: TestApp;
  let accounts: DemoAccountCase[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    // within their terms: an expired account is refused everything by its term (expiredTerm tests)
    accounts = (await demoAccountCases(t)).filter((a) => !termExpired(a.auth, t.clock.now()));
    await openDifferencesOfEveryProvider();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A difference to resolve for each provider with channels: a batch of one on its first channel, where the demo data has none. */
  async function openDifferencesOfEveryProvider() {
    const channels = await t.db.select().from(paymentChannels);
    const withItems = new Set((await t.db.select({ sysid: reconItems.sysid }).from(reconItems)).map((r) => r.sysid));
    for (const sysid of new Set(channels.map((c) => c.sysid).filter((s) => !withItems.has(s)))) {
      const channel = channels.find((c) => c.sysid === sysid)!;
      const [batch] = await t.db
        .insert(reconBatches)
        .values({ paychnl_id: channel.id, bill_date: "2026-01-05", status: "differences", missing_local: 1, open_items: 1, sysid })
        .returning();
      await t.db
        .insert(reconItems)
        .values({ batch_id: batch!.id, paychnl_id: channel.id, bill_date: "2026-01-05", kind: "payment", pay_no: `P${channel.id}X`, outcome: "missing_local", status: "open", bill_amount: 100, sysid });
    }
  }

  /** Whether the row lies in the account's tenant. */
  function ownRow(entity: EntityDecl, row: Row, account: DemoAccountCase): boolean {
    if (account.sysid === null) return true;
    const tenant = tenantColumnNames(entity);
    const sysidColumn = tenant.sysid ?? entity.providerColumn;
    if (sysidColumn && Number(row[sysidColumn]) !== account.sysid) return false;
    return !tenant.schid || account.schids === null || account.schids.includes(Number(row[tenant.schid]));
  }

  /** The record an account acts on: one of its own the action is for, or (refused by role anyway) any. */
  async function recordOf(entity: EntityDecl, action: string, account: DemoAccountCase, mayCall: boolean, rule: ExpectedAction): Promise<unknown> {
    const fits = effectNeeds[action] ?? (() => true);
    const rows = ((await t.db.select().from(catalogueTables[entity.name]!)) as Row[]).filter(
      (r) => Object.entries(rule.onlyWhere ?? {}).every(([field, values]) => values.includes(String(r[field]))) && fits(r),
    );
    const row = rows.find((r) => ownRow(entity, r, account)) ?? (mayCall ? undefined : rows[0]);
    expect(row, `the demo data holds a ${entity.name} record of ${account.username}`).toBeDefined();
    return row!.id;
  }

  /** The record in a state, and the fields the action's `onlyWhere` names as they were (an action let through may change them: a fee order's goods sent). */
  async function putIn(entity: EntityDecl, id: unknown, state: string, kept: Row = {}): Promise<Row> {
    const table = catalogueTables[entity.name]!;
    await t.db
      .update(table)
      .set({ ...kept, [entity.stateField!]: state })
      .where(eq(tableColumn(table, "id"), id));
    return stored(entity, id);
  }

  async function stored(entity: EntityDecl, id: unknown): Promise<Row> {
    const table = catalogueTables[entity.name]!;
    const [row] = (await t.db.select().from(table).where(eq(tableColumn(table, "id"), id))) as Row[];
    return row!;
  }

  /**
   * What an action is sent that depends on its record: the item a code is bound to, of a paid order of the code's
   * provider and SKU with a place left but for the code (the one it is bound to in the demo, put back in free).
   */
  async function recordPayload(action: string, row: Row): Promise<Row> {
    if (action !== "tracesourcebind") return {};
    const [item] = await t.db
      .select({ id: shopOrderItems.id })
      .from(shopOrderItems)
      .innerJoin(shopOrders, eq(shopOrders.id, shopOrderItems.order_id))
      .where(
        and(
          eq(shopOrders.sysid, Number(row.sysid)),
          eq(shopOrderItems.sku_id, Number(row.sku_id)),
          inArray(shopOrders.status, ["undelivered", "delivered", "completed"]),
          sql`(select count(*) from ${traceSources} where ${traceSources.order_item_id} = ${shopOrderItems.id} and ${traceSources.status} = 'bound' and ${ne(traceSources.id, Number(row.id))}) < ${shopOrderItems.qty}`,
        ),
      )
      .limit(1);
    expect(item, `the demo data holds a paid order's item for code ${String(row.code)}`).toBeDefined();
    return { order_item_id: item!.id };
  }

  async function audited(action: string, id: unknown): Promise<number> {
    return (await t.db.select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(id))))).length;
  }

  for (const [name, expected] of Object.entries(expectedStateRules) as [string, ExpectedEntity][]) {
    for (const [actionName, rule] of Object.entries(expected.actions)) {
      it(`${actionName}: from ${rule.from.join(", ")} only, by ${rule.roles.join(", ")} only`, async () => {
        const entity = entities.find((e) => e.name === name)!;
        const declared = entity.actions?.find((a) => a.name === actionName);
        for (const account of accounts) {
          const mayCall = account.auth.roles.some((role) => rule.roles.includes(role));
          const id = await recordOf(entity, actionName, account, mayCall, rule);
          const token = await sessionOf(t, account);
          const originalRow = await stored(entity, id);
          const original = originalRow[entity.stateField!] as string;
          const kept = Object.fromEntries(Object.keys(rule.onlyWhere ?? {}).map((field) => [field, originalRow[field]]));
          for (const state of expected.states) {
            const before = await putIn(entity, id, state, kept);
            const auditsBefore = await audited(actionName, id);
            // the record named as the action names it: by its id (or idField), or by its key's value
            const naming = declared?.key ? { [declared.key]: before[declared.key] } : { [declared?.idField ?? "id"]: id };
            const payload = { ...naming, ...payloadOf(actionName, state), ...(mayCall ? await recordPayload(actionName, before) : {}) };
            const res = await t.call(entity.apiPath ?? "adminapiv2", actionName, payload, { token, headers: { "accept-language": "en" } });
            const where = `${actionName} as ${account.username} (${account.auth.roles.join(", ")}) from ${state}: ${res.return_msg}`;
            if (!mayCall) {
              expect(res.return_code, where).toBe("FAIL");
              expect(res.return_msg, where).toMatch(REFUSED_BY_ROLE);
            } else if (!rule.from.includes(state)) {
              expect(res.return_code, where).toBe("FAIL");
              expect(res.return_msg, where).toMatch(rule.refusedAs?.[state] ?? REFUSED_BY_STATE);
            } else {
              if (effectMayRefuse.has(actionName)) {
                expect(res.return_msg, where).not.toMatch(REFUSED_BY_ROLE);
                expect(res.return_msg, where).not.toMatch(REFUSED_BY_STATE);
              } else expect(res.return_code, where).toBe("SUCCESS");
              continue;
            }
            expect(await stored(entity, id), where).toEqual(before);
            expect(await audited(actionName, id), where).toBe(auditsBefore);
          }
          // the record back as the demo data had it, for the tests after
          await putIn(entity, id, original, kept);
        }
      });
    }
  }

  it("puts in a payer's order only a bill in a payable state", async () => {
    const svc = accounts.find((a) => a.username === "svc")!;
    const world = await payerWorld(t, await sessionOf(t, svc));
    const [student] = await unpaidStudents(t, world, 1);
    const ticket = await findStudent(t, world, student!);
    const states = expectedStateRules.bill!.states;
    // a payable state last: its order then holds the bill
    for (const state of [...states.filter((s) => !expectedPayableBillStates.includes(s)), ...expectedPayableBillStates]) {
      await t.db.update(bills).set({ status: state }).where(eq(bills.id, student!.billId));
      const res = await h5(t, "h5pay", { ticket, bill_ids: [student!.billId] });
      if (expectedPayableBillStates.includes(state)) expect(res.return_code, `${state}: ${res.return_msg}`).toBe("SUCCESS");
      else expect(res.return_msg, state).toBe("A bill chosen can no longer be paid. Please refresh the list.");
    }
  });
});
