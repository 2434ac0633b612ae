/**
 * The scope the console acts in (spec 2.4, 6): the provider's and the chosen school's titles and term ends, as
 * the shell loads them (serviceinfo, schoolinfo) and shows them in the top bar, the dashboard and the expiry
 * reminder. `reload` reads them again after a renewal made anywhere, so every date shown moves at once.
 * Outside the shell there is nothing to reload.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { normaliseUserType } from "../../../common/roleKeys";
import { getCookie, storeProviderFacts, type ProviderFacts } from "../../../providers/session";
import { weapi } from "../../../providers/weapi";

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
  const [info, setInfo] = useState<ScopeInfo>(() => ({ providerTitle: getCookie("service_name") || undefined, schoolId: getCookie("select_schid") || undefined }));
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    let live = true;
    const type = normaliseUserType(getCookie("select_user_type"));
    const sysid = getCookie("select_sysid");
    const schid = getCookie("select_schid");
    const merge = (next: ScopeInfo) => live && setInfo((current) => ({ ...current, ...next }));
    if (["service", "service_schadmin", "pickup"].includes(type) && sysid) {
      void weapi<{ items?: ProviderFacts }>("adminapiv2", "serviceinfo", { id: sysid }, { silent: true })
        .then((res) => {
          if (res.return_code !== "SUCCESS" || !res.data?.items) return;
          storeProviderFacts(res.data.items);
          merge({ providerTitle: res.data.items.title, providerEndTime: res.data.items.end_time });
        })
        .catch(() => undefined);
    }
    if (schid && ["school", "service", "service_schadmin"].includes(type)) {
      void weapi<{ items?: SchoolInfo }>("adminapiv2", "schoolinfo", { sch_id: schid, sysid }, { silent: true })
        .then((res) => res.return_code === "SUCCESS" && res.data?.items && merge({ schoolId: schid, schoolTitle: res.data.items.title, schoolEndTime: res.data.items.endtime }))
        .catch(() => undefined);
    }
    return () => {
      live = false;
    };
  }, [version]);
  return useMemo(() => ({ ...info, reload }), [info, reload]);
}
