/** What the fee domain's pages share: the channel as the API carries it, who reviews, the routes beside a page. */
import type { MenuGroup } from "../../../common/catalogue";
import { menus } from "../../../resources.config";
import { hasAnyRole, normaliseUserType, OPERATOR_ROLES } from "../../../common/roleKeys";
import { getCookie } from "../../../providers/session";

export interface Channel {
  id: number;
  title: string;
  gateway: string;
  sub_mchid: string | null;
  status: string;
  reject_reason: string | null;
  [field: string]: unknown;
}

/** A school's binding as schoolpaychnllist answers it. */
export interface SchoolBinding {
  id: number;
  sch_id: number;
  sch_title?: string | null;
  paychnl_id: number;
  paychnl_title?: string | null;
  bound_at?: string | null;
}

/**
 * Whether the signed-in user is one of the platform's operators, also while acting in a provider (whose menus
 * it then sees): the operators review channels, and the server gives them an operator's keys beside the provider's.
 */
export function isOperator(roles: readonly string[]): boolean {
  return hasAnyRole(roles, OPERATOR_ROLES) || normaliseUserType(getCookie("login_user_type") || getCookie("select_user_type")) === "system";
}

/** The route of another entry of the page's menu group the user may open (with a record's id), if there is one. */
export function siblingRoute(group: MenuGroup, name: string, roles: readonly string[], id?: string | number): string | undefined {
  const entry = group.children.find((e) => e.name === name);
  if (!entry?.page || !hasAnyRole(roles, entry.roles ?? group.roles)) return undefined;
  const path = `/${group.path}/${entry.name}`;
  if (!entry.params?.includes(":id")) return path;
  return id === undefined ? undefined : `${path}/${encodeURIComponent(String(id))}`;
}

/** The route of an entry of any group of the page's generation (the channel list, seen from a school's page), with a record's id. */
export function generationRoute(group: MenuGroup, name: string, roles: readonly string[], id?: string | number): string | undefined {
  for (const other of menus.filter((g) => g.generation === group.generation)) {
    const route = siblingRoute(other, name, roles, id);
    if (route) return route;
  }
  return undefined;
}

/** A bank account in groups of four digits, as a reviewer compares it with the bank's papers. */
export function groupedDigits(value: string): string {
  return value.replace(/\s+/g, "").replace(/(.{4})(?=.)/g, "$1 ");
}
