/**
 * Copying an activity's fee items from an earlier activity reads the source through `activityinfo`, with the school
 * the console acts in when one is chosen (src/engine/CopyChildRows.tsx), on both databases: the caller's own activity of that school answers its
 * items; another provider's activity, or one of another school than the one named, answers "not found", so no
 * item of another tenant or school reaches the form.
 */
import { and, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { activities, schools } from "../../server/db/schema";
import { translator } from "../../server/lib/i18n";
import { describeOnEmbedded } from "../helpers/db";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
const zh = translator("zh");

describeOnEmbedded("the source of copied fee items", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const call = (user: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[user] });

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const u of ["svc", "harbour"]) tokens[u] = await t.login(u);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers the items of the caller's own earlier activity of the school named, and nothing across tenants or schools", async () => {
    const [source] = (await call("svc", "activitylist", { limit: 1, sort: "-id" })).data?.items as Row[];
    const own = await call("svc", "activityinfo", { id: source!.id, sch_id: source!.sch_id });
    expect(own.return_code, own.return_msg).toBe("SUCCESS");
    const items = (own.data?.items as Row).items as Row[];
    expect(items.length).toBeGreaterThan(0);
    expect(items[0]).toMatchObject({ title: expect.any(String), amount: expect.any(String) });

    const notFound = { return_code: "FAIL", return_msg: zh("api.not_found") };
    // another provider
    expect(await call("harbour", "activityinfo", { id: source!.id })).toEqual(notFound);
    // another school of the same provider named as the form's
    const [activity] = await t.db.select({ sysid: activities.sysid }).from(activities).where(eq(activities.id, Number(source!.id)));
    const [otherSchool] = await t.db.select({ id: schools.id }).from(schools).where(and(eq(schools.sysid, activity!.sysid), ne(schools.id, Number(source!.sch_id)))).limit(1);
    expect(otherSchool).toBeDefined();
    expect(await call("svc", "activityinfo", { id: source!.id, sch_id: otherSchool!.id })).toEqual(notFound);
  });
});
