/**
 * A list's column settings are the user's, kept on the server (src/engine/listColumns.ts): the server's copy,
 * read once per page load, replaces this browser's; a change is sent to the server and shows at once, and a change
 * made while the server's copy is on its way is not undone by it. Only fetch is fake.
 */
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { loadColumnSettings, readColumnSettings, saveColumnSettings } from "../../src/engine/listColumns";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const ok = (items: unknown) => ({ return_code: "SUCCESS", return_msg: "ok", data: { items } });
const LOCAL = "campus-pay-console:columns:svc:";

beforeEach(() => {
  clearCookies();
  window.localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

it("takes the server's settings over this browser's, drops what the server does not have, and saves changes to the server", async () => {
  setCookies({ userinfo: JSON.stringify({ username: "SVC" }) });
  window.localStorage.setItem(`${LOCAL}studentlist`, JSON.stringify({ order: ["name"], hidden: [] }));
  window.localStorage.setItem(`${LOCAL}classeslist`, JSON.stringify({ order: ["title"], hidden: ["grade_id"] }));
  const fromServer = { order: ["student_no", "name"], hidden: ["sex"] };
  const api = fakeWeapi((body) => (body.method === "userpreflist" ? ok([{ key: "columns:studentlist", value: fromServer }]) : ok({})));
  expect(readColumnSettings("classeslist")).toEqual({ order: ["title"], hidden: ["grade_id"] });

  // a change made in this page before the server's copy arrives stays
  const changed = { order: ["grade_id"], hidden: [] };
  saveColumnSettings("gradelist", changed);
  await loadColumnSettings();
  expect(readColumnSettings("studentlist")).toEqual(fromServer);
  expect(readColumnSettings("classeslist")).toBeUndefined();
  expect(window.localStorage.getItem(`${LOCAL}classeslist`)).toBeNull();
  expect(readColumnSettings("gradelist")).toEqual(changed);
  expect(api.of("userprefset")[0].body).toEqual({ method: "userprefset", key: "columns:gradelist", value: changed });

  // once per page load; forgetting a list's settings forgets them on the server too
  await loadColumnSettings();
  expect(api.of("userpreflist")).toHaveLength(1);
  saveColumnSettings("studentlist", undefined);
  expect(readColumnSettings("studentlist")).toBeUndefined();
  expect(api.of("userprefset")[1].body).toEqual({ method: "userprefset", key: "columns:studentlist", value: null });
});
