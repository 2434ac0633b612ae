/**
 * Permission component (spec 5, 6): renders its children only when the user holds one of the listed roles.
 */
import type { ReactNode } from "react";
import { hasAnyRole } from "../../common/roleKeys";
import { useRoles } from "./session";

export interface PermissionProps {
  /** at least one role key; an empty list is a programming error */
  roles: readonly string[];
  children: ReactNode;
}

export function Permission({ roles, children }: PermissionProps) {
  const userRoles = useRoles();
  if (roles.length === 0) throw new Error("Permission needs roles, e.g. ['systemv2']");
  return hasAnyRole(userRoles, roles) ? <>{children}</> : null;
}
