/**
 * Declared operations (catalogue operations beyond CRUD): each is registered on the server from its declaration
 * alone, with exactly its roles and effect, and the server checks its payload against the declared fields,
 * naming every field that fails in the caller's language.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogue } from "../../resources.config";
import { DEFAULT_OPERATION_PATH } from "../../server/engine/declared";
import { describeOnEmbedded } from "../helpers/db";
import { registeredOperations } from "./registryCases";
import { createTestApp, idByTitle, type TestApp } from "./support";
import { providers } from "../../server/db/schema";

describe("declared operations", () => {
  const registered = registeredOperations();

  it("registers every declared operation with exactly the declared path, roles and effect", () => {
    expect(catalogue.operations.length).toBeGreaterThan(0);
    for (const declaration of catalogue.operations) {
      const path = declaration.path ?? DEFAULT_OPERATION_PATH;
      const operation = registered.find((o) => o.path === path && o.method === declaration.name);
      expect(operation, declaration.name).toBeDefined();
      if (!operation?.needsToken) throw new Error(`${declaration.name} must need a session`);
      expect(operation.declaration, declaration.name).toBe(declaration);
      expect(operation.effect, declaration.name).toBe(declaration.effect);
      expect(operation.roles, declaration.name).toEqual(declaration.roles);
    }
  });

  it("the catalogue's operations are exactly the ones registered from a declaration", () => {
    const fromDeclarations = registered.flatMap((o) => (o.needsToken && o.declaration ? [o.declaration.name] : []));
    expect([...fromDeclarations].sort()).toEqual(catalogue.operations.map((o) => o.name).sort());
  });

  it("declares each field once, with a label", () => {
    for (const declaration of catalogue.operations) {
      const names = declaration.fields.map((f) => f.name);
      expect(new Set(names).size, declaration.name).toBe(names.length);
      for (const field of declaration.fields) expect(field.label, `${declaration.name}.${field.name}`).toMatch(/^[a-z_]+\.[a-z0-9_.]+$/);
    }
  });
});

describeOnEmbedded("declared operation payloads", (kind) => {
  let t: TestApp;
  let token: string;
  let sunrise: number;

  beforeAll(async () => {
    t = await createTestApp(kind);
    token = await t.login("sysadmin");
    sunrise = await idByTitle(t.db, providers, "Sunrise Campus Services");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("fails naming the field, with every field's message in data.errors, in the caller's language", async () => {
    const bad = { count: "ten", target: "teacher", term_months: 6, expires_on: "2030-02-30" };
    const en = await t.call("adminapiv2", "actcodeadd", bad, { token, headers: { "accept-language": "en" } });
    expect(en.return_code).toBe("FAIL");
    expect(en.return_msg).toBe("Invalid parameter: count");
    expect((en.data as { errors: unknown }).errors).toEqual([
      { field: "count", message: "Number of codes must be a whole number" },
      { field: "target", message: "For has an invalid value" },
      { field: "expires_on", message: "Usable until must be a date as YYYY-MM-DD" },
    ]);
    const zh = await t.call("adminapiv2", "actcodeadd", bad, { token, headers: { "accept-language": "zh" } });
    const zhErrors = (zh.data as { errors: { field: string; message: string }[] }).errors;
    expect(zhErrors.map((e) => e.field)).toEqual(["count", "target", "expires_on"]);
    expect(zhErrors[0].message).not.toBe(en.data && (en.data as { errors: { message: string }[] }).errors[0].message);
  });

  it("a required field and the declared limits: term months and fee of a contract extension", async () => {
    const call = (payload: Record<string, unknown>) => t.call("adminapiv2", "servicedelay", payload, { token, headers: { "accept-language": "en" } });
    const missing = await call({ sysid: sunrise });
    expect(missing).toMatchObject({ return_code: "FAIL", return_msg: "Invalid parameter: term_months", data: { errors: [{ field: "term_months", message: "Months is required" }] } });
    const tooLong = await call({ sysid: sunrise, term_months: 1000 });
    expect(tooLong.data).toMatchObject({ errors: [{ field: "term_months" }] });
    const fee = await call({ sysid: sunrise, term_months: 1, fee: "1.005" });
    expect(fee).toMatchObject({ return_code: "FAIL", data: { errors: [{ field: "fee", message: "Fee must be an amount with at most two decimals" }] } });
  });

  it("a rule between fields fails on the field it asks for: a package or months, never both", async () => {
    const res = await t.call("adminapiv2", "actcodeadd", { count: 1, target: "school", expires_on: "2099-01-01" }, { token, headers: { "accept-language": "en" } });
    expect(res).toMatchObject({ return_code: "FAIL", return_msg: "Invalid parameter: term_months", data: { errors: [{ field: "term_months", message: "Months is required" }] } });
  });
});
