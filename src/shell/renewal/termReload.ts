/**
 * The scope the console acts in (spec 2.4, 6): the provider's and the chosen school's titles and term ends, as
 * the shell loads them (serviceinfo, schoolinfo, read through refine like every record) and shows them in the top
 * bar, the dashboard and the expiry reminder. `reload` reads them again after a renewal made anywhere, so every
 * date shown moves at once. Outside the shell there is nothing to reload.
 */
import { createContext, useCallback, useContext, useEffect, useMemo } from "react";
import { useOne } from "@refinedev/core";
import { normaliseUserType } from "../../../common/roleKeys";
import { getCookie, storeProviderFacts, type ProviderFacts } from "../../../providers/session";

export interface ScopeInfo {
  providerTitle?: string;
  providerEndTime?: string;
  /** the school a school user belongs to, or the one a provider-side user chose on the selection page */
  schoolId?: string;
  schoolTitle?: string;
  schoolEndTime?: string;
}

export interface Scope extends ScopeInfo {
  reload: () => void;
}

export const ScopeContext = createContext<Scope>({ reload: () => undefined });

export function useScope(): Scope {
  return useContext(ScopeContext);
}

export function useTermReload(): () => void {
  return useContext(ScopeContext).reload;
}

interface SchoolInfo {
  title?: string;
  endtime?: string;
}

/**
 * Loads the scope from the session cookies: provider info for service, service_schadmin and pickup (and a
 * system user acting in a provider), school info for a school user and for the school a provider-side user
 * chose.
 */
export function useScopeInfo(): Scope {
  const type = normaliseUserType(getCookie("select_user_type"));
  const sysid = getCookie("select_sysid");
  const schid = getCookie("select_schid");
  const quiet = { errorNotification: false as const };
  const provider = useOne<ProviderFacts & { id?: number }>({
    resource: "service",
    id: sysid ?? "",
    queryOptions: { enabled: Boolean(sysid) && ["service", "service_schadmin", "pickup"].includes(type) },
    ...quiet,
  });
  const school = useOne<SchoolInfo & { id?: number }>({
    resource: "school",
    id: schid ?? "",
    queryOptions: { enabled: Boolean(schid) && ["school", "service", "service_schadmin"].includes(type) },
    ...quiet,
  });
  const providerFacts = provider.result;
  useEffect(() => {
    if (providerFacts?.title) storeProviderFacts(providerFacts);
  }, [providerFacts]);
  const { refetch: refetchProvider } = provider.query;
  const { refetch: refetchSchool } = school.query;
  const reload = useCallback(() => {
    if (provider.query.isFetched) void refetchProvider();
    if (school.query.isFetched) void refetchSchool();
  }, [provider.query.isFetched, school.query.isFetched, refetchProvider, refetchSchool]);
  const schoolInfo = school.result;
  return useMemo(
    () => ({
      providerTitle: providerFacts?.title ?? (getCookie("service_name") || undefined),
      providerEndTime: providerFacts?.end_time,
      schoolId: schid || undefined,
      schoolTitle: schoolInfo?.title,
      schoolEndTime: schoolInfo?.endtime,
      reload,
    }),
    [providerFacts, schoolInfo, schid, reload],
  );
}
