/**
 * Who may open a private file: a signed-in caller whose authority covers the tenant its key carries, decided as
 * every tenant named in a payload is (resolveScope, server/auth/scope.ts). The platform's accounts open every file;
 * a file of a provider (school 0) is its provider's accounts' (service, its school staff, its pickup clerks), not
 * its schools'; a file of a school is that school's accounts', its provider's, and the staff it is assigned to; a
 * platform file (provider 0) is the platform's alone.
 */
import type { Authority } from "../auth/authority";
import { resolveScope } from "../auth/scope";
import type { DbOrTx } from "../db/client";
import { ApiFailure } from "../protocol/envelope";
import type { Tenant } from "./keys";

export async function mayReadPrivateFile(db: DbOrTx, auth: Authority, tenant: Tenant): Promise<boolean> {
  if (auth.userType === "system") return true;
  if (tenant.sysid === 0) return false;
  if (tenant.schid === 0 && auth.userType === "school") return false;
  try {
    await resolveScope(db, auth, tenant.schid === 0 ? { sysid: tenant.sysid } : { sysid: tenant.sysid, sch_id: tenant.schid });
    return true;
  } catch (err) {
    if (err instanceof ApiFailure) return false;
    throw err;
  }
}
