/** The pages a list's menu links to its rows and its selection (hidden routes naming the list as their menu). */
import { usePermissions, type BaseRecord } from "@refinedev/core";
import type { EntityDecl, MenuEntry, PageRef } from "../../common/catalogue";
import { hasAnyRole } from "../../common/roleKeys";
import { menus } from "../../resources.config";
import { builtRoute, type BuiltPage } from "./builtPages";
import { recordPath } from "./resources";

export type LinkedPage = { entry: MenuEntry; route: string };

/**
 * The hidden routes of the list's group that name this list as their menu, as the user's roles allow: those
 * with an :id open a row (a provider's contract maintenance and its activation codes beside the provider
 * list), the other custom ones stand beside Add (generating activation codes beside the code list).
 */
export function useLinkedPages(list: BuiltPage | undefined, entity: EntityDecl): Record<"recordPages" | "listPages", LinkedPage[]> {
  const { data: roles } = usePermissions<string[]>({});
  if (!list || !roles) return { recordPages: [], listPages: [] };
  const { entry: listEntry } = list;
  // a v1 and a v2 group may share a path (/activity): the routes of both that the user's roles open
  const groups = menus.filter((group) => group.path === list.group.path && hasAnyRole(roles, group.roles));
  const linked = groups.flatMap((group) =>
    group.children
      .filter((entry) => entry.hidden && entry.activeMenu === listEntry.name && entry.page && hasAnyRole(roles, entry.roles))
      .map((entry) => ({ entry, route: builtRoute(group, entry) })),
  );
  return {
    recordPages: linked.filter(({ entry }) => entry.params?.includes(":id") && !ownRecordPage(entry.page!, entity) && !otherRecordPage(entry.page!, entity)),
    listPages: linked.filter(({ entry }) => !entry.params?.length && entry.page!.kind === "custom"),
  };
}

/** A page of the list's own entity: its rows' Edit and Details buttons already. */
function ownRecordPage(page: PageRef, entity: EntityDecl): boolean {
  return "entity" in page && page.entity === entity.name;
}

/**
 * The record page of another entity (the after-sale's, beside the refund requests on the after-sales list): its id
 * is that entity's, never one of this list's rows.
 */
function otherRecordPage(page: PageRef, entity: EntityDecl): boolean {
  return (page.kind === "info" || page.kind === "edit") && page.entity !== entity.name;
}

/** Whether a record page is offered on this record (a voucher on a paid order only). */
export function offeredOn(page: LinkedPage, record: BaseRecord | undefined): boolean {
  const when = page.entry.page?.kind === "custom" ? page.entry.page.offeredWhen : undefined;
  return Boolean(record) && (!when || when.values.includes(String(record![when.field])));
}

/** Whether a list's selection opens the page. */
export function opensSelection(page: LinkedPage): boolean {
  return page.entry.page?.kind === "custom" && page.entry.page.selection === true;
}

/** The page's address for the records chosen: the first as its record, all of them in `ids`. */
export function selectionPath(page: LinkedPage, records: readonly BaseRecord[]): string {
  return `${recordPath(page.route, records[0].id)}?ids=${records.map((r) => String(r.id)).join(",")}`;
}
