/** Renewal packages (issue 3): meallist / mealadd / mealedit for operators, getsetmeal for buyers. */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;

describeOnEmbedded("renewal packages", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const call = (username: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[username] });

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["sysadmin", "sysv1", "svc", "staff", "pickup", "school", "schoolv1"]) tokens[u] = await t.login(u);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists the enabled packages in their sort order with fee in yuan and term in months", async () => {
    for (const username of ["school", "schoolv1", "svc", "sysadmin"]) {
      const res = await call(username, "getsetmeal");
      expect(res.return_code, username).toBe("SUCCESS");
      expect(res.data?.items).toEqual([
        { id: expect.any(Number), title: "Half year", fee: "600.00", term_months: 6 },
        { id: expect.any(Number), title: "One year", fee: "1000.00", term_months: 12 },
        { id: expect.any(Number), title: "Two years", fee: "1800.00", term_months: 24 },
      ]);
    }
  });

  it("refuses the package list to a pickup clerk and a provider-side school administrator, and without a token", async () => {
    for (const username of ["pickup", "staff"]) {
      const res = await call(username, "getsetmeal");
      expect(res.return_code, username).toBe("FAIL");
      expect(res.data).toBeUndefined();
    }
    const anonymous = await t.call("adminapiv2", "getsetmeal");
    expect(anonymous.return_code.toLowerCase()).toBe("token_error");
  });

  it("lets an operator add, edit and disable a package; a disabled package is not offered", async () => {
    const added = await call("sysadmin", "mealadd", { title: "Three months", term_months: 3, fee: "320.50", sort: 0, status: "1" });
    expect(added.return_code).toBe("SUCCESS");
    const id = (added.data?.items as Row).id;
    expect((await call("school", "getsetmeal")).data?.items).toContainEqual({ id, title: "Three months", fee: "320.50", term_months: 3 });

    const list = await call("sysv1", "meallist", { title: "three" });
    expect((list.data?.items as Row[]).map((r) => r.id)).toEqual([id]);

    expect((await call("sysadmin", "mealedit", { id, title: "Three months", term_months: 3, fee: "300.00", status: "0" })).return_code).toBe("SUCCESS");
    expect((await call("school", "getsetmeal")).data?.items).not.toContainEqual(expect.objectContaining({ id }));
  });

  it("refuses package changes to everyone but operators", async () => {
    for (const username of ["svc", "school", "pickup"]) {
      const res = await call(username, "mealadd", { title: "Free forever", term_months: 120, fee: "0.01" });
      expect(res.return_code, username).toBe("FAIL");
    }
    expect((await call("svc", "meallist")).return_code).toBe("FAIL");
  });

  it("refuses a package without a price, with a term outside 1 to 120 months, or with a malformed fee", async () => {
    for (const bad of [
      { title: "No price", term_months: 12 },
      { title: "Zero price", term_months: 12, fee: "0.00" },
      { title: "Bad fee", term_months: 12, fee: "12.345" },
      { title: "Too long", term_months: 121, fee: "100.00" },
      { title: "Too short", term_months: 0, fee: "100.00" },
      { title: "", term_months: 12, fee: "100.00" },
      { title: ["array"], term_months: 12, fee: "100.00" },
    ]) {
      const res = await call("sysadmin", "mealadd", bad);
      expect(res.return_code, JSON.stringify(bad)).toBe("FAIL");
      expect(res.return_msg).not.toBe("");
    }
  });
});
