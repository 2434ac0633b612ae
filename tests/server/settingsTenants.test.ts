/**
 * A settings page's record per tenant (server/engine/settings.ts): a provider page keeps one record per provider
 * and a school page one per school, each caller reading and saving its own tenant's (a platform operator the
 * provider it names with sysid, a provider the school it names with sch_id), never another's. The product has
 * only the platform's site settings yet, so two declarations made for this file (one provider page, one school
 * page) are registered on a registry of their own and their operations called with the demo accounts' real
 * authority, as the protocol would call them once their checks have passed. On both databases.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { SettingsDecl } from "../../common/catalogue";
import { providers, schools } from "../../server/db/schema";
import { registerSettingsOperations } from "../../server/engine/settings";
import { ApiFailure } from "../../server/protocol/envelope";
import { OperationRegistry } from "../../server/protocol/registry";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, idByTitle, operationContextOf, type TestApp } from "./support";

type Row = Record<string, unknown>;

const fields: SettingsDecl["fields"] = [
  { name: "notice", type: "string", label: "field.remark", max: 100, default: "Nothing yet" },
  { name: "days", type: "int", label: "field.sort", min: 0, max: 99 },
];
const ROLES = ["systemv2", "servicev2", "service_schadminv2", "schoolv2", "system", "service", "school"];
const providerPage: SettingsDecl = { name: "testprovset", scope: "provider", title: "entity.service", roles: { info: ROLES, edit: ROLES }, fields };
const schoolPage: SettingsDecl = { name: "testschset", scope: "school", title: "entity.school", roles: { info: ROLES, edit: ROLES }, fields };

describeOnEmbedded("settings records per tenant", (kind) => {
  let t: TestApp;
  const registry = new OperationRegistry();
  registerSettingsOperations(registry, [providerPage, schoolPage]);
  const id: Record<string, number> = {};

  /** the operation's answer, or the key of the FAIL it throws */
  async function call(username: string, method: string, payload: Row = {}): Promise<Row | string> {
    const operation = registry.get("adminapiv2", method)!;
    const ctx = await operationContextOf(t, username, payload, "zh");
    try {
      const result = await operation.handler(ctx, ctx.payload);
      return result.data?.items as Row;
    } catch (err) {
      if (err instanceof ApiFailure) return err.messageKey;
      throw err;
    }
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    id.sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    id.harbour = await idByTitle(t.db, providers, "Harbour Education Services");
    id.no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    id.no2 = await idByTitle(t.db, schools, "Sunrise No.2 Primary School");
    id.middle = await idByTitle(t.db, schools, "Sunrise Middle School");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("keeps a provider page's record per provider: each provider and the operator acting in it read and save that provider's", async () => {
    expect(await call("svc", "testprovsetedit", { notice: "Sunrise notice", days: 3 })).toEqual({ notice: "Sunrise notice", days: 3 });
    expect(await call("harbour", "testprovsetedit", { notice: "Harbour notice" })).toEqual({ notice: "Harbour notice", days: null });

    expect(await call("svc", "testprovsetinfo")).toEqual({ notice: "Sunrise notice", days: 3 });
    expect(await call("harbour", "testprovsetinfo")).toEqual({ notice: "Harbour notice", days: null });
    // a provider that saved nothing reads the defaults
    expect(await call("svcv1", "testprovsetinfo")).toEqual({ notice: "Nothing yet", days: null });
    // the staff and the schools of a provider read their provider's record
    expect(await call("staff", "testprovsetinfo")).toEqual({ notice: "Sunrise notice", days: 3 });
    expect(await call("school", "testprovsetinfo")).toEqual({ notice: "Sunrise notice", days: 3 });

    // an operator acts in the provider it names, and needs one
    expect(await call("sysadmin", "testprovsetinfo", { sysid: id.harbour })).toEqual({ notice: "Harbour notice", days: null });
    expect(await call("sysadmin", "testprovsetedit", { sysid: id.harbour, days: 7 })).toEqual({ notice: "Harbour notice", days: 7 });
    expect(await call("sysadmin", "testprovsetinfo", { sysid: id.sunrise })).toEqual({ notice: "Sunrise notice", days: 3 });
    expect(await call("sysadmin", "testprovsetinfo")).toBe("api.scope_required");
    expect(await call("svc", "testprovsetinfo")).toEqual({ notice: "Sunrise notice", days: 3 });
    // another provider's record is out of reach
    expect(await call("svc", "testprovsetinfo", { sysid: id.harbour })).toBe("api.not_found");
    expect(await call("svc", "testprovsetedit", { sysid: id.harbour, notice: "Taken over" })).toBe("api.not_found");
    expect(await call("harbour", "testprovsetinfo")).toEqual({ notice: "Harbour notice", days: 7 });
  });

  it("keeps a school page's record per school: a school its own, its provider and staff the school they name", async () => {
    expect(await call("school", "testschsetedit", { notice: "No.1 notice" })).toEqual({ notice: "No.1 notice", days: null });
    expect(await call("svc", "testschsetedit", { sch_id: id.no2, notice: "No.2 notice", days: 2 })).toEqual({ notice: "No.2 notice", days: 2 });

    expect(await call("school", "testschsetinfo")).toEqual({ notice: "No.1 notice", days: null });
    expect(await call("svc", "testschsetinfo", { sch_id: id.no1 })).toEqual({ notice: "No.1 notice", days: null });
    expect(await call("svc", "testschsetinfo", { sch_id: id.no2 })).toEqual({ notice: "No.2 notice", days: 2 });
    expect(await call("svc", "testschsetinfo", { sch_id: id.middle })).toEqual({ notice: "Nothing yet", days: null });
    expect(await call("sysadmin", "testschsetinfo", { sch_id: id.no2 })).toEqual({ notice: "No.2 notice", days: 2 });
    // a provider names the school: without one there is no record to read
    expect(await call("svc", "testschsetinfo")).toBe("api.school_required");

    // the staff (No.1 and No.2 assigned) read each assigned school's record, and no other school's
    expect(await call("staff", "testschsetinfo", { sch_id: id.no1 })).toEqual({ notice: "No.1 notice", days: null });
    expect(await call("staff", "testschsetinfo", { sch_id: id.no2 })).toEqual({ notice: "No.2 notice", days: 2 });
    expect(await call("staff", "testschsetinfo", { sch_id: id.middle })).toBe("api.not_found");
    // a school cannot reach a sibling's record
    expect(await call("school", "testschsetinfo", { sch_id: id.no2 })).toBe("api.not_found");
    expect(await call("school", "testschsetedit", { sch_id: id.no2, notice: "Taken over" })).toBe("api.not_found");
    expect(await call("svc", "testschsetinfo", { sch_id: id.no2 })).toEqual({ notice: "No.2 notice", days: 2 });
    expect(await call("schoolv1", "testschsetinfo")).toEqual({ notice: "Nothing yet", days: null });
  });
});
