/**
 * What waits for the user's decision (`waitingcounts`: refund requests for a provider, channels submitted for the
 * platform's operators), read once for the sidebar's badges and the home page alike (one query, shared by key), in
 * the tenant the user acts in; read again after any change to the records counted (useRefreshEntities), when the
 * window regains focus and every minute (a school may ask meanwhile).
 */
import { useCustom } from "@refinedev/core";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { hasAnyRole } from "../../common/roleKeys";
import type { WaitingCount } from "../../common/waiting";
import { scope } from "../../providers/dataProvider";
import { entities } from "../../resources.config";
import { useRoles } from "./session";

const WAITING_KEY = "waitingcounts";
const REREAD_MS = 60_000;

/** The entities whose records wait for a decision, and who may take it. */
const waitingActions = entities.flatMap((entity) => (entity.actions ?? []).filter((action) => action.waiting).map((action) => ({ entity: entity.name, roles: action.roles })));

/** Whether the user may take any of the decisions counted. */
export function decidesAny(roles: readonly string[]): boolean {
  return waitingActions.some((w) => hasAnyRole(roles, w.roles));
}

/** The counts of the decisions the user may take; empty while unread or when it takes none. */
export function useWaitingCounts(): WaitingCount[] {
  const roles = useRoles();
  const tenant = scope();
  const { result } = useCustom<WaitingCount[]>({
    url: WAITING_KEY,
    method: "post",
    config: { payload: tenant },
    meta: { silent: true },
    errorNotification: false,
    successNotification: false,
    queryOptions: {
      queryKey: [WAITING_KEY, tenant.sysid ?? "", roles.join(",")],
      enabled: decidesAny(roles),
      refetchInterval: REREAD_MS,
      refetchOnWindowFocus: true,
    },
  });
  const data = result.data;
  return useMemo(() => (decidesAny(roles) && Array.isArray(data) ? data : []), [data, roles]);
}

/** Reads the counts again after the records of these entities changed (a request decided, a channel submitted). */
export function useRefreshWaiting(): (entityNames: readonly string[]) => Promise<void> {
  const client = useQueryClient();
  return useCallback(
    async (entityNames) => {
      if (waitingActions.some((w) => entityNames.includes(w.entity))) await client.invalidateQueries({ queryKey: [WAITING_KEY] });
    },
    [client],
  );
}
