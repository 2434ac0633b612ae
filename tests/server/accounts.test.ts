/**
 * Accounts (userslist / usersinfo / usersadd / usersedit / usersresetpassword, users_adminlist / users_adminadd):
 * who sees and manages whose accounts, the shared validation naming the field, unique usernames (also when two
 * adds race), disabling and password resets ending the account's sessions at once, nobody disabling or demoting
 * themselves or the last active super administrator, and the list's schools resolved without a query per row.
 */
import { and, asc, count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ACCOUNT_PASSWORD_MIN, usersEntity, usersResetPassword } from "../../catalogue/accounts";
import { hasAnyRole, roleKeys } from "../../common/roleKeys";
import { auditLog, providers, schools, users, userSchools } from "../../server/db/schema";
import { MIN_PASSWORD_LENGTH } from "../../server/domains/site/site";
import { translator } from "../../server/lib/i18n";
import { loadAuthority } from "../../server/auth/authority";
import { ApiFailure, type Envelope } from "../../server/protocol/envelope";
import type { AppServices, OperationContext } from "../../server/protocol/registry";
import { describeOnDatabases } from "../helpers/db";
import { registeredOperations } from "./registryCases";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;
const zh = translator("zh");
const NOT_FOUND: Envelope = { return_code: "FAIL", return_msg: zh("api.not_found") };
/** the one answer to a username already taken, whoever holds it */
const USERNAME_UNAVAILABLE: Envelope = {
  return_code: "FAIL",
  return_msg: zh("api.username_unavailable"),
  data: { errors: [{ field: "username", message: zh("api.username_unavailable") }] },
};

/** The fields an answer's data.errors names. */
function errorFields(res: Envelope): string[] {
  return ((res.data?.errors as { field: string }[] | undefined) ?? []).map((e) => e.field);
}

function expectFieldFailure(res: Envelope, field: string): void {
  expect(res.return_code, JSON.stringify(res)).toBe("FAIL");
  expect(res.return_msg).not.toBe(zh("api.system_error"));
  expect(errorFields(res)[0], JSON.stringify(res)).toBe(field);
}

it("asks for passwords as long as the password change does", () => {
  expect(ACCOUNT_PASSWORD_MIN).toBe(MIN_PASSWORD_LENGTH);
  expect(usersEntity.fields.find((f) => f.name === "password")?.min).toBe(MIN_PASSWORD_LENGTH);
  expect(usersResetPassword.fields?.find((f) => f.name === "password")?.min).toBe(MIN_PASSWORD_LENGTH);
});

