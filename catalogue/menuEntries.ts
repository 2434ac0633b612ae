/** The two ways a menu tree writes an entry; its page is bound later by route name (resources.config.ts). */
import type { MenuTreeEntry } from "../common/catalogue";

/** A menu entry shown in the sidebar, titled menu.{name} unless a title is given. */
export function item(name: string, icon: string, roles?: string[], extra: Partial<MenuTreeEntry> = {}): MenuTreeEntry {
  return { name, title: `menu.${name}`, icon, ...(roles ? { roles } : {}), ...extra };
}

/**
 * A hidden route opened from the list `from` (which stays highlighted); `record: true` when it names a record
 * (path parameter :id).
 */
export function sub(name: string, from: string, roles?: string[], extra: Partial<MenuTreeEntry> & { record?: boolean } = {}): MenuTreeEntry {
  const { record, ...rest } = extra;
  return {
    name,
    title: `menu.${name}`,
    hidden: true,
    activeMenu: from,
    ...(record ? { params: [":id"] } : {}),
    ...(roles ? { roles } : {}),
    ...rest,
  };
}
