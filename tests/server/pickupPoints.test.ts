/**
 * Pickup points (catalogue/retail.ts, distrilist) and the pickup clerk's tenant: a v2 provider adds its points
 * with their verifiers (pickup accounts of its own, which it adds on its accounts page) and the schools they serve;
 * anything else named there is refused naming the field. A clerk reads the points it verifies at and nothing of
 * another point, takes a point it is made verifier of at its next call, and writes none. The tenant filter fails
 * closed for a clerk on a table without a pickup-point column, and the catalogue refuses an entity clerks may use
 * that names none. On both databases: a clerk's list is a statement of its own shape, prepared per database.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { CatalogueDomain, EntityDecl } from "../../common/catalogue";
import { assembleCatalogue } from "../../catalogue/assemble";
import { pickupPointEntity } from "../../catalogue/retail";
import { tenantFilter } from "../../server/auth/tenantFilter";
import { providers, schools, students, users } from "../../server/db/schema";
import { translator } from "../../server/lib/i18n";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";
import { and, count } from "drizzle-orm";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };
const en = translator("en");

it("refuses to load a catalogue whose entity a pickup clerk may read without a pickup-point column", () => {
  // the point alone (its references name entities of other domains, which this catalogue does not load)
  const point: EntityDecl = { ...pickupPointEntity, fields: pickupPointEntity.fields.filter((f) => f.type !== "ref") };
  const { tenantColumns: _points, ...withoutPoints } = point;
  const domain = (entity: EntityDecl): CatalogueDomain => ({ entities: [entity], pages: {} });
  expect(() => assembleCatalogue({ retail: domain(withoutPoints) }, [])).toThrow(/pickup clerks may use pickuppoint, which names no pickup-point column/);
  expect(() => assembleCatalogue({ retail: domain(point) }, [])).not.toThrow();
});

describeOnDatabases("pickup points", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let sunrise: number;
  const ids: Record<string, number> = {};

  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user], headers: EN });
  const items = (res: { data?: Record<string, unknown> }) => res.data?.items as Row[];
  async function accountId(user: string, username: string): Promise<number> {
    const res = await call(user, "userslist", { username });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    return Number(items(res).find((a) => a.username === username)!.id);
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "harbour", "svcv1", "pickup", "staff", "school"]) tokens[u] = await t.login(u);
    sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    for (const title of ["Sunrise No.1 Primary School", "Sunrise Middle School", "Harbour Bay School"]) ids[title] = await idByTitle(t.db, schools, title);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lets a v2 provider add a pickup clerk and a point it verifies at, serving chosen schools", async () => {
    const added = await call("svc", "usersadd", { username: "clerk_south", password: "south-gate-1", name: "South Gate Clerk", user_type: "pickup", status: "1" });
    expect(added.return_code, added.return_msg).toBe("SUCCESS");
    const clerk = await accountId("svc", "clerk_south");
    // a v1 provider has no pickup clerks: such an account could never sign in
    const v1 = await call("svcv1", "usersadd", { username: "clerk_v1", password: "south-gate-1", name: "V1 Clerk", user_type: "pickup", status: "1" });
    expect(v1.return_code).toBe("FAIL");
    expect(v1.return_msg).toBe(en("accounts.staff_needs_v2"));

    const point = await call("svc", "pickuppointadd", {
      title: "Sunrise South Gate Pickup",
      address: "South Gate, 1 Sunrise Road",
      phone: "021-5551030",
      opening_hours: "Mon-Fri 07:30-17:30",
      verifiers: [clerk],
      sch_ids: [ids["Sunrise No.1 Primary School"], ids["Sunrise Middle School"]],
      status: "1",
    });
    expect(point.return_code, point.return_msg).toBe("SUCCESS");
    const list = await call("svc", "pickuppointlist", { title: "South Gate" });
    expect(items(list)).toEqual([
      expect.objectContaining({
        title: "Sunrise South Gate Pickup",
        verifiers: [clerk],
        verifiers_title: ["South Gate Clerk (clerk_south)"],
        sch_ids: [ids["Sunrise No.1 Primary School"], ids["Sunrise Middle School"]],
        sch_ids_title: ["Sunrise No.1 Primary School", "Sunrise Middle School"],
        sysid: sunrise,
      }),
    ]);

    // the clerk's first call sees its point, and only it
    tokens.clerk_south = await t.login("clerk_south", "south-gate-1");
    const seen = await call("clerk_south", "pickuppointlist");
    expect(items(seen).map((p) => p.title)).toEqual(["Sunrise South Gate Pickup"]);
  });

  it("refuses verifiers that are no pickup clerks of the provider and schools of another provider, naming the field", async () => {
    const svcAccount = await accountId("svc", "svc");
    // Harbour's term has run out: its clerk is written as the accounts page would
    const harbour = await idByTitle(t.db, providers, "Harbour Education Services");
    const [{ id: foreignClerk }] = await t.db.insert(users).values({ username: "clerk_harbour", passwordHash: "-", name: "Harbour Clerk", userType: "pickup", sysid: harbour }).returning({ id: users.id });
    const base = { title: "Refused point", address: "Nowhere 1", sch_ids: [ids["Sunrise No.1 Primary School"]], status: "1" };
    for (const verifiers of [[svcAccount], [foreignClerk]]) {
      const res = await call("svc", "pickuppointadd", { ...base, verifiers });
      expect(res.return_code).toBe("FAIL");
      expect(res.data?.errors).toEqual([{ field: "verifiers", message: en("api.validation.reference", { label: en("retail.field.verifiers") }) }]);
    }
    const foreignSchool = await call("svc", "pickuppointadd", { ...base, sch_ids: [ids["Harbour Bay School"]] });
    expect(foreignSchool.data?.errors).toEqual([{ field: "sch_ids", message: en("api.validation.reference", { label: en("retail.field.sch_ids") }) }]);
    const noSchool = await call("svc", "pickuppointadd", { ...base, sch_ids: [] });
    expect((noSchool.data?.errors as Row[])[0]).toMatchObject({ field: "sch_ids" });
    const duplicate = await call("svc", "pickuppointadd", { ...base, title: "Sunrise North Gate Pickup" });
    expect((duplicate.data?.errors as Row[])[0]).toMatchObject({ field: "title" });
  });

  it("confines a clerk to the points it verifies at: another point answers as missing, and it writes none", async () => {
    const own = items(await call("pickup", "pickuppointlist"));
    expect(own.map((p) => p.title)).toEqual(["Sunrise North Gate Pickup"]);
    const svcPoints = items(await call("svc", "pickuppointlist", { limit: 50 }));
    const other = svcPoints.find((p) => p.title === "Sunrise Middle School Shop")!;
    const info = await call("pickup", "pickuppointinfo", { id: other.id });
    expect(info).toEqual({ return_code: "FAIL", return_msg: en("api.not_found") });
    expect((await call("pickup", "pickuppointinfo", { id: own[0]!.id })).return_code).toBe("SUCCESS");
    const edit = await call("pickup", "pickuppointedit", { id: own[0]!.id, title: "Mine now" });
    expect(edit).toEqual({ return_code: "FAIL", return_msg: en("api.no_permission") });
    // neither provider staff nor a school manage points
    for (const user of ["staff", "school", "harbour"]) {
      const res = await call(user, "pickuppointlist");
      if (user === "harbour") expect(items(res).map((p) => p.title)).toEqual(["Harbour Bay Front Desk"]);
      else expect(res).toEqual({ return_code: "FAIL", return_msg: en("api.no_permission") });
    }
  });

  it("gives a clerk a point at its next call once it is made a verifier there, and takes it away as well", async () => {
    const clerk = await accountId("svc", "pickup");
    const shop = items(await call("svc", "pickuppointlist", { title: "Middle School Shop" }))[0]!;
    const made = await call("svc", "pickuppointedit", { id: shop.id, verifiers: [clerk] });
    expect(made.return_code, made.return_msg).toBe("SUCCESS");
    expect(items(await call("pickup", "pickuppointlist")).map((p) => p.title).sort()).toEqual(["Sunrise Middle School Shop", "Sunrise North Gate Pickup"]);
    await call("svc", "pickuppointedit", { id: shop.id, verifiers: [] });
    expect(items(await call("pickup", "pickuppointlist")).map((p) => p.title)).toEqual(["Sunrise North Gate Pickup"]);
  });

  it("keeps a clerk's scope off every table without a pickup-point column (the filter fails closed)", async () => {
    const clerkScope = { sysid: sunrise, schids: null, pickupPointIds: [1] };
    const [row] = await t.db
      .select({ n: count() })
      .from(students)
      .where(and(...tenantFilter(clerkScope, { sysid: students.sysid, schid: students.sch_id })));
    expect(Number(row!.n)).toBe(0);
    const [provider] = await t.db
      .select({ n: count() })
      .from(students)
      .where(and(...tenantFilter({ ...clerkScope, pickupPointIds: null }, { sysid: students.sysid, schid: students.sch_id })));
    expect(Number(provider!.n)).toBeGreaterThan(0);
  });
});
