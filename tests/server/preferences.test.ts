/**
 * A user's preferences (userpreflist, userprefset): their own only, saved, replaced and forgotten; a bad key, a
 * value that is not an object or a list, a value over the size limit and one key too many are refused, naming
 * what is wrong. Plain upserts: PGlite alone.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { MAX_PREFERENCE_BYTES, MAX_PREFERENCES } from "../../server/domains/accounts/preferences";
import { createTestApp, type TestApp } from "./support";

let t: TestApp;
const tokens: Record<string, string> = {};
const call = (user: string, method: string, payload: Record<string, unknown> = {}) =>
  t.call("adminapiv2", method, payload, { token: tokens[user], headers: { "accept-language": "en" } });
const listOf = async (user: string) => (await call(user, "userpreflist")).data?.items as { key: string; value: unknown }[];

beforeAll(async () => {
  t = await createTestApp("pglite");
  for (const user of ["svc", "school"]) tokens[user] = await t.login(user);
});
afterAll(async () => {
  await t?.close();
});

it("keeps each user's preferences for that user alone: saved, replaced, forgotten", async () => {
  const columns = { order: ["title", "status"], hidden: ["status"] };
  expect((await call("svc", "userprefset", { key: "columns:student@servicev2", value: columns })).return_code).toBe("SUCCESS");
  expect(await listOf("svc")).toEqual([{ key: "columns:student@servicev2", value: columns }]);
  expect(await listOf("school")).toEqual([]);

  const moved = { order: ["status", "title"], hidden: [] };
  await call("svc", "userprefset", { key: "columns:student@servicev2", value: moved });
  expect(await listOf("svc")).toEqual([{ key: "columns:student@servicev2", value: moved }]);
  await call("svc", "userprefset", { key: "columns:student@servicev2", value: null });
  expect(await listOf("svc")).toEqual([]);
  expect((await t.call("adminapiv2", "userpreflist", {})).return_code).toBe("token_error");
});

it("refuses a bad key, a value that is not an object or a list, and one too large, naming the field", async () => {
  const badKey = await call("svc", "userprefset", { key: "columns/../x", value: {} });
  expect(badKey.return_code).toBe("FAIL");
  expect(badKey.return_msg).toContain("key");
  const scalar = await call("svc", "userprefset", { key: "columns:x", value: "wide" });
  expect(scalar.return_code).toBe("FAIL");
  expect(scalar.return_msg).toContain("value");
  const large = await call("svc", "userprefset", { key: "columns:x", value: { order: ["x".repeat(MAX_PREFERENCE_BYTES)] } });
  expect(large.return_code).toBe("FAIL");
  expect(large.return_msg).toContain("value");
  expect(await listOf("svc")).toEqual([]);
});

it("keeps at most MAX_PREFERENCES keys per user, and still replaces one of them", async () => {
  for (let i = 0; i < MAX_PREFERENCES; i++) {
    const saved = await call("school", "userprefset", { key: `columns:list${i}`, value: { order: [], hidden: [] } });
    expect(saved.return_code, saved.return_msg).toBe("SUCCESS");
  }
  const over = await call("school", "userprefset", { key: "columns:one-more", value: { order: [], hidden: [] } });
  expect(over.return_code).toBe("FAIL");
  expect(over.return_msg).toContain(String(MAX_PREFERENCES));
  expect((await call("school", "userprefset", { key: "columns:list0", value: { order: ["a"], hidden: [] } })).return_code).toBe("SUCCESS");
  expect(await listOf("school")).toHaveLength(MAX_PREFERENCES);
});
