/**
 * Fuzzing every registered operation (generated from the registry, so a new operation is fuzzed the day it is
 * registered): wrong types, huge and negative numbers, ids beyond 32 bits, control characters, very long
 * strings, arrays and objects in place of scalars, prototype keys. The answer is always the envelope with
 * HTTP 200 (400 for a body that is not JSON), never a 5xx and never 系统错误: bad input is a FAIL that says what is
 * wrong.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { ZodObject } from "zod";
import { hasAnyRole } from "../../common/roleKeys";
import { translator } from "../../server/lib/i18n";
import { ANY_SIGNED_IN, type Operation } from "../../server/protocol/registry";
import { describeOnEmbedded } from "../helpers/db";
import { demoAccountCases, entityOf, registeredOperations, sessionOf, type DemoAccountCase } from "./registryCases";
import { createTestApp, type TestApp } from "./support";

const SYSTEM_ERRORS = (["zh", "en", "es"] as const).map((language) => translator(language)("api.system_error"));

/** names most operations read, fuzzed on every operation */
const TENANT_FIELDS = ["sysid", "sch_id"];
const COMMON_FIELDS = [...TENANT_FIELDS, "id", "page", "limit", "sort"];

/** one or two of each kind of bad value: what a field must survive whatever its type */
const BAD_VALUES: unknown[] = [
  null,
  true,
  ["1", 2],
  { nested: { deeper: [1, { a: "b" }] } },
  -1,
  1.5,
  9_999_999_999,
  2 ** 53 + 2,
  1e308,
  "99999999999999999999",
  "NaN",
  "a\u0000b",
  "\u0007\u001b[31m",
  "\ud800",
  "x".repeat(20_000),
  "0000-01-01",
  "10000-01-01",
  "2026-02-30",
  "' or 1=1 --",
  "%_\\",
];

/**
 * The field names an operation reads: its schema's, its declaration's, the common ones, and of its catalogue entity's
 * those it reads: a list's and an export's filters and state, an add's or an edit's record fields. A record's read, removal or
 * action reads its id and the action's own fields alone.
 */
function fieldsOf(operation: Operation<unknown>): string[] {
  const entity = entityOf(operation);
  // an export reads no paging either: any other field is left out of it (and, sent to an export, would cost a whole
  // export per value)
  const isExport = entity !== undefined && operation.method === entity.exportOperation;
  const readsFilters = isExport || operation.method === `${entity?.name}list`;
  const readsRecord = entity !== undefined && [`${entity.name}add`, `${entity.name}edit`].includes(operation.method);
  const names = new Set(isExport ? TENANT_FIELDS : COMMON_FIELDS);
  if (operation.schema instanceof ZodObject) for (const key of Object.keys(operation.schema.shape)) names.add(key);
  if (operation.needsToken) for (const field of operation.declaration?.fields ?? []) names.add(field.name);
  if (entity) {
    for (const field of entity.fields) {
      // a list narrows to a state (its tabs) whether or not the state is a declared filter
      if (readsFilters ? !field.filter && field.name !== entity.stateField : !readsRecord) continue;
      names.add(field.name);
      if (field.filter === "range") names.add(`${field.name}_start`).add(`${field.name}_end`);
    }
    // a record action's own fields (a reason, an amount) and the field naming its record (refundadd: order_id; a
    // code by its value)
    const action = entity.actions?.find((a) => a.name === operation.method);
    for (const field of action?.fields ?? []) names.add(field.name);
    if (action?.idField) names.add(action.idField);
    if (action?.key) names.add(action.key);
  }
  return [...names];
}

function expectEnvelope(status: number, body: string, where: string, statuses = [200]): void {
  expect(statuses, where).toContain(status);
  const envelope = JSON.parse(body) as { return_code?: unknown; return_msg?: unknown };
  expect(["SUCCESS", "FAIL", "token_error"], where).toContain(envelope.return_code);
  expect(typeof envelope.return_msg, where).toBe("string");
  expect(SYSTEM_ERRORS, where).not.toContain(envelope.return_msg);
}

describeOnEmbedded("fuzzing every operation", (kind) => {
  let t: TestApp;
  let accounts: DemoAccountCase[];
  const operations = registeredOperations();

  beforeAll(async () => {
    t = await createTestApp(kind);
    accounts = await demoAccountCases(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The account an operation is fuzzed as: a tenant account it allows (more checks run), else an operator. */
  function callerOf(operation: Operation<unknown>): DemoAccountCase | null {
    if (!operation.needsToken) return null;
    const allowed = accounts.filter((a) => operation.roles === ANY_SIGNED_IN || hasAnyRole(a.auth.roles, operation.roles));
    return allowed.find((a) => a.sysid !== null && a.username !== "harbour") ?? allowed[0]!;
  }

  async function send(operation: Operation<unknown>, body: string, token: string | undefined, where: string, statuses?: number[]) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token) headers["x-token"] = token;
    const res = await t.app.inject({ method: "POST", url: `/weapi/${operation.path}`, headers, payload: body });
    expectEnvelope(res.statusCode, res.body, where, statuses);
  }

  it("fuzzes the whole registry", () => {
    expect(operations.length).toBeGreaterThan(100);
  });

  // one test per operation: a fault names its operation, and no test holds the time of all of them
  it.each(operations.map((operation) => [`${operation.path}:${operation.method}`, operation] as const))(
    "answers every bad value of every field of %s with the envelope, never a fault",
    async (_label, operation) => {
      const caller = callerOf(operation);
      // one session per operation: logging out or changing a password ends only its own
      const token = caller ? await sessionOf(t, caller) : undefined;
      const who = caller?.username ?? "anonymous";
      for (const field of fieldsOf(operation)) {
        for (const value of BAD_VALUES) {
          const where = `${operation.path}:${operation.method} as ${who}, ${field} = ${JSON.stringify(value)?.slice(0, 40)}`;
          await send(operation, JSON.stringify({ method: operation.method, [field]: value }), token, where);
        }
      }
      // prototype keys, as a client can send them in JSON: refused as a malformed body
      await send(operation, `{"method":${JSON.stringify(operation.method)},"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}`, token, `${operation.method} __proto__`, [200, 400]);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    },
  );

  it("answers malformed bodies and methods with the envelope", async () => {
    const [operation] = operations;
    for (const body of ["[]", '"text"', "42", "null", '{"method":42}', '{"method":["login"]}', '{"method":"login","username":{"$ne":1}}', `{"method":"${"m".repeat(5000)}"}`]) {
      const res = await t.app.inject({ method: "POST", url: `/weapi/${operation!.path}`, headers: { "content-type": "application/json" }, payload: body });
      expect([200, 400], body).toContain(res.statusCode);
      expect(JSON.parse(res.body), body).toMatchObject({ return_code: "FAIL" });
    }
  });
});
