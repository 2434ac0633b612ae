/**
 * One source for who may do what: every catalogue page a menu entry shows to a role calls operations the server
 * allows to that role. A menu that offers a page whose calls the server refuses is a mistake this test catches,
 * for every entry of both generations, from the catalogue and the operation registry alone.
 */
import { expect, it } from "vitest";
import type { MenuEntry, MenuGroup, PageRef } from "../../common/catalogue";
import { catalogue } from "../../resources.config";
import { ANY_SIGNED_IN } from "../../server/protocol/registry";
import { registeredOperations } from "./registryCases";

/** The operations a catalogue page calls: the generic ones of its kind, or those a custom or lookup page declares. */
function callsOf(page: PageRef): string[] {
  switch (page.kind) {
    case "list":
      return [`${page.entity}list`];
    case "lists":
      return page.parts.map((part) => `${part.entity}list`);
    case "info":
      return [`${page.entity}info`];
    case "edit":
      return [`${page.entity}info`, `${page.entity}edit`];
    case "add":
      return [`${page.entity}add`];
    case "settings":
      return [`${page.settings}info`, `${page.settings}edit`];
    case "report":
      return [page.report];
    case "custom":
      return [...page.calls];
    case "lookup":
      return [page.find, page.confirm.operation];
  }
}

it("shows every catalogue page only to roles the operations it calls allow", () => {
  const operations = new Map(registeredOperations().map((o) => [o.method, o]));
  const problems: string[] = [];
  let checked = 0;
  const entries: Array<{ group: MenuGroup; entry: MenuEntry }> = catalogue.menus.flatMap((group) => group.children.map((entry) => ({ group, entry })));
  for (const { group, entry } of entries) {
    if (!entry.page) continue;
    const shownTo = entry.roles ?? group.roles ?? [];
    for (const method of callsOf(entry.page)) {
      const operation = operations.get(method);
      if (!operation || !operation.needsToken) {
        problems.push(`/${group.path}/${entry.name} calls ${method}, which is not a session operation`);
        continue;
      }
      checked++;
      if (operation.roles === ANY_SIGNED_IN) continue;
      const refused = shownTo.filter((role) => !operation.roles.includes(role));
      if (shownTo.length === 0 || refused.length > 0) problems.push(`/${group.path}/${entry.name} is shown to ${shownTo.length ? refused.join(", ") : "everyone"}, but ${method} refuses them`);
    }
  }
  expect(problems).toEqual([]);
  expect(checked).toBeGreaterThan(20);
});
