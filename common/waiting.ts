/**
 * What waits for the caller's decision (`waitingcounts`): the records of each action declared `waiting` (a refund
 * request, a channel submitted for review) that the caller's roles may decide, counted within its tenant. Shared
 * by the server that counts them and the SPA that shows the counts on the menu entries listing those records and
 * on the home page.
 */
import type { MenuGroup } from "./catalogue";
import { firstPart, isBuilt, reachableEntries, routePath } from "./menu";

export interface WaitingCount {
  /** the action's `waiting` key: dashboard.waiting.{key} */
  key: string;
  /** the entity whose records wait, and the action that decides them */
  entity: string;
  action: string;
  /** the states they wait in (the action's `from`) */
  states: string[];
  count: number;
  /** the one waiting longest (lowest id) and its provider (0: a platform's record): opened in one click; null when none waits */
  first: { id: number; sysid: number } | null;
}

/**
 * The menu entries (their paths, as the sidebar keys them) that list the waiting records of a count: the pages of
 * several lists opening first the entity's (the after-sales list) and the lists of the entity showing only records
 * in the waiting states, where decisions are taken; or, where the menu has none, its lists of every record (the
 * channel list).
 */
export function waitingEntries(menus: readonly MenuGroup[], roles: readonly string[], count: Pick<WaitingCount, "entity" | "states">, stateField: string | undefined): string[] {
  const shown = reachableEntries(menus, roles).filter(({ entry }) => isBuilt(entry) && !entry.hidden);
  const lists = shown.filter(({ entry }) => {
    const page = entry.page;
    return page?.kind === "list" && page.entity === count.entity && !page.recordFilter;
  });
  const fixedOf = (entry: (typeof lists)[number]["entry"]) => Object.entries((entry.page?.kind === "list" && entry.page.filters) || {});
  const waitingOnly = lists.filter(({ entry }) => {
    const fixed = fixedOf(entry);
    return fixed.length > 0 && fixed.every(([field, value]) => field === stateField && count.states.includes(value));
  });
  const opensFirst = shown.filter(({ entry }) => entry.page?.kind === "lists" && firstPart(entry.page).entity === count.entity);
  const deciding = [...opensFirst, ...waitingOnly];
  const chosen = deciding.length > 0 ? deciding : lists.filter(({ entry }) => fixedOf(entry).length === 0);
  return chosen.map(({ group, entry }) => routePath(group, entry));
}
