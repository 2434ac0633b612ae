/**
 * Daily business report binding (issue 3): getdaycountnoticeset gives the bound users and a binding address;
 * the sandbox binding page binds a name once per address; daycountnoticeunbind removes a user of the caller's own
 * provider only.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { dailyReportSubscribers, providers } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, idByTitle, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };

describeOnEmbedded("daily report binding", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const call = (username: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[username], headers: EN });
  const settings = async (username: string, id: number) => {
    const res = await call(username, "getdaycountnoticeset", { id });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    return res.data as { daycount_notice_user: { id: number; nickname: string; headurl: string }[]; authurl: string };
  };
  const bind = (authurl: string, nickname: string) =>
    t.app.inject({ method: "POST", url: new URL(authurl).pathname, headers: { "content-type": "application/x-www-form-urlencoded", ...EN }, payload: new URLSearchParams({ nickname }).toString() });

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "harbour", "svcv1", "school", "sysadmin", "staff"]) tokens[u] = await t.login(u);
    ids.sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
    ids.harbour = await idByTitle(t.db, providers, "Harbour Education Services");
    ids.oldTown = await idByTitle(t.db, providers, "Old Town Education");
    // the demo binds two users to Sunrise's report: these tests start from none
    await t.db.delete(dailyReportSubscribers);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("binds the name entered on the page behind the binding QR code, once per code", async () => {
    const first = await settings("svc", ids.sunrise);
    expect(first.daycount_notice_user).toEqual([]);
    expect(first.authurl).toMatch(/^https?:\/\/[^/]+\/notice\/sandbox\/bind\/[A-Za-z0-9_-]{43}$/);

    const form = await t.app.inject({ method: "GET", url: new URL(first.authurl).pathname, headers: EN });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('data-testid="bind-nickname"');
    expect(form.body).not.toContain("<script");

    const done = await bind(first.authurl, "Manager <Zhou>");
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('data-testid="bind-done"');
    const reused = await bind(first.authurl, "Someone else");
    expect(reused.statusCode).toBe(409);

    const after = await settings("svc", ids.sunrise);
    expect(after.daycount_notice_user).toEqual([{ id: expect.any(Number), nickname: "Manager <Zhou>", headurl: "" }]);
    expect(after.authurl).not.toBe(first.authurl);
    // another provider's list stays its own
    expect((await settings("harbour", ids.harbour)).daycount_notice_user).toEqual([]);
  });

  it("lets a binding code expire after ten minutes", async () => {
    const { authurl } = await settings("svc", ids.sunrise);
    t.clock.advance(10 * 60 * 1000 + 1);
    try {
      expect((await t.app.inject({ method: "GET", url: new URL(authurl).pathname })).statusCode).toBe(404);
      expect((await bind(authurl, "Late")).statusCode).toBe(409);
    } finally {
      t.clock.advance(-(10 * 60 * 1000 + 1));
    }
  });

  it("unbinds a user of the caller's own provider only", async () => {
    const { daycount_notice_user: users } = await settings("svc", ids.sunrise);
    const id = users[0].id;
    const foreign = await call("svcv1", "daycountnoticeunbind", { sysid: ids.oldTown, id });
    expect(foreign).toMatchObject({ return_code: "FAIL", return_msg: "Record not found" });
    expect((await call("svcv1", "daycountnoticeunbind", { sysid: ids.sunrise, id })).return_code).toBe("FAIL");
    // an expired provider changes nothing, its own settings included
    expect(await call("harbour", "daycountnoticeunbind", { sysid: ids.harbour, id })).toMatchObject({ return_code: "FAIL", return_msg: expect.stringContaining("expired") });
    const res = await call("svc", "daycountnoticeunbind", { sysid: ids.sunrise, id });
    expect(res).toMatchObject({ return_code: "SUCCESS", return_msg: "unbind succeeded" });
    expect((await settings("svc", ids.sunrise)).daycount_notice_user).toEqual([]);
    expect((await call("svc", "daycountnoticeunbind", { sysid: ids.sunrise, id })).return_code).toBe("FAIL");
  });

  it("refuses other roles, other providers and malformed ids, with no data", async () => {
    for (const username of ["school", "staff", "sysadmin"]) {
      const res = await call(username, "getdaycountnoticeset", { id: ids.sunrise });
      expect(res, username).toMatchObject({ return_code: "FAIL", return_msg: "You are not allowed to do this" });
      expect(res.data).toBeUndefined();
    }
    for (const payload of [{ id: ids.harbour }, { id: "x" }, { id: -3 }]) {
      const res = await call("svc", "getdaycountnoticeset", payload);
      expect(res.return_code, JSON.stringify(payload)).toBe("FAIL");
      expect(res.data).toBeUndefined();
    }
    for (const payload of [{ sysid: ids.sunrise }, { sysid: ids.sunrise, id: "1; delete" }, { sysid: ids.sunrise, id: [1] }]) {
      expect((await call("svc", "daycountnoticeunbind", payload)).return_code, JSON.stringify(payload)).toBe("FAIL");
    }
    for (const bad of ["short", "x".repeat(43) + "/../"]) {
      expect((await t.app.inject({ method: "GET", url: `/notice/sandbox/bind/${bad}` })).statusCode).toBe(404);
    }
  });
});
