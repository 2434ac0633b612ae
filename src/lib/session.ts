/** React access to the session store of providers/session.ts. */
import { useSyncExternalStore } from "react";
import { sessionUser, subscribeSession, type SessionUser } from "../../providers/session";

export function useSessionUser(): SessionUser | null {
  return useSyncExternalStore(subscribeSession, sessionUser);
}

export function useRoles(): string[] {
  return useSessionUser()?.roles ?? [];
}
