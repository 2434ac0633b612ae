import { and, eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_THROTTLE } from "../../server/auth/throttle";
import { hashToken } from "../../server/auth/sessions";
import { auditLog, providers, schools, sessions, users } from "../../server/db/schema";
import { tableColumn } from "../../server/db/catalogueTables";
import { describeOnDatabases } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

const EXPECTED_ROLES: Record<string, string[]> = {
  sysadmin: ["systemv2", "superadminv2"],
  sysop: ["systemv2"],
  sysv1: ["system", "superadmin"],
  svc: ["servicev2", "xcxuploadv2", "is_show_fee"],
  staff: ["service_schadminv2", "xcxuploadv2"],
  pickup: ["pickup"],
  school: ["schoolv2"],
  harbour: ["servicev2"],
  svcv1: ["service"],
  schoolv1: ["paymode", "school"],
};

describeOnDatabases("sessions", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("login", () => {
    it("returns a token and the session facts of the spec", async () => {
      const res = await t.call("adminapi", "login", { username: "svc", password: "demo1234" });
      expect(res.return_code).toBe("SUCCESS");
      expect(String(res.data?.token)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const facts = (res.data?.items as { data: Record<string, string> }).data;
      expect(facts).toMatchObject({
        user_type: "service",
        login_usertype: "service",
        username: "svc",
        servicer_ver: "v2",
        schid: "",
        is_superadmin: "N",
        is_show_fee: "Y",
        select_paymode: "N",
        xcx_upload: "Y",
        service_name: "Sunrise Campus Services",
        service_end_time: "2026-03-12",
        kfurl: "https://support.example.com/chat",
      });
      expect(facts.sysid).toMatch(/^\d+$/);
    });

    it("gives system users no provider and school users their school", async () => {
      const sys = await t.call("adminapi", "login", { username: "sysv1", password: "demo1234" });
      expect((sys.data?.items as { data: Record<string, string> }).data).toMatchObject({ user_type: "system", sysid: "", schid: "", servicer_ver: "v1", is_superadmin: "Y", service_end_time: "" });
      const school = await t.call("adminapi", "login", { username: "schoolv1", password: "demo1234" });
      const facts = (school.data?.items as { data: Record<string, string> }).data;
      expect(facts).toMatchObject({ user_type: "school", servicer_ver: "v1", select_paymode: "Y" });
      expect(facts.schid).toMatch(/^\d+$/);
    });

    it("trims the username and answers the same for a wrong password and an unknown user", async () => {
      await expect(t.login("  sysop  ")).resolves.toBeTruthy();
      const wrong = await t.call("adminapi", "login", { username: "sysop", password: "nope123" });
      const unknown = await t.call("adminapi", "login", { username: "nobody", password: "nope123" });
      expect(wrong.return_code).toBe("FAIL");
      expect(unknown.return_code).toBe("FAIL");
      expect(wrong.return_msg).toBe("用户名或密码错误");
      expect(unknown.return_msg).toBe(wrong.return_msg);
      expect(wrong.data).toBeUndefined();
    });

    it("refuses a disabled user and the users of a disabled provider", async () => {
      await t.db.update(users).set({ status: "0" }).where(eq(users.username, "harbour"));
      const disabled = await t.call("adminapi", "login", { username: "harbour", password: "demo1234" });
      expect(disabled.return_code).toBe("FAIL");
      expect(disabled.return_msg).toBe("账号已停用");
      await t.db.update(users).set({ status: "1" }).where(eq(users.username, "harbour"));

      const [harbourUser] = await t.db.select().from(users).where(eq(users.username, "harbour"));
      await t.db.update(providers).set({ status: "0" }).where(eq(tableColumn(providers, "id"), harbourUser.sysid!));
      expect((await t.call("adminapi", "login", { username: "harbour", password: "demo1234" })).return_code).toBe("FAIL");
      await t.db.update(providers).set({ status: "1" }).where(eq(tableColumn(providers, "id"), harbourUser.sysid!));
      await expect(t.login("harbour")).resolves.toBeTruthy();
    });

    it("refuses provider staff and pickup accounts of a v1 provider, which spec 4.1 would make system", async () => {
      const [svcv1] = await t.db.select().from(users).where(eq(users.username, "svcv1"));
      const [{ passwordHash }] = await t.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.username, "svc"));
      await t.db.insert(users).values([
        { username: "v1staff", passwordHash, userType: "service_schadmin", sysid: svcv1.sysid },
        { username: "v1pickup", passwordHash, userType: "pickup", sysid: svcv1.sysid },
      ]);
      for (const username of ["v1staff", "v1pickup"]) {
        expect(await t.call("adminapi", "login", { username, password: "demo1234" })).toEqual({ return_code: "FAIL", return_msg: "账号已停用" });
      }
    });

    it("locks an account after five failures a minute, with a growing delay, and tells how long", async () => {
      const attempt = (password: string) => t.call("adminapi", "login", { username: "sysadmin", password }, { headers: { "x-forwarded-for": "1.1.1.1" } });
      for (let i = 0; i < 5; i++) expect((await attempt("wrong-password")).return_msg).toBe("用户名或密码错误");
      const locked = await attempt("demo1234");
      expect(locked.return_code).toBe("FAIL");
      expect(locked.return_msg).toBe("登录失败次数过多，请在 60 秒后再试");

      t.clock.advance(61_000);
      for (let i = 0; i < 5; i++) await attempt("wrong-password");
      const lockedLonger = await attempt("demo1234");
      expect(lockedLonger.return_msg).toBe("登录失败次数过多，请在 120 秒后再试");
      const english = await t.call("adminapi", "login", { username: "sysadmin", password: "demo1234" }, { headers: { "accept-language": "en-US,en;q=0.9" } });
      expect(english.return_msg).toBe("Too many failed logins, please try again in 120 seconds");

      t.clock.advance(121_000);
      await expect(t.login("sysadmin")).resolves.toBeTruthy();
      // a success clears the account's count
      for (let i = 0; i < 4; i++) await attempt("wrong-password");
      await expect(t.login("sysadmin")).resolves.toBeTruthy();
    });

    it("writes login, failed login and logout to the audit log", async () => {
      const token = await t.login("staff");
      await t.call("adminapi", "login", { username: "staff", password: "bad-one" });
      await t.call("adminapi", "logout", {}, { token });
      const rows = await t.db.select().from(auditLog).where(eq(auditLog.username, "staff"));
      const actions = rows.map((r) => r.action);
      expect(actions).toEqual(expect.arrayContaining(["login", "login_failed", "logout"]));
      expect(rows.every((r) => r.at instanceof Date)).toBe(true);
    });
  });

  describe("throttling per address", () => {
    it("locks an address that fails on many accounts, whichever account it tries next", async () => {
      const perIp = { maxFailures: 3, windowMs: 60_000, firstLockMs: 30_000, maxLockMs: 3_600_000 };
      const strict = await createTestApp(kind, { throttle: { ...DEFAULT_THROTTLE, perUsername: { ...perIp, maxFailures: 100 }, perIp } });
      try {
        for (const username of ["svc", "staff", "school"]) await strict.call("adminapi", "login", { username, password: "wrong-one" });
        const locked = await strict.call("adminapi", "login", { username: "sysop", password: "demo1234" });
        expect(locked).toEqual({ return_code: "FAIL", return_msg: "登录失败次数过多，请在 30 秒后再试" });
        strict.clock.advance(30_001);
        await expect(strict.login("sysop")).resolves.toBeTruthy();
      } finally {
        await strict.close();
      }
    });
  });

  describe("getuserinfo", () => {
    it.each(Object.entries(EXPECTED_ROLES))("gives %s the role keys of DESIGN 11", async (username, roles) => {
      const token = await t.login(username);
      const res = await t.call("adminapi", "getuserinfo", {}, { token });
      expect(res.return_code).toBe("SUCCESS");
      const items = res.data?.items as Record<string, unknown>;
      expect(items.roles).toEqual(roles);
      expect(items).toMatchObject({ username, avatar: expect.any(String), introduction: expect.any(String), name: expect.any(String) });
    });
  });

  describe("token_error", () => {
    it("answers token_error for a missing or unknown token", async () => {
      const missing = await t.call("adminapi", "getuserinfo");
      expect(missing).toEqual({ return_code: "token_error", return_msg: "登录已失效，请重新登录" });
      expect((await t.call("adminapi", "getuserinfo", {}, { token: "made-up" })).return_code).toBe("token_error");
      expect((await t.call("adminapiv2", "getsysinfo", {}, { token: "x".repeat(500) })).return_code).toBe("token_error");
    });

    it("revokes the token on logout", async () => {
      const token = await t.login("pickup");
      expect((await t.call("adminapi", "logout", {}, { token })).return_code).toBe("SUCCESS");
      expect((await t.call("adminapi", "getuserinfo", {}, { token })).return_code).toBe("token_error");
    });

    it("expires a session idle for two hours, and keeps a used one alive", async () => {
      const idle = await t.login("sysop");
      const used = await t.login("sysop");
      t.clock.advance(119 * 60_000);
      expect((await t.call("adminapi", "getuserinfo", {}, { token: used })).return_code).toBe("SUCCESS");
      t.clock.advance(2 * 60_000);
      expect((await t.call("adminapi", "getuserinfo", {}, { token: idle })).return_code).toBe("token_error");
      expect((await t.call("adminapi", "getuserinfo", {}, { token: used })).return_code).toBe("SUCCESS");
    });

    it("expires every session twelve hours after login, however busy", async () => {
      const token = await t.login("sysop");
      for (let hour = 0; hour < 11; hour++) {
        t.clock.advance(60 * 60_000);
        expect((await t.call("adminapi", "getuserinfo", {}, { token })).return_code).toBe("SUCCESS");
      }
      t.clock.advance(60 * 60_000 + 1000);
      expect((await t.call("adminapi", "getuserinfo", {}, { token })).return_code).toBe("token_error");
    });

    it("writes the last use of calls made together, when it is due for all of them at once", async () => {
      const token = await t.login("sysop");
      t.clock.advance(31_000);
      const answers = await Promise.all(Array.from({ length: 12 }, () => t.call("adminapi", "getuserinfo", {}, { token })));
      expect(answers.map((a) => a.return_code)).toEqual(Array(12).fill("SUCCESS"));
      const [row] = await t.db.select({ lastSeenAt: sessions.lastSeenAt }).from(sessions).where(eq(sessions.tokenHash, hashToken(token)));
      expect(row!.lastSeenAt.getTime()).toBe(t.clock.now().getTime());
    });

    if (kind === "postgres") {
      it("answers without waiting while another call holds the session's row, and writes the last use at the next call", async () => {
        const token = await t.login("sysop");
        t.clock.advance(31_000);
        const holder = new pg.Client({ connectionString: t.testDb.url });
        await holder.connect();
        try {
          await holder.query("begin");
          await holder.query("select 1 from sessions where token_hash = $1 for update", [hashToken(token)]);
          // a call that waited for the row would wait for the holder, which only ends after it
          const answered = await Promise.race([
            t.call("adminapi", "getuserinfo", {}, { token }).then((a) => a.return_code),
            new Promise((resolve) => setTimeout(() => resolve("still waiting after 5 seconds"), 5000)),
          ]);
          expect(answered).toBe("SUCCESS");
        } finally {
          await holder.query("rollback").catch(() => undefined);
          await holder.end();
        }
        expect((await t.call("adminapi", "getuserinfo", {}, { token })).return_code).toBe("SUCCESS");
        const [row] = await t.db.select({ lastSeenAt: sessions.lastSeenAt }).from(sessions).where(eq(sessions.tokenHash, hashToken(token)));
        expect(row!.lastSeenAt.getTime()).toBe(t.clock.now().getTime());
      });
    }

    it("ends the sessions of a user disabled meanwhile", async () => {
      const token = await t.login("svcv1");
      await t.db.update(users).set({ status: "0" }).where(eq(users.username, "svcv1"));
      expect((await t.call("adminapi", "getuserinfo", {}, { token })).return_code).toBe("token_error");
      await t.db.update(users).set({ status: "1" }).where(eq(users.username, "svcv1"));
    });
  });

  describe("lists, which confirm a session this process resolved lately in their own statement", () => {
    let no1: number;
    const list = (token: string, payload: Record<string, unknown> = {}) => t.call("adminapiv2", "studentlist", { sch_id: no1, page: 1, limit: 5, ...payload }, { token });
    /** a session resolved by a list, and a second list made with it as resolved */
    async function listedTwice(username: string): Promise<string> {
      const token = await t.login(username);
      expect((await list(token)).return_code).toBe("SUCCESS");
      const again = await list(token);
      expect(again.return_code).toBe("SUCCESS");
      expect(again.data?.items).toHaveLength(5);
      return token;
    }
    beforeAll(async () => {
      no1 = await idByTitle(t.db, schools, "Sunrise No.1 Primary School");
    });

    it("refuses at once a session revoked in the database, as another server process revokes it", async () => {
      const token = await listedTwice("svc");
      await t.db.update(sessions).set({ revokedAt: t.clock.now() }).where(eq(sessions.tokenHash, hashToken(token)));
      expect((await list(token)).return_code).toBe("token_error");
    });

    it("refuses at once a session after logout", async () => {
      const token = await listedTwice("svc");
      expect((await t.call("adminapi", "logout", {}, { token })).return_code).toBe("SUCCESS");
      expect((await list(token)).return_code).toBe("token_error");
    });

    it("refuses at once the session of a user disabled in the database", async () => {
      const token = await listedTwice("svc");
      await t.db.update(users).set({ status: "0" }).where(eq(users.username, "svc"));
      try {
        expect((await list(token)).return_code).toBe("token_error");
      } finally {
        await t.db.update(users).set({ status: "1" }).where(eq(users.username, "svc"));
      }
    });

    it("refuses at once a school moved to another provider in the database", async () => {
      const token = await listedTwice("svc");
      const [school] = await t.db.select({ sysid: schools.sysid }).from(schools).where(eq(tableColumn(schools, "id"), no1));
      const harbour = await idByTitle(t.db, providers, "Harbour Education Services");
      await t.db.update(schools).set({ sysid: harbour }).where(eq(tableColumn(schools, "id"), no1));
      try {
        expect(await list(token)).toMatchObject({ return_code: "FAIL" });
      } finally {
        await t.db.update(schools).set({ sysid: school!.sysid }).where(eq(tableColumn(schools, "id"), no1));
      }
      expect((await list(token)).return_code).toBe("SUCCESS");
    });

    it("answers an empty page, which reads no session state, from the session's own statement", async () => {
      const token = await listedTwice("svc");
      const empty = await list(token, { student_no: "NOBODY-AT-ALL" });
      expect(empty).toMatchObject({ return_code: "SUCCESS", data: { items: [], total: 0 } });
      await t.db.update(sessions).set({ revokedAt: t.clock.now() }).where(eq(sessions.tokenHash, hashToken(token)));
      expect((await list(token, { student_no: "NOBODY-AT-ALL" })).return_code).toBe("token_error");
    });

    it("answers lists made together when the last use falls due, and writes it", async () => {
      const token = await listedTwice("svc");
      t.clock.advance(31_000);
      const pages = await Promise.all(Array.from({ length: 8 }, () => list(token)));
      expect(pages.map((p) => [p.return_code, (p.data?.items as unknown[] | undefined)?.length])).toEqual(Array(8).fill(["SUCCESS", 5]));
      const [row] = await t.db.select({ lastSeenAt: sessions.lastSeenAt }).from(sessions).where(eq(sessions.tokenHash, hashToken(token)));
      expect(row!.lastSeenAt.getTime()).toBe(t.clock.now().getTime());
      await t.db.update(sessions).set({ revokedAt: t.clock.now() }).where(eq(sessions.tokenHash, hashToken(token)));
      expect((await list(token)).return_code).toBe("token_error");
    });

    it("writes the last use while lists come, and ends a session idle for two hours", async () => {
      const token = await listedTwice("svc");
      t.clock.advance(31_000);
      expect((await list(token)).return_code).toBe("SUCCESS");
      const [row] = await t.db.select({ lastSeenAt: sessions.lastSeenAt }).from(sessions).where(eq(sessions.tokenHash, hashToken(token)));
      expect(row!.lastSeenAt.getTime()).toBe(t.clock.now().getTime());
      t.clock.advance(121 * 60_000);
      expect((await list(token)).return_code).toBe("token_error");
    });
  });

  describe("sysusereditpassword", () => {
    it("checks the current password, the length and the confirmation", async () => {
      const token = await t.login("school");
      const wrongOld = await t.call("adminapiv2", "sysusereditpassword", { password1: "nope", password2: "newpass1", password3: "newpass1" }, { token });
      expect(wrongOld).toMatchObject({ return_code: "FAIL", return_msg: "当前密码不正确" });
      const short = await t.call("adminapiv2", "sysusereditpassword", { password1: "demo1234", password2: "abc", password3: "abc" }, { token });
      expect(short).toMatchObject({ return_code: "FAIL", return_msg: "密码不能少于 6 位" });
      const mismatch = await t.call("adminapiv2", "sysusereditpassword", { password1: "demo1234", password2: "newpass1", password3: "newpass2" }, { token });
      expect(mismatch).toMatchObject({ return_code: "FAIL", return_msg: "两次输入的密码不一致" });
      const missing = await t.call("adminapiv2", "sysusereditpassword", { password2: "newpass1", password3: "newpass1" }, { token });
      expect(missing).toMatchObject({ return_code: "FAIL", return_msg: "参数错误：password1" });
      await expect(t.login("school")).resolves.toBeTruthy();
    });

    it("changes the password, keeps the caller's session and ends the others", async () => {
      const mine = await t.login("schoolv1");
      const other = await t.login("schoolv1");
      const res = await t.call("adminapiv2", "sysusereditpassword", { password1: "demo1234", password2: "better-secret", password3: "better-secret" }, { token: mine });
      expect(res).toEqual({ return_code: "SUCCESS", return_msg: "密码修改成功" });
      expect((await t.call("adminapi", "getuserinfo", {}, { token: mine })).return_code).toBe("SUCCESS");
      expect((await t.call("adminapi", "getuserinfo", {}, { token: other })).return_code).toBe("token_error");
      expect((await t.call("adminapi", "login", { username: "schoolv1", password: "demo1234" })).return_code).toBe("FAIL");
      await expect(t.login("schoolv1", "better-secret")).resolves.toBeTruthy();
      const [user] = await t.db.select().from(users).where(eq(users.username, "schoolv1"));
      expect(user.passwordHash).toMatch(/^\$argon2id\$/);
      const audit = await t.db.select().from(auditLog).where(and(eq(auditLog.userId, user.id), eq(auditLog.action, "password_change")));
      expect(audit).toHaveLength(1);
    });
  });

  describe("audit log", () => {
    it("cannot be changed or deleted", async () => {
      await expect(t.db.delete(auditLog)).rejects.toThrow();
      await expect(t.db.update(auditLog).set({ action: "x" })).rejects.toThrow();
    });
  });
});
