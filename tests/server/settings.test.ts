/**
 * Settings pages (SettingsDecl) on the server, with the site settings (sysset) as the first: {name}info and
 * {name}edit are registered from each declaration with its roles and effect; syssetinfo gives the defaults
 * until a record is saved; syssetedit is for the platform's operators only, checks each field by its kind and
 * fails naming the field, keeps the fields not sent, is audited, and what it saves is what getwebsetinfo,
 * getsysinfo and the login answer give. The migration carries the former site_settings row over.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_ROLES } from "../../common/roleKeys";
import { settingsPages } from "../../resources.config";
import { MIGRATIONS_FOLDER } from "../../server/db/client";
import { auditLog, settingsRecords } from "../../server/db/schema";
import { DEFAULT_OPERATION_PATH } from "../../server/engine/declared";
import { translator } from "../../server/lib/i18n";
import { DEMO_ACCOUNTS } from "../../server/seed/demo";
import enSite from "../../locales/en/site.json";
import { describeOnEmbedded } from "../helpers/db";
import { en } from "../helpers/locales";
import { registeredOperations } from "./registryCases";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };
const zh = translator("zh");

describe("settings pages in the registry", () => {
  const registered = registeredOperations();

  it("registers {name}info (read) and {name}edit (write) for every settings page, with its declared roles", () => {
    expect(settingsPages.map((s) => s.name)).toContain("sysset");
    for (const settings of settingsPages) {
      for (const [action, effect, roles] of [["info", "read", settings.roles.info], ["edit", "write", settings.roles.edit]] as const) {
        const operation = registered.find((o) => o.path === (settings.apiPath ?? DEFAULT_OPERATION_PATH) && o.method === `${settings.name}${action}`);
        if (!operation?.needsToken) throw new Error(`${settings.name}${action} must be a session operation`);
        expect(operation.effect, `${settings.name}${action}`).toBe(effect);
        expect(operation.roles, `${settings.name}${action}`).toEqual(roles);
      }
    }
  });

  it("gives the site settings to the platform's operators only (system, systemv2)", () => {
    const sysset = settingsPages.find((s) => s.name === "sysset")!;
    expect(sysset.scope).toBe("platform");
    expect([...sysset.roles.info].sort()).toEqual([...OPERATOR_ROLES].sort());
    expect([...sysset.roles.edit].sort()).toEqual(["system", "systemv2"]);
  });
});

describeOnEmbedded("site settings (sysset)", (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const call = (username: string, method: string, payload: Row = {}) => t.call("adminapiv2", method, payload, { token: tokens[username], headers: EN });
  const webset = async () => (await t.call("adminapiv2", "getwebsetinfo")).data?.items as Row;
  const auditRows = () => t.db.select().from(auditLog).where(eq(auditLog.action, "syssetedit"));

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const { username } of DEMO_ACCOUNTS) tokens[username] = await t.login(username);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("gives the defaults while no record is saved: the declared title, nothing else", async () => {
    const saved = await t.db.delete(settingsRecords).where(and(eq(settingsRecords.name, "sysset"), eq(settingsRecords.tenantId, 0))).returning();
    expect(saved).toHaveLength(1);
    try {
      const info = await call("sysadmin", "syssetinfo");
      expect(info.return_code, info.return_msg).toBe("SUCCESS");
      expect(info.data?.items).toEqual({ title: "Campus Pay Console", keywords: null, description: null, icon: null, kfurl: null, user_manual_url: null });
      expect(await webset()).toEqual({ title: "Campus Pay Console", keywords: "", description: "", icon: "", kfurl: "" });
      expect((await call("school", "getsysinfo")).data?.items).toEqual({ user_manual_url: "" });
    } finally {
      await t.db.insert(settingsRecords).values(saved);
    }
  });

  it("gives the seeded record to the operators", async () => {
    for (const username of ["sysadmin", "sysop", "sysv1"]) {
      const info = await call(username, "syssetinfo");
      expect(info.return_code, `${username}: ${info.return_msg}`).toBe("SUCCESS");
      expect(info.data?.items, username).toMatchObject({ title: "Campus Pay Console", kfurl: "https://support.example.com/chat", user_manual_url: "https://docs.example.com/campus-pay-console/manual" });
    }
  });

  it("refuses reading and saving to every account that is not an operator, and changes nothing", async () => {
    const before = await webset();
    const others = DEMO_ACCOUNTS.map((a) => a.username).filter((u) => !["sysadmin", "sysop", "sysv1"].includes(u));
    expect(others.length).toBeGreaterThan(5);
    for (const username of others) {
      for (const method of ["syssetinfo", "syssetedit"]) {
        const res = await t.call("adminapiv2", method, { title: "Taken over" }, { token: tokens[username] });
        expect(res, `${method} as ${username}`).toEqual({ return_code: "FAIL", return_msg: zh("api.no_permission") });
      }
    }
    expect((await t.call("adminapiv2", "syssetedit", { title: "Taken over" })).return_code).toBe("token_error");
    expect(await webset()).toEqual(before);
  });

  it("fails naming the field when a value does not fit its kind, and saves nothing of that call", async () => {
    const before = await webset();
    const audits = (await auditRows()).length;
    const cases: { payload: Row; field: string; message: string }[] = [
      { payload: { title: "Fine", icon: "not a url" }, field: "icon", message: en.api.validation.image.replace("{{label}}", enSite.field.icon) },
      { payload: { icon: "javascript:alert(1)" }, field: "icon", message: en.api.validation.image.replace("{{label}}", enSite.field.icon) },
      { payload: { kfurl: "support.example.com" }, field: "kfurl", message: enSite.validation.link },
      { payload: { user_manual_url: "ftp://docs.example.com" }, field: "user_manual_url", message: enSite.validation.link },
      { payload: { title: "   " }, field: "title", message: en.api.validation.required.replace("{{label}}", enSite.field.title) },
      { payload: { title: "x".repeat(101) }, field: "title", message: en.api.validation.too_long.replace("{{label}}", enSite.field.title).replace("{{max}}", "100") },
      { payload: { keywords: ["a", "b"] }, field: "keywords", message: en.api.validation.text.replace("{{label}}", enSite.field.keywords) },
    ];
    for (const { payload, field, message } of cases) {
      const res = await call("sysadmin", "syssetedit", payload);
      const where = JSON.stringify(payload).slice(0, 60);
      expect(res.return_code, where).toBe("FAIL");
      expect(res.return_msg, where).toBe(en.api.invalid_params.replace("{{field}}", field));
      expect((res.data as { errors: unknown[] }).errors[0], where).toEqual({ field, message });
    }
    expect(await webset()).toEqual(before);
    expect(await auditRows()).toHaveLength(audits);
  });

  it("saves what an operator sends, keeps the fields not sent, audits it, and getwebsetinfo, getsysinfo and the login answer follow", async () => {
    const res = await call("sysadmin", "syssetedit", {
      title: "  Sunrise Pay Back Office  ",
      keywords: "fees, campus",
      icon: "https://cdn.example.com/logo.png",
      kfurl: "https://help.example.com/chat?from=console",
      user_manual_url: "https://docs.example.com/manual-v2",
    });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    expect(res.data?.items).toEqual({
      title: "Sunrise Pay Back Office",
      keywords: "fees, campus",
      description: "Back office of the campus school-fee payment platform",
      icon: "https://cdn.example.com/logo.png",
      kfurl: "https://help.example.com/chat?from=console",
      user_manual_url: "https://docs.example.com/manual-v2",
    });

    expect(await webset()).toEqual({
      title: "Sunrise Pay Back Office",
      keywords: "fees, campus",
      description: "Back office of the campus school-fee payment platform",
      icon: "https://cdn.example.com/logo.png",
      kfurl: "https://help.example.com/chat?from=console",
    });
    // every signed-in user reads the new manual address, and a new login carries the new customer-service link
    expect((await call("school", "getsysinfo")).data?.items).toEqual({ user_manual_url: "https://docs.example.com/manual-v2" });
    const login = await t.call("adminapi", "login", { username: "svc", password: "demo1234" });
    expect((login.data?.items as { data: Row }).data.kfurl).toBe("https://help.example.com/chat?from=console");
    expect((await call("sysv1", "syssetinfo")).data?.items).toMatchObject({ title: "Sunrise Pay Back Office" });

    const [audit] = (await auditRows()).slice(-1);
    expect(audit).toMatchObject({ username: "sysadmin", entity: "sysset", entityId: "0", detail: { fields: ["title", "keywords", "icon", "kfurl", "user_manual_url"] } });
  });

  it("clears an optional field sent empty, and keeps a required one", async () => {
    const res = await call("sysop", "syssetedit", { keywords: "", icon: "" });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    expect(res.data?.items).toMatchObject({ title: "Sunrise Pay Back Office", keywords: null, icon: null });
    expect(await webset()).toMatchObject({ title: "Sunrise Pay Back Office", keywords: "", icon: "" });
    const [audit] = (await auditRows()).slice(-1);
    expect(audit).toMatchObject({ username: "sysop", detail: { fields: ["keywords", "icon"] } });
  });
});

describe("the settings store migration", () => {
  it("carries the former site_settings row over into the sysset record", async () => {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
    const tags = journal.entries.map((e) => e.tag);
    const store = tags.findIndex((tag) => tag.endsWith("_settings_store"));
    expect(store).toBeGreaterThan(0);
    expect(readdirSync(MIGRATIONS_FOLDER)).toContain(`${tags[store]}.sql`);
    const run = (pg: PGlite, tag: string) => pg.exec(readFileSync(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), "utf8").replaceAll("--> statement-breakpoint", ""));

    const pg = new PGlite();
    try {
      for (const tag of tags.slice(0, store)) await run(pg, tag);
      await pg.query(
        `INSERT INTO site_settings (id, title, keywords, description, icon, kfurl, user_manual_url) VALUES (1, $1, $2, $3, $4, $5, $6)`,
        ["Old Title", "old, keywords", "Old description", "https://old.example.com/icon.png", "https://old.example.com/kf", "https://old.example.com/manual"],
      );
      await run(pg, tags[store]!);
      const { rows } = await pg.query<{ name: string; tenant_id: number; fields: Row }>("SELECT name, tenant_id, fields FROM settings_records");
      expect(rows).toEqual([
        {
          name: "sysset",
          tenant_id: 0,
          fields: {
            title: "Old Title",
            keywords: "old, keywords",
            description: "Old description",
            icon: "https://old.example.com/icon.png",
            kfurl: "https://old.example.com/kf",
            user_manual_url: "https://old.example.com/manual",
          },
        },
      ]);
      const { rows: left } = await pg.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'site_settings'");
      expect(left).toEqual([]);
    } finally {
      await pg.close();
    }
  });
});