describeOnDatabases("accounts", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const call = (method: string, payload: Row, who: string) => t.call("adminapiv2", method, payload, { token: tokens[who] ?? who });
  const items = (res: Envelope) => res.data?.items as Row[];
  const usernames = (res: Envelope) => items(res).map((r) => r.username).sort();
  const loginAs = (username: string, password: string) => t.call("adminapi", "login", { username, password });
  const userId = async (username: string) => (await t.db.select({ id: users.id }).from(users).where(eq(users.username, username)))[0]!.id;

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "sysop", "sysv1", "svc", "staff", "pickup", "school", "harbour", "svcv1"]) {
      tokens[u] = await t.login(u);
      ids[u] = await userId(u);
    }
    for (const title of ["Sunrise Campus Services", "Harbour Education Services", "Old Town Education"]) ids[title] = await idByTitle(t.db, providers, title);
    for (const title of ["Sunrise No.1 Primary School", "Sunrise No.2 Primary School", "Sunrise Middle School", "Harbour Bay School", "Old Town Middle School"]) {
      ids[title] = await idByTitle(t.db, schools, title);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("who may call what", () => {
    it("refuses the account operations to schools, pickup clerks and provider staff, and the super administrators' to everyone else", async () => {
      const refused = { return_code: "FAIL", return_msg: zh("api.no_permission") };
      for (const who of ["staff", "pickup", "school"]) {
        for (const method of ["userslist", "usersinfo", "usersadd", "usersedit", "usersresetpassword", "users_adminlist", "users_adminadd"]) {
          expect(await call(method, { id: ids.svc }, who), `${method} as ${who}`).toEqual(refused);
        }
      }
      for (const who of ["sysop", "svc", "svcv1"]) {
        for (const method of ["users_adminlist", "users_adminadd"]) expect(await call(method, {}, who), `${method} as ${who}`).toEqual(refused);
      }
    });
  });

  describe("lists", () => {
    it("shows an operator the operator accounts, and the super administrators only to a super administrator", async () => {
      const all = await call("userslist", {}, "sysadmin");
      expect(all.return_code).toBe("SUCCESS");
      expect(usernames(all)).toEqual(["sysadmin", "sysop", "sysv1"]);
      expect(all.data?.total).toBe(3);
      expect(usernames(await call("userslist", {}, "sysop"))).toEqual(["sysop"]);
      expect(usernames(await call("users_adminlist", {}, "sysadmin"))).toEqual(["sysadmin", "sysv1"]);
      expect(usernames(await call("users_adminlist", {}, "sysv1"))).toEqual(["sysadmin", "sysv1"]);
    });

    it("shows a provider its accounts, school administrators with their schools by name and pickup clerks, never a password", async () => {
      const res = await call("userslist", {}, "svc");
      expect(usernames(res)).toEqual(["pickup", "staff", "svc"]);
      const staff = items(res).find((r) => r.username === "staff")!;
      expect(staff).toMatchObject({
        id: ids.staff,
        user_type: "service_schadmin",
        status: "1",
        schids: [ids["Sunrise No.1 Primary School"], ids["Sunrise No.2 Primary School"]],
        schids_title: ["Sunrise No.1 Primary School", "Sunrise No.2 Primary School"],
      });
      expect(items(res).find((r) => r.username === "svc")).toMatchObject({ user_type: "service", schids: [], schids_title: [] });
      // the demo clerk's mobile (kept on the pickup records it verifies); the others keep none
      expect(items(res).find((r) => r.username === "pickup")).toMatchObject({ id: ids.pickup, user_type: "pickup", schids: [], phone: "13917265408" });
      expect(staff.phone).toBeNull();
      for (const row of items(res)) for (const key of Object.keys(row)) expect(key).not.toMatch(/password/i);
      expect(usernames(await call("userslist", {}, "harbour"))).toEqual(["harbour"]);
      expect(usernames(await call("userslist", {}, "svcv1"))).toEqual(["svcv1"]);
    });

    it("gives an operator switched into a provider that provider's accounts", async () => {
      expect(usernames(await call("userslist", { sysid: ids["Sunrise Campus Services"] }, "sysop"))).toEqual(["pickup", "staff", "svc"]);
      expect(await call("userslist", { sysid: ids["Sunrise Campus Services"] }, "harbour")).toEqual(NOT_FOUND);
    });

    it("filters, sorts and pages like every list, and refuses bad list parameters naming them", async () => {
      expect(usernames(await call("userslist", { user_type: "service_schadmin" }, "svc"))).toEqual(["staff"]);
      expect(usernames(await call("userslist", { username: "ST" }, "svc"))).toEqual(["staff"]);
      expect(usernames(await call("userslist", { name: "Sunrise Admin" }, "svc"))).toEqual(["svc"]);
      expect(usernames(await call("userslist", { user_type: "pickup" }, "svc"))).toEqual(["pickup"]);
      expect(usernames(await call("userslist", { phone: "139172" }, "svc"))).toEqual(["pickup"]);
      const sorted = await call("userslist", { sort: "username", limit: 1, page: 3 }, "svc");
      expect(items(sorted).map((r) => r.username)).toEqual(["svc"]);
      expect(sorted.data?.total).toBe(3);
      expect(await call("userslist", { limit: 101 }, "svc")).toEqual({ return_code: "FAIL", return_msg: zh("api.bad_limit", { max: 100 }) });
      expect(await call("userslist", { status: "2" }, "svc")).toEqual({ return_code: "FAIL", return_msg: zh("api.invalid_params", { field: "status" }) });
      expect((await call("userslist", { sort: "password" }, "svc")).return_code).toBe("FAIL");
    });

    it("gives a record by id within the caller's accounts only", async () => {
      const own = await call("usersinfo", { id: ids.staff }, "svc");
      expect(own.data?.items).toMatchObject({ username: "staff", schids_title: ["Sunrise No.1 Primary School", "Sunrise No.2 Primary School"] });
      expect((await call("usersinfo", { id: ids.sysop }, "sysadmin")).data?.items).toMatchObject({ username: "sysop", user_type: "system", is_superadmin: "N" });
    });
  });

  describe("tenants", () => {
    it("answers another provider's accounts, operator accounts and super administrators like missing records", async () => {
      for (const [who, id] of [
        ["svc", ids.harbour],
        ["svc", ids.sysop],
        ["svc", ids.sysadmin],
        ["svc", ids.school],
        ["harbour", ids.staff],
        ["harbour", ids.pickup],
        ["svcv1", ids.svc],
        ["sysop", ids.sysadmin],
        ["sysop", ids.svc],
        ["sysadmin", ids.svc],
      ] as const) {
        const where = `${who} on ${id}`;
        expect(await call("usersinfo", { id }, who), where).toEqual(NOT_FOUND);
        expect(await call("usersedit", { id, name: "Taken over" }, who), where).toEqual(who === "harbour" ? { return_code: "FAIL", return_msg: zh("api.term_expired") } : NOT_FOUND);
        if (who !== "harbour") {
          expect(await call("usersedit", { id, status: "0" }, who), where).toEqual(NOT_FOUND);
          expect(await call("usersresetpassword", { id, password: "taken-over" }, who), where).toEqual(NOT_FOUND);
        }
      }
      expect(await call("usersinfo", { id: 999999 }, "svc")).toEqual(NOT_FOUND);
      expect(await call("usersinfo", { id: ids.harbour, sysid: ids["Harbour Education Services"] }, "svc")).toEqual(NOT_FOUND);
      // nothing changed
      const [harbour] = await t.db.select({ name: users.name, status: users.status }).from(users).where(eq(users.id, ids.harbour));
      expect(harbour).toEqual({ name: "Harbour Administrator", status: "1" });
      expect((await loginAs("sysadmin", "demo1234")).return_code).toBe("SUCCESS");
    });
  });

  describe("validation", () => {
    it("names the field of every bad input with the shared messages", async () => {
      const empty = await call("usersadd", {}, "svc");
      expect(empty.return_msg).toBe(zh("api.invalid_params", { field: "username" }));
      expect(errorFields(empty)).toEqual(expect.arrayContaining(["username", "password", "name"]));
      const good = { username: "clerk_a", password: "secret-1", name: "Clerk A", user_type: "service" };
      const cases: Array<[Row, string]> = [
        [{ username: "a b" }, "username"],
        [{ username: "ab" }, "username"],
        [{ username: "x".repeat(51) }, "username"],
        [{ password: "12345" }, "password"],
        [{ password: "" }, "password"],
        [{ name: "" }, "name"],
        [{ phone: "12345" }, "phone"],
        [{ phone: "call me" }, "phone"],
        [{ user_type: "admin" }, "user_type"],
        [{ status: "2" }, "status"],
        [{ user_type: "service_schadmin", schids: "1,2" }, "schids"],
        [{ user_type: "service_schadmin", schids: [0] }, "schids"],
        [{ user_type: "service_schadmin", schids: [{ id: 1 }] }, "schids"],
      ];
      for (const [change, field] of cases) {
        const res = await call("usersadd", { ...good, ...change }, "svc");
        expectFieldFailure(res, field);
      }
      const short = await call("usersadd", { ...good, password: "12345" }, "svc");
      expect(short.return_msg).toBe(zh("api.invalid_params", { field: "password" }));
      expect((short.data?.errors as { message: string }[])[0].message).toBe(zh("api.validation.too_short", { label: zh("accounts.field.password"), min: 6 }));
      expectFieldFailure(await call("usersedit", { id: ids.staff, status: "maybe" }, "svc"), "status");
      expectFieldFailure(await call("usersedit", { id: ids.staff, name: "" }, "svc"), "name");
      // a phone is checked as every phone field is, with the phone field's message
      const badPhone = await call("usersedit", { id: ids.staff, phone: "1380013800" }, "svc");
      expectFieldFailure(badPhone, "phone");
      expect((badPhone.data?.errors as { message: string }[])[0].message).toBe(zh("api.validation.phone", { label: zh("accounts.field.phone") }));
      expectFieldFailure(await call("usersedit", { id: ids.staff, schids: "abc" }, "svc"), "schids");
      expectFieldFailure(await call("usersedit", { id: ids.staff, username: "renamed" }, "svc"), "username");
      expectFieldFailure(await call("usersedit", { id: ids.staff, password: "sneaky-1" }, "svc"), "password");
      expectFieldFailure(await call("usersresetpassword", { id: ids.staff, password: "123" }, "svc"), "password");
      expectFieldFailure(await call("usersresetpassword", { id: ids.staff }, "svc"), "password");
      expect(await t.db.select({ n: count() }).from(users).where(eq(users.username, "clerk_a"))).toEqual([{ n: 0 }]);
    });

    it("keeps an account's optional phone as the phone field takes it, and takes it away when sent empty", async () => {
      const added = await call("usersadd", { username: "clerk_phone", password: "secret-1", name: "Clerk Phone", user_type: "pickup", phone: " 138 0013 8000 " }, "svc");
      expect(added.return_code, added.return_msg).toBe("SUCCESS");
      const id = Number((added.data?.items as Row).id);
      expect((added.data?.items as Row).phone).toBe("13800138000");
      expect((await call("usersinfo", { id }, "svc")).data?.items).toMatchObject({ phone: "13800138000" });
      // an edit leaving it out keeps it; one sending it empty takes it away
      expect((await call("usersedit", { id, name: "Clerk Phoned" }, "svc")).data?.items).toMatchObject({ phone: "13800138000" });
      expect((await call("usersedit", { id, phone: "021-55501234" }, "svc")).data?.items).toMatchObject({ phone: "021-55501234" });
      expect((await call("usersedit", { id, phone: "" }, "svc")).data?.items).toMatchObject({ phone: null });
      const withNone = await call("usersadd", { username: "clerk_nophone", password: "secret-1", name: "Clerk", user_type: "pickup" }, "svc");
      expect((withNone.data?.items as Row).phone).toBeNull();
      await t.db.delete(users).where(inArray(users.id, [id, Number((withNone.data?.items as Row).id)]));
    });

    it("lets a provider create only its own provider's accounts, and an operator only operator accounts", async () => {
      expectFieldFailure(await call("usersadd", { username: "sneaky_sys", password: "secret-1", name: "Sneaky", user_type: "system" }, "svc"), "user_type");
      expectFieldFailure(await call("usersedit", { id: ids.staff, user_type: "system" }, "svc"), "user_type");
      expectFieldFailure(await call("usersedit", { id: ids.staff, is_superadmin: "Y" }, "svc"), "is_superadmin");
      expectFieldFailure(await call("usersedit", { id: ids.sysop, is_superadmin: "Y" }, "sysop"), "is_superadmin");
      expectFieldFailure(await call("usersadd", { username: "op_svc", password: "secret-1", name: "Op", user_type: "service" }, "sysop"), "user_type");
      expectFieldFailure(await call("usersadd", { username: "op_sys", password: "secret-1", name: "Op", user_type: "system", sysid: ids["Sunrise Campus Services"] }, "sysop"), "user_type");
      expect(await t.db.select({ n: count() }).from(users).where(eq(users.userType, "system"))).toEqual([{ n: 3 }]);

      // an operator's new account is an operator of its generation, never a super administrator
      const op = await call("usersadd", { username: "op_two", password: "secret-1", name: "Operator Two", user_type: "system" }, "sysadmin");
      expect(op.return_code).toBe("SUCCESS");
      expect(op.data?.items).toMatchObject({ username: "op_two", user_type: "system", is_superadmin: "N", status: "1" });
      const login = await loginAs("op_two", "secret-1");
      expect((login.data?.items as { data: Row }).data).toMatchObject({ user_type: "system", servicer_ver: "v2", is_superadmin: "N" });
      const v1 = await call("usersadd", { username: "op_v1", password: "secret-1", name: "Operator V1", user_type: "system" }, "sysv1");
      expect(((await loginAs("op_v1", "secret-1")).data?.items as { data: Row }).data).toMatchObject({ servicer_ver: "v1", is_superadmin: "N" });
      expect(v1.return_code).toBe("SUCCESS");

      // switched into a provider, an operator adds that provider's accounts
      const switched = await call("usersadd", { username: "svc_two", password: "secret-1", name: "Sunrise Two", user_type: "service", sysid: ids["Sunrise Campus Services"] }, "sysop");
      expect(switched.data?.items).toMatchObject({ username: "svc_two", user_type: "service" });
      const [row] = await t.db.select({ sysid: users.sysid }).from(users).where(eq(users.username, "svc_two"));
      expect(row.sysid).toBe(ids["Sunrise Campus Services"]);
    });

    it("takes an account sent back whole: a username or super administrator flag as it stands is no change", async () => {
      for (const [who, id] of [
        ["svc", ids.staff],
        ["svc", ids.svc],
        ["sysop", ids.sysop],
        ["sysadmin", ids.sysop],
      ] as const) {
        const record = (await call("usersinfo", { id }, who)).data?.items as Row;
        const res = await call("usersedit", { ...record, name: `${String(record.name)} (edited)` }, who);
        expect(res.return_code, `${who} on ${String(record.username)}: ${JSON.stringify(res)}`).toBe("SUCCESS");
        expect(res.data?.items).toMatchObject({ ...record, name: `${String(record.name)} (edited)` });
        expect((await call("usersedit", { ...record }, who)).data?.items).toEqual(record);
      }
      // a value that differs is still refused: another name, another case of it, a promotion by a provider
      for (const username of ["renamed", "STAFF", ""]) expectFieldFailure(await call("usersedit", { id: ids.staff, username }, "svc"), "username");
      expectFieldFailure(await call("usersedit", { id: ids.staff, is_superadmin: "Y" }, "svc"), "is_superadmin");
      const [staff] = await t.db.select({ username: users.username, isSuperadmin: users.isSuperadmin }).from(users).where(eq(users.id, ids.staff));
      expect(staff).toEqual({ username: "staff", isSuperadmin: "N" });
    });

    it("requires the account type and never assumes one, on add and on edit", async () => {
      const typeless = { username: "typeless", password: "secret-1", name: "Typeless" };
      for (const [who, extra] of [
        ["svc", {}],
        ["sysadmin", {}],
        ["sysop", { sysid: ids["Sunrise Campus Services"] }],
      ] as const) {
        for (const sent of [{}, { user_type: "" }, { user_type: null }]) {
          const res = await call("usersadd", { ...typeless, ...extra, ...sent }, who);
          expectFieldFailure(res, "user_type");
          expect(res.return_msg).toBe(zh("api.invalid_params", { field: "user_type" }));
          expect((res.data?.errors as { message: string }[])[0].message).toBe(zh("api.validation.required", { label: zh("accounts.field.user_type") }));
        }
      }
      expect(await t.db.select({ n: count() }).from(users).where(eq(users.username, "typeless"))).toEqual([{ n: 0 }]);
      expectFieldFailure(await call("usersedit", { id: ids.staff, user_type: "" }, "svc"), "user_type");
      const [staff] = await t.db.select({ userType: users.userType }).from(users).where(eq(users.id, ids.staff));
      expect(staff.userType).toBe("service_schadmin");
    });

    it("offers each caller exactly the account types the server lets it create", async () => {
      const sunrise = ids["Sunrise Campus Services"];
      const oldTown = ids["Old Town Education"];
      // the role keys the form sees: the login's, or a provider's once an operator has switched into it
      const loginRoles = async (who: string) => ((await t.call("adminapi", "getuserinfo", {}, { token: tokens[who] })).data?.items as { roles: string[] }).roles;
      const switchedRoles = (ver: string) => roleKeys({ user_type: "service", servicer_ver: ver });
      const callers: Array<[string, string, string[], Row]> = [
        ["sysadmin", "sysadmin", await loginRoles("sysadmin"), {}],
        ["sysop", "sysop", await loginRoles("sysop"), {}],
        ["sysv1", "sysv1", await loginRoles("sysv1"), {}],
        ["svc", "svc", await loginRoles("svc"), {}],
        ["svcv1", "svcv1", await loginRoles("svcv1"), {}],
        ["sysop in Sunrise", "sysop", switchedRoles("v2"), { sysid: sunrise }],
        ["sysop in Old Town", "sysop", switchedRoles("v1"), { sysid: oldTown }],
      ];
      const schoolOf: Record<number, number> = { [sunrise]: ids["Sunrise Middle School"], [oldTown]: ids["Old Town Middle School"] };
      const userType = usersEntity.fields.find((f) => f.name === "user_type")!;
      let n = 0;
      for (const [label, who, roles, extra] of callers) {
        const offered = (userType.options ?? []).filter((o) => !o.roles || hasAnyRole(roles, o.roles)).map((o) => o.value);
        expect(offered.length, label).toBeGreaterThan(0);
        const accepted: string[] = [];
        for (const option of userType.options ?? []) {
          const sysid = (extra.sysid as number | undefined) ?? (who.startsWith("svc") ? (who === "svc" ? sunrise : oldTown) : undefined);
          const schids = option.value === "service_schadmin" && sysid !== undefined ? [schoolOf[sysid]] : undefined;
          const res = await call("usersadd", { username: `offered_${++n}`, password: "secret-1", name: "Offered", user_type: option.value, ...extra, ...(schids ? { schids } : {}) }, who);
          if (res.return_code === "SUCCESS") accepted.push(option.value);
          else expectFieldFailure(res, "user_type");
        }
        expect(accepted, label).toEqual(offered);
      }
    });

    it("assigns a school administrator schools of the caller's provider only, and v1 providers none", async () => {
      const staff = { username: "staff_b", password: "secret-1", name: "Staff B", user_type: "service_schadmin" };
      expectFieldFailure(await call("usersadd", staff, "svc"), "schids");
      expectFieldFailure(await call("usersadd", { ...staff, schids: [] }, "svc"), "schids");
      expectFieldFailure(await call("usersadd", { ...staff, schids: [ids["Sunrise No.1 Primary School"], ids["Harbour Bay School"]] }, "svc"), "schids");
      expectFieldFailure(await call("usersadd", { ...staff, schids: [999999] }, "svc"), "schids");
      expectFieldFailure(await call("usersadd", { ...staff, user_type: "service", schids: [ids["Sunrise No.1 Primary School"]] }, "svc"), "schids");
      expectFieldFailure(await call("usersedit", { id: ids.staff, schids: [ids["Harbour Bay School"]] }, "svc"), "schids");
      expectFieldFailure(await call("usersadd", { ...staff, username: "staff_v1", schids: [ids["Old Town Middle School"]] }, "svcv1"), "user_type");

      const added = await call("usersadd", { ...staff, schids: [ids["Sunrise Middle School"], String(ids["Sunrise No.1 Primary School"])] }, "svc");
      expect(added.return_code).toBe("SUCCESS");
      expect(added.data?.items).toMatchObject({
        username: "staff_b",
        user_type: "service_schadmin",
        schids: [ids["Sunrise No.1 Primary School"], ids["Sunrise Middle School"]],
        schids_title: ["Sunrise No.1 Primary School", "Sunrise Middle School"],
      });
      // the new account sees its schools only
      const token = await t.login("staff_b", "secret-1");
      const visible = await t.call("adminapiv2", "schoollist", {}, { token });
      expect((visible.data?.items as Row[]).map((s) => s.title).sort()).toEqual(["Sunrise Middle School", "Sunrise No.1 Primary School"]);

      const id = Number((added.data?.items as Row).id);
      const moved = await call("usersedit", { id, schids: [ids["Sunrise No.2 Primary School"]] }, "svc");
      expect(moved.data?.items).toMatchObject({ schids: [ids["Sunrise No.2 Primary School"]], schids_title: ["Sunrise No.2 Primary School"] });
      // a provider account has no schools of its own
      const promoted = await call("usersedit", { id, user_type: "service" }, "svc");
      expect(promoted.data?.items).toMatchObject({ user_type: "service", schids: [] });
      expect(await t.db.select({ n: count() }).from(userSchools).where(eq(userSchools.userId, id))).toEqual([{ n: 0 }]);
      expectFieldFailure(await call("usersedit", { id, user_type: "service_schadmin" }, "svc"), "schids");
      const demoted = await call("usersedit", { id, user_type: "service_schadmin", schids: [ids["Sunrise Middle School"]] }, "svc");
      expect(demoted.data?.items).toMatchObject({ user_type: "service_schadmin", schids_title: ["Sunrise Middle School"] });
    });
  });

  describe("usernames", () => {
    it("are unique across the platform, with a FAIL naming username", async () => {
      for (const [who, username, userType] of [
        ["svc", "harbour", "service"],
        ["svc", "sysadmin", "service"],
        ["sysadmin", "svc", "system"],
        ["svcv1", "staff", "service"],
      ] as const) {
        const res = await call("usersadd", { username, password: "secret-1", name: "Copy", user_type: userType }, who);
        expect(res, `${who} adding ${username}`).toEqual(USERNAME_UNAVAILABLE);
      }
      const admin = await call("users_adminadd", { username: "sysop", password: "secret-1", name: "Copy" }, "sysadmin");
      expect(errorFields(admin)).toEqual(["username"]);
    });

    it("are unique when two adds race: one succeeds, the other gets the same FAIL, never a system error", async () => {
      for (const round of [1, 2, 3]) {
        const username = `racer_${round}`;
        const payload = { username, password: "secret-1", name: "Racer", user_type: "service" };
        const answers = await Promise.all([call("usersadd", payload, "svc"), call("usersadd", { ...payload, sysid: ids["Sunrise Campus Services"] }, "sysop")]);
        const codes = answers.map((a) => a.return_code).sort();
        expect(codes, JSON.stringify(answers)).toEqual(["FAIL", "SUCCESS"]);
        const failed = answers.find((a) => a.return_code === "FAIL")!;
        expect(failed).toEqual(USERNAME_UNAVAILABLE);
        expect(errorFields(failed)).toEqual(["username"]);
        expect(await t.db.select({ n: count() }).from(users).where(eq(users.username, username))).toEqual([{ n: 1 }]);
      }
    });
  });

  describe("disabling", () => {
    it("ends the account's sessions at once and refuses its login until it is enabled again", async () => {
      const added = await call("usersadd", { username: "clerk_off", password: "secret-1", name: "Clerk", user_type: "service_schadmin", schids: [ids["Sunrise No.1 Primary School"]] }, "svc");
      const id = Number((added.data?.items as Row).id);
      const token = await t.login("clerk_off", "secret-1");
      expect((await t.call("adminapi", "getuserinfo", {}, { token })).return_code).toBe("SUCCESS");

      const off = await call("usersedit", { id, status: "0" }, "svc");
      expect(off.return_code).toBe("SUCCESS");
      expect(off.data?.items).toMatchObject({ status: "0" });
      expect((await t.call("adminapi", "getuserinfo", {}, { token })).return_code).toBe("token_error");
      expect((await t.call("adminapiv2", "schoollist", {}, { token })).return_code).toBe("token_error");
      expect(await loginAs("clerk_off", "secret-1")).toEqual({ return_code: "FAIL", return_msg: zh("api.account_disabled") });
      expect(items(await call("userslist", { status: "0" }, "svc")).map((r) => r.username)).toEqual(["clerk_off"]);

      expect((await call("usersedit", { id, status: "1" }, "svc")).return_code).toBe("SUCCESS");
      expect((await t.call("adminapi", "getuserinfo", {}, { token })).return_code).toBe("token_error");
      expect((await loginAs("clerk_off", "secret-1")).return_code).toBe("SUCCESS");

      const audited = await t.db.select({ action: auditLog.action, userId: auditLog.userId }).from(auditLog).where(and(eq(auditLog.entity, "users"), eq(auditLog.entityId, String(id)))).orderBy(asc(auditLog.id));
      expect(audited.map((a) => a.action)).toEqual(["usersadd", "usersedit", "usersedit"]);
      expect(audited.every((a) => a.userId === ids.svc)).toBe(true);
    });

    it("never disables or demotes the caller's own account", async () => {
      expect(await call("usersedit", { id: ids.svc, status: "0" }, "svc")).toEqual({
        return_code: "FAIL",
        return_msg: zh("accounts.cannot_disable_self"),
        data: { errors: [{ field: "status", message: zh("accounts.cannot_disable_self") }] },
      });
      expectFieldFailure(await call("usersedit", { id: ids.svc, user_type: "service_schadmin", schids: [ids["Sunrise No.1 Primary School"]] }, "svc"), "user_type");
      expectFieldFailure(await call("usersedit", { id: ids.sysop, status: "0" }, "sysop"), "status");
      expectFieldFailure(await call("usersedit", { id: ids.sysadmin, status: "0" }, "sysadmin"), "status");
      expectFieldFailure(await call("usersedit", { id: ids.sysadmin, is_superadmin: "N" }, "sysadmin"), "is_superadmin");
      expectFieldFailure(await call("usersresetpassword", { id: ids.svc, password: "secret-9" }, "svc"), "id");
      // a name is still one's own to change
      expect((await call("usersedit", { id: ids.svc, name: "Sunrise Administrator" }, "svc")).return_code).toBe("SUCCESS");
      const [svc] = await t.db.select({ status: users.status, userType: users.userType }).from(users).where(eq(users.id, ids.svc));
      expect(svc).toEqual({ status: "1", userType: "service" });
      expect((await t.call("adminapi", "getuserinfo", {}, { token: tokens.svc })).return_code).toBe("SUCCESS");
    });
  });

  describe("super administrators", () => {
    it("are added by super administrators, demoted by them, and never all taken away, even by two at once", async () => {
      const added = await call("users_adminadd", { username: "root2", password: "secret-1", name: "Root Two" }, "sysadmin");
      expect(added.return_code).toBe("SUCCESS");
      expect(added.data?.items).toMatchObject({ username: "root2", user_type: "system", is_superadmin: "Y", status: "1" });
      expect(usernames(await call("users_adminlist", {}, "sysadmin"))).toEqual(["root2", "sysadmin", "sysv1"]);
      const rootToken = await t.login("root2", "secret-1");
      expect((await t.call("adminapi", "getuserinfo", {}, { token: rootToken })).data?.items).toMatchObject({ roles: ["systemv2", "superadminv2"] });

      // a demoted super administrator keeps an operator's rights only, at once
      expect((await call("usersedit", { id: ids.sysv1, is_superadmin: "N" }, "sysadmin")).return_code).toBe("SUCCESS");
      expect((await t.call("adminapiv2", "users_adminlist", {}, { token: tokens.sysv1 })).return_msg).toBe(zh("api.no_permission"));
      expect(usernames(await call("users_adminlist", {}, "sysadmin"))).toEqual(["root2", "sysadmin"]);

      // two super administrators disabling each other at once: one of them stays
      const rootId = await userId("root2");
      const answers = await Promise.all([call("usersedit", { id: rootId, status: "0" }, "sysadmin"), t.call("adminapiv2", "usersedit", { id: ids.sysadmin, status: "0" }, { token: rootToken })]);
      expect(answers.filter((a) => a.return_code === "SUCCESS"), JSON.stringify(answers)).toHaveLength(1);
      const loser = answers.find((a) => a.return_code !== "SUCCESS")!;
      expect([zh("accounts.last_superadmin"), zh("api.token_invalid")]).toContain(loser.return_msg);
      const active = await t.db
        .select({ username: users.username })
        .from(users)
        .where(and(eq(users.userType, "system"), eq(users.isSuperadmin, "Y"), eq(users.status, "1")));
      expect(active).toHaveLength(1);

      // the one left is the last: nobody can disable or demote it
      const survivor = active[0].username;
      const survivorId = await userId(survivor);
      const survivorToken = survivor === "sysadmin" ? tokens.sysadmin : rootToken;
      const otherId = survivor === "sysadmin" ? rootId : ids.sysadmin;
      expect((await t.call("adminapi", "getuserinfo", {}, { token: survivorToken })).return_code).toBe("SUCCESS");
      expectFieldFailure(await t.call("adminapiv2", "usersedit", { id: survivorId, status: "0" }, { token: survivorToken }), "status");
      // enabling the other again, then demoting it, leaves the survivor the last once more
      expect((await t.call("adminapiv2", "usersedit", { id: otherId, status: "1" }, { token: survivorToken })).return_code).toBe("SUCCESS");
      expect((await t.call("adminapiv2", "usersedit", { id: otherId, is_superadmin: "N" }, { token: survivorToken })).return_code).toBe("SUCCESS");
      expect((await t.db.select({ n: count() }).from(users).where(and(eq(users.isSuperadmin, "Y"), eq(users.status, "1"))))[0].n).toBe(1);
    });

    it("answers the guard's own refusal when the other super administrator's removal lands between a call's session check and its change", async () => {
      // the race of the test above played in order, so that both databases show the guard's answer: on the embedded
      // database two calls never interleave, and the loser of a race is refused for its ended session instead
      const [survivor] = await t.db
        .select({ username: users.username })
        .from(users)
        .where(and(eq(users.userType, "system"), eq(users.isSuperadmin, "Y"), eq(users.status, "1")));
      const survivorToken = await t.login(survivor!.username, survivor!.username === "sysadmin" ? "demo1234" : "secret-1");
      for (const username of ["root3", "root4"]) {
        const added = await t.call("adminapiv2", "users_adminadd", { username, password: "secret-1", name: username }, { token: survivorToken });
        expect(added.return_code, added.return_msg).toBe("SUCCESS");
      }
      const [root3, root4] = [await userId("root3"), await userId("root4")];
      const [token3, token4] = [await t.login("root3", "secret-1"), await t.login("root4", "secret-1")];
      expect((await t.call("adminapiv2", "usersedit", { id: await userId(survivor!.username), is_superadmin: "N" }, { token: token3 })).return_code).toBe("SUCCESS");

      // root3's call has passed its session check as a super administrator...
      const usersedit = registeredOperations().find((o) => o.path === "adminapiv2" && o.method === "usersedit")!;
      const staleAuth = (await loadAuthority(t.db, root3))!;
      expect(staleAuth.isSuperadmin).toBe("Y");
      // ...when root4 takes root3's rights away
      expect((await t.call("adminapiv2", "usersedit", { id: root3, is_superadmin: "N" }, { token: token4 })).return_code).toBe("SUCCESS");
      const staleCall = async (payload: Row) => {
        const ctx = {
          services: {} as AppServices,
          db: t.db,
          payload,
          t: zh,
          language: "zh",
          now: t.clock.now(),
          ip: "127.0.0.1",
          userAgent: "accounts test",
          origin: "http://127.0.0.1",
          log: t.app.log,
          auth: staleAuth,
          tokenHash: null,
          roles: staleAuth.roles,
        } as OperationContext;
        try {
          await usersedit.handler(ctx, payload);
          return null;
        } catch (err) {
          return err instanceof ApiFailure ? { key: err.messageKey, errors: err.data?.errors } : err;
        }
      };
      // root4 is the last active super administrator: root3's change is refused by the guard, naming the field
      for (const [field, value] of [["is_superadmin", "N"], ["status", "0"]] as const) {
        expect(await staleCall({ id: root4, [field]: value }), field).toEqual({
          key: "accounts.last_superadmin",
          errors: [{ field, message: zh("accounts.last_superadmin") }],
        });
      }
      const [kept] = await t.db.select({ isSuperadmin: users.isSuperadmin, status: users.status }).from(users).where(eq(users.id, root4));
      expect(kept).toEqual({ isSuperadmin: "Y", status: "1" });
      expect((await t.call("adminapi", "getuserinfo", {}, { token: token4 })).data?.items).toMatchObject({ roles: ["systemv2", "superadminv2"] });
      expect((await t.call("adminapiv2", "users_adminlist", {}, { token: token3 })).return_msg).toBe(zh("api.no_permission"));
    });
  });

  describe("password reset", () => {
    it("sets a new password, ends the account's sessions and lets only the new password in", async () => {
      const staffToken = await t.login("staff");
      const res = await call("usersresetpassword", { id: ids.staff, password: "fresh-pass" }, "svc");
      expect(res).toEqual({ return_code: "SUCCESS", return_msg: zh("accounts.password_reset_done", { username: "staff" }) });
      expect((await t.call("adminapi", "getuserinfo", {}, { token: staffToken })).return_code).toBe("token_error");
      expect((await t.call("adminapi", "getuserinfo", {}, { token: tokens.staff })).return_code).toBe("token_error");
      expect(await loginAs("staff", "demo1234")).toEqual({ return_code: "FAIL", return_msg: zh("api.login_failed") });
      expect((await loginAs("staff", "fresh-pass")).return_code).toBe("SUCCESS");
      const audited = await t.db.select({ detail: auditLog.detail }).from(auditLog).where(and(eq(auditLog.action, "usersresetpassword"), eq(auditLog.entityId, String(ids.staff))));
      expect(audited).toHaveLength(1);
      expect(JSON.stringify(audited)).not.toContain("fresh-pass");
      // the operator resets it back (switched into the provider)
      expect((await call("usersresetpassword", { id: ids.staff, password: "demo1234", sysid: ids["Sunrise Campus Services"] }, "sysop")).return_code).toBe("SUCCESS");
      expect((await loginAs("staff", "demo1234")).return_code).toBe("SUCCESS");
    });
  });

  describe("the list's schools", () => {
    it("are resolved in one query per page, whatever the number of rows", async () => {
      const sysid = ids["Sunrise Campus Services"];
      const assigned = [ids["Sunrise No.2 Primary School"], ids["Sunrise Middle School"]];
      for (let i = 0; i < 40; i++) {
        const [row] = await t.db
          .insert(users)
          .values({ username: `bulk_${String(i).padStart(2, "0")}`, passwordHash: "x", name: `Bulk ${i}`, userType: "service_schadmin", sysid })
          .returning({ id: users.id });
        await t.db.insert(userSchools).values(assigned.map((schId) => ({ userId: row.id, schId })));
      }
      const selects = vi.spyOn(t.db, "select");
      try {
        const queriesFor = async (limit: number) => {
          selects.mockClear();
          const res = await call("userslist", { user_type: "service_schadmin", limit, sort: "username" }, "svc");
          expect(items(res)).toHaveLength(limit);
          for (const row of items(res)) {
            expect(row.schids).toEqual(assigned);
            expect(row.schids_title).toEqual(["Sunrise No.2 Primary School", "Sunrise Middle School"]);
          }
          return selects.mock.calls.length;
        };
        const one = await queriesFor(1);
        const many = await queriesFor(40);
        expect(many).toBe(one);
        expect(many).toBeLessThanOrEqual(3);
      } finally {
        selects.mockRestore();
      }
    });
  });
});
