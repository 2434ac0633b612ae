/**
 * A list's page written as JSON from the database's text (server/engine/listPage.ts) is the page the rows read as
 * objects give: for every list of the catalogue, called with the authority of the first demo account allowed it,
 * the page read on the database (its text) equals the page read inside a transaction (which has no text reader,
 * so its rows are read as objects), value for value and key for key. On both databases.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { entities } from "../../resources.config";
import { loadAuthority, type Authority } from "../../server/auth/authority";
import { users } from "../../server/db/schema";
import { queryRows } from "../../server/db/client";
import { registerCatalogueOperations } from "../../server/engine/crud";
import { concatAll } from "../../server/engine/listPage";
import { translator } from "../../server/lib/i18n";
import { JsonText } from "../../server/protocol/envelope";
import { OperationRegistry, type AppServices, type OperationContext, type SessionOperation } from "../../server/protocol/registry";
import { DEMO_ACCOUNTS } from "../../server/seed/demo";
import { describeOnDatabases } from "../helpers/db";
import { demoRowCount, demoRowsNeeded, entityOf } from "./registryCases";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;

describeOnDatabases("list pages written from the database's text", (kind) => {
  let t: TestApp;
  const registry = new OperationRegistry();
  registerCatalogueOperations(registry, entities);
  const authorities = new Map<string, Authority>();

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const account of DEMO_ACCOUNTS) {
      const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, account.username));
      authorities.set(account.username, (await loadAuthority(t.db, user!.id))!);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  function context(db: OperationContext["db"], auth: Authority, payload: Row): OperationContext {
    return {
      services: {} as AppServices,
      db,
      // a payload of its own per call: the scope resolved for it is kept with it
      payload: { ...payload },
      t: translator("zh"),
      language: "zh",
      now: t.clock.now(),
      ip: "127.0.0.1",
      userAgent: "list page test",
      origin: "http://127.0.0.1",
      log: t.app.log,
      auth,
      tokenHash: null,
      roles: auth.roles,
    };
  }

  it("writes a row of more values than one call of concat takes (100)", async () => {
    const parts = Array.from({ length: 250 }, (_, i) => sql`${String(i % 10)}::text`);
    const [row] = await queryRows<{ joined: string }>(t.db, sql`select ${concatAll(parts)} as joined`);
    expect(row.joined).toBe(Array.from({ length: 250 }, (_, i) => String(i % 10)).join(""));
  });

  it("answers every list's page as the rows read as objects do", async () => {
    // the entities' lists: the calls that read the session's state beside a page of rows
    const lists = registry.all().filter((op): op is SessionOperation<unknown> => op.needsToken && Boolean(op.confirmsSession) && op.method === `${entityOf(op)?.name}list`);
    expect(lists.length).toBeGreaterThan(20);
    const fromText: string[] = [];
    let rowsCompared = 0;
    for (const operation of lists) {
      const roles = operation.roles;
      const username = [...authorities].find(([, auth]) => roles === "any signed-in user" || auth.roles.some((role) => roles.includes(role)))?.[0];
      if (!username) continue;
      const auth = authorities.get(username)!;
      const payload = { page: 1, limit: 100 };
      const read = await operation.handler(context(t.db, auth, payload), payload);
      const asObjects = await t.db.transaction(async (tx) => (await operation.handler(context(tx as OperationContext["db"], auth, payload), payload)).data);
      expect(asObjects?.items, operation.method).toBeInstanceOf(Array);
      if (read.data?.items instanceof JsonText) fromText.push(operation.method);
      // as the answer carries them: the text's JSON, and the objects' JSON
      expect(JSON.parse(JSON.stringify(read.data)), `${operation.method} as ${username}`).toEqual(JSON.parse(JSON.stringify(asObjects)));
      rowsCompared += (asObjects?.items as unknown[]).length;
      // an entity's list is compared on a page of its demo rows (but an entity without any on purpose)
      const entity = entityOf(operation);
      if (entity && operation.method === `${entity.name}list` && (asObjects?.items as unknown[]).length === 0) {
        demoRowsNeeded(entity, await demoRowCount(t, entity), `${operation.method} as ${username} (the first demo account allowed it) reads to compare its page from the database's text`);
      }
    }
    // the pages compared hold rows of every kind of value, and the lists SQL can write are written so
    expect(rowsCompared).toBeGreaterThan(300);
    expect(fromText).toEqual(expect.arrayContaining(["orderlist", "studentlist", "billlist", "schoollist", "refundlist"]));
    // a masked bank account is written by the server, which alone masks it; an activity's classes are named apart
    expect(fromText).not.toContain("paychnllist");
    expect(fromText).not.toContain("activitylist");
  });

  it("answers a list asked alike by callers of other tenants with each caller's own rows", async () => {
    // the conditions of a list asked before are kept by what was asked and the caller's scope (ListPlans): callers
    // of other providers and schools sending the same payload, one after another and back, each read their own
    const list = registry.get("adminapiv2", "orderlist")!;
    const payload = { status: "paid", page: 1, limit: 50 };
    const callers = ["svc", "harbour", "school", "staff", "svc", "school", "harbour"];
    const seen = new Map<string, string>();
    for (const username of callers) {
      const auth = authorities.get(username)!;
      const items = JSON.parse(JSON.stringify((await list.handler(context(t.db, auth, payload), payload)).data?.items)) as Row[];
      expect(items.length, username).toBeGreaterThan(0);
      for (const item of items) {
        expect(item.sysid, username).toBe(auth.sysid);
        if (auth.schid !== null) expect(item.sch_id, username).toBe(auth.schid);
        if (auth.userType === "service_schadmin") expect(auth.assignedSchoolIds, username).toContain(item.sch_id);
      }
      const ids = items.map((item) => item.id).join(",");
      // asked again, a caller reads the same page
      if (seen.has(username)) expect(ids, username).toBe(seen.get(username));
      seen.set(username, ids);
    }
  });
});
