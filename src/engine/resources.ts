/**
 * Lookups shared by the generic pages: the entity resource a page serves and whether the user may act.
 */
import { usePermissions } from "@refinedev/core";
import type { CrudAction, EntityDecl } from "../../common/catalogue";
import { hasAnyRole } from "../../common/roleKeys";
import { entityResources, type EntityResource } from "./builtPages";

export function resourceByIdentifier(identifier: string): EntityResource {
  const resource = entityResources().find((r) => r.identifier === identifier);
  if (!resource) throw new Error(`no catalogue pages for ${identifier}`);
  return resource;
}

/** Whether the user's role keys allow the entity action (the server checks the same keys). */
export function useEntityAbility(entity: EntityDecl): (action: CrudAction) => boolean {
  const { data: roles } = usePermissions<string[]>({});
  return (action) => {
    const allowed = entity.roles[action];
    return Boolean(allowed && allowed.length > 0 && roles && hasAnyRole(roles, allowed));
  };
}

/** The route of one record: a pattern such as /servicev2/serviceedit/:id with the id filled in. */
export function recordPath(route: string, id: unknown): string {
  return route.replace(":id", encodeURIComponent(String(id)));
}
