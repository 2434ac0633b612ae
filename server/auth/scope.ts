/**
 * The tenant a call acts in: `sysid` (provider) and `sch_id` (school) named in the payload, checked against the
 * caller's authority. Outside it the answer is the same FAIL as for a record that does not exist.
 */
import { ApiFailure, notFound } from "../protocol/envelope";
import { MAX_INT } from "../protocol/validation";
import type { DbOrTx } from "../db/client";
import { loadProvider, loadSchool, type Authority, type ProviderFacts, type SchoolFacts } from "./authority";

export interface Scope {
  /** the provider acted in; null only for a system user acting platform-wide */
  sysid: number | null;
  provider: ProviderFacts | null;
  /** schools the call may touch; null: every school of `sysid` (or all, platform-wide) */
  schids: number[] | null;
  /** pickup points of a pickup clerk; null for everyone else */
  pickupPointIds: number[] | null;
}

/** The school and provider a payload names, when they were read already (with the session): null when missing. */
export interface NamedTenants {
  school?: { id: number; facts: SchoolFacts | null };
  provider?: { id: number; facts: ProviderFacts | null };
}

/** The school of this id: from what was read already when it is there, else from the database. */
function schoolById(db: DbOrTx, id: number, named: NamedTenants | undefined): Promise<SchoolFacts | null> | SchoolFacts | null {
  return named?.school?.id === id ? named.school.facts : loadSchool(db, id);
}

function providerById(db: DbOrTx, id: number, named: NamedTenants | undefined): Promise<ProviderFacts | null> | ProviderFacts | null {
  return named?.provider?.id === id ? named.provider.facts : loadProvider(db, id);
}

/** The `sch_id` and `sysid` a payload names, when they are ids at all (the scope check refuses the rest). */
export function namedTenantIds(payload: Record<string, unknown>): { schid?: number; sysid?: number } {
  const lenient = (value: unknown) => {
    try {
      return parseTenantId(value);
    } catch {
      return undefined;
    }
  };
  return { schid: lenient(payload.sch_id), sysid: lenient(payload.sysid) };
}

/**
 * A tenant or record id from the payload: absent ("", null, undefined) → undefined; not a positive integer
 * within the id columns' range → not found (no row can have it).
 */
export function parseTenantId(value: unknown): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0 || n > MAX_INT) throw notFound();
  return n;
}

/** The provider a system user names with `sysid`, when it exists (role switching, spec 4.1). */
export async function switchedProvider(db: DbOrTx, auth: Authority, payload: Record<string, unknown>, named?: NamedTenants): Promise<ProviderFacts | null> {
  if (auth.userType !== "system") return null;
  let sysid: number | undefined;
  try {
    sysid = parseTenantId(payload.sysid);
  } catch {
    return null;
  }
  return sysid === undefined ? null : providerById(db, sysid, named);
}

/** scopes already resolved for a request's payload (the protocol checks it before the operation asks again) */
const resolvedScopes = new WeakMap<Record<string, unknown>, Promise<Scope>>();

/** `named`: the tenants read with the session, sparing their queries (the first call of a request passes them). */
export function resolveScope(db: DbOrTx, auth: Authority, payload: Record<string, unknown>, named?: NamedTenants): Promise<Scope> {
  let scope = resolvedScopes.get(payload);
  if (!scope) {
    scope = scopeOf(db, auth, payload, named);
    resolvedScopes.set(payload, scope);
  }
  return scope;
}

async function scopeOf(db: DbOrTx, auth: Authority, payload: Record<string, unknown>, named: NamedTenants | undefined): Promise<Scope> {
  const askedSysid = parseTenantId(payload.sysid);
  const askedSchid = parseTenantId(payload.sch_id);

  if (auth.userType === "system") {
    let provider = askedSysid === undefined ? null : await providerById(db, askedSysid, named);
    if (askedSysid !== undefined && !provider) throw notFound();
    if (askedSchid === undefined) return { sysid: provider?.id ?? null, provider, schids: null, pickupPointIds: null };
    const school = await schoolById(db, askedSchid, named);
    if (!school || (provider && school.sysid !== provider.id)) throw notFound();
    provider ??= await providerById(db, school.sysid, named);
    return { sysid: school.sysid, provider, schids: [school.id], pickupPointIds: null };
  }

  // everyone else acts in its own provider only
  const ownSysid = auth.sysid;
  if (ownSysid === null || (askedSysid !== undefined && askedSysid !== ownSysid)) throw notFound();
  const provider = auth.provider;

  switch (auth.userType) {
    case "school": {
      if (auth.schid === null || (askedSchid !== undefined && askedSchid !== auth.schid)) throw notFound();
      return { sysid: ownSysid, provider, schids: [auth.schid], pickupPointIds: null };
    }
    case "service_schadmin": {
      const assigned = auth.assignedSchoolIds;
      if (askedSchid !== undefined && !assigned.includes(askedSchid)) throw notFound();
      return { sysid: ownSysid, provider, schids: askedSchid === undefined ? assigned : [askedSchid], pickupPointIds: null };
    }
    case "pickup":
      if (askedSchid !== undefined) throw notFound();
      return { sysid: ownSysid, provider, schids: null, pickupPointIds: auth.pickupPointIds };
    case "service": {
      if (askedSchid === undefined) return { sysid: ownSysid, provider, schids: null, pickupPointIds: null };
      const school = await schoolById(db, askedSchid, named);
      if (!school || school.sysid !== ownSysid) throw notFound();
      return { sysid: ownSysid, provider, schids: [school.id], pickupPointIds: null };
    }
  }
}

/**
 * The one school a write acts in (a record added, a code redeemed, an import): the school the payload names, inside
 * the caller's scope; FAIL api.school_required when it names none (a provider working across its schools).
 */
export function schoolOfWrite(scope: Scope, payload: Record<string, unknown>): number {
  if (scope.schids === null || scope.schids.length !== 1 || payload.sch_id === undefined) throw new ApiFailure("api.school_required");
  return scope.schids[0]!;
}
