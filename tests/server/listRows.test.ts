/**
 * A list row is the record in its list form, for every entity of the catalogue (generated from it, never a
 * hand-kept list): each column carries the value its record carries (money in yuan, days, times in ISO 8601,
 * choices), but where the field's kind shows another value in lists (an identity card masked), and each reference
 * carries the referred record's name. Lists read their rows apart from records (server/engine/crud.ts), so this
 * is what keeps the two readings one. A record's child rows (an activity's fee items) come with the record only.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { hasAnyRole } from "../../common/roleKeys";
import { refTitleKey } from "../../common/fieldRules";
import { entities } from "../../resources.config";
import { kindOf } from "../../server/engine/fieldKinds";
import { describeOnDatabases } from "../helpers/db";
import { demoAccountCases, demoRowCount, demoRowsNeeded, sessionOf, type DemoAccountCase } from "./registryCases";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;

const listed = entities.filter((e) => e.implementedBy !== "domain" && e.roles.list?.length && e.roles.info?.length);

describeOnDatabases("list rows", (kind) => {
  let t: TestApp;
  let accounts: DemoAccountCase[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    accounts = await demoAccountCases(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("carries every record of a list page as its record reads, in the list's form", async () => {
    const compared = new Set<string>();
    for (const entity of listed) {
      const fields = new Map(entity.fields.map((f) => [f.name, f]));
      for (const account of accounts) {
        if (!hasAnyRole(account.auth.roles, entity.roles.list!) || !hasAnyRole(account.auth.roles, entity.roles.info!)) continue;
        const token = await sessionOf(t, account);
        const list = await t.call("adminapiv2", `${entity.name}list`, { page: 1, limit: 5 }, { token });
        const where = `${entity.name}list as ${account.username}`;
        expect(list.return_code, where).toBe("SUCCESS");
        for (const item of list.data?.items as Row[]) {
          const info = await t.call("adminapiv2", `${entity.name}info`, { id: item.id }, { token });
          expect(info.return_code, `${entity.name}info ${String(item.id)} as ${account.username}`).toBe("SUCCESS");
          const record = info.data?.items as Row;
          // a record read alone carries its child rows and its timeline besides its fields
          const children = new Set([...(entity.children ?? []).map((c) => c.name), ...(entity.timeline ? ["timeline"] : [])]);
          for (const [name, value] of Object.entries(record).filter(([name]) => !children.has(name))) {
            const field = fields.get(name);
            const listValue = field ? kindOf(field).listValue : undefined;
            const expected = listValue && value !== null && value !== undefined ? listValue(field!, value) : value;
            expect(item[name], `${where}: ${name} of ${String(item.id)}`).toEqual(expected);
          }
          for (const field of entity.fields.filter((f) => f.type === "ref" && !f.multiple && item[f.name] !== undefined)) {
            expect(item[refTitleKey(field.name)], `${where}: ${refTitleKey(field.name)}`).toEqual(record[refTitleKey(field.name)] ?? null);
          }
          compared.add(entity.name);
        }
      }
    }
    // every listed entity has demo rows its accounts read (but those without on purpose), so each kind of value is
    // compared on both databases; one without fails naming it
    for (const entity of listed.filter((e) => !compared.has(e.name))) {
      demoRowsNeeded(entity, await demoRowCount(t, entity), "the list rows test reads to compare each with its record");
    }
    expect([...compared]).toEqual(expect.arrayContaining(["service", "school", "grade", "classes", "student", "meal", "actcode"]));
  });
});
