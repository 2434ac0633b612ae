/**
 * Role keys of spec 4.1: one function for the SPA (facts from cookies) and the server (facts from the database).
 * The server authorises operations by these keys, the SPA filters menus by them.
 */
export type UserType = "system" | "service" | "service_schadmin" | "school" | "pickup";
export type ServicerVersion = "v1" | "v2";
export type YesNo = "Y" | "N";

export interface RoleFacts {
  user_type: string;
  servicer_ver?: string | null;
  /** school: v1 paymode switch */
  select_paymode?: string | null;
  /** service and service_schadmin: the provider's mini-program upload permission */
  xcx_upload?: string | null;
  is_superadmin?: string | null;
  is_show_fee?: string | null;
}

/*
 * Named sets of role keys, in both menu generations, so that who may do what reads as words: an operation or an
 * entity action names the sets it allows (anyOf), never a list written out again.
 */
/** the platform's operators (super administrators hold these keys too) */
export const OPERATOR_ROLES: readonly string[] = ["system", "systemv2"];
/** a service provider's own accounts */
export const PROVIDER_ROLES: readonly string[] = ["service", "servicev2"];
/** provider-side school administrators (v2 only) */
export const PROVIDER_STAFF_ROLES: readonly string[] = ["service_schadminv2"];
/** schools */
export const SCHOOL_ROLES: readonly string[] = ["school", "schoolv2"];
/** pickup clerks (v2 only) */
export const PICKUP_ROLES: readonly string[] = ["pickup"];

/** The role keys of several sets, once each. */
export function anyOf(...sets: ReadonlyArray<readonly string[]>): readonly string[] {
  return [...new Set(sets.flat())];
}

/** Any user_type outside the known ones is treated as system (spec 1). */

export function normaliseUserType(userType: string | null | undefined): UserType {
  switch (userType) {
    case "service":
    case "service_schadmin":
    case "school":
    case "pickup":
      return userType;
    default:
      return "system";
  }
}

export function servicerVersion(ver: string | null | undefined): ServicerVersion {
  return ver === "v2" ? "v2" : "v1";
}

export function roleKeys(facts: RoleFacts): string[] {
  const type = normaliseUserType(facts.user_type);
  const keys: string[] = [];
  if (servicerVersion(facts.servicer_ver) === "v1") {
    if (type === "school") keys.push(...(facts.select_paymode === "Y" ? ["paymode", "school"] : ["school"]));
    else if (type === "service") keys.push(...(facts.xcx_upload === "Y" ? ["xcxupload", "service"] : ["service"]));
    // v1 has no pickup or provider-staff generation: they fall to system like any unknown type would,
    // but they never reach here with rights because the server refuses a v1 login for them.
    else keys.push(...(facts.is_superadmin === "Y" ? ["system", "superadmin"] : ["system"]));
  } else {
    if (type === "school") keys.push("schoolv2");
    else if (type === "service" || type === "service_schadmin") {
      keys.push(`${type}v2`);
      if (facts.xcx_upload === "Y") keys.push("xcxuploadv2");
    } else if (type === "pickup") keys.push("pickup");
    else {
      keys.push("systemv2");
      if (facts.is_superadmin === "Y") keys.push("superadminv2");
    }
  }
  if (facts.is_show_fee === "Y") keys.push("is_show_fee");
  return keys;
}

/** A permission check succeeds if the user holds any listed role; role 'admin' holds every right (spec 4.1, 6). */
export function hasAnyRole(userRoles: readonly string[], required: readonly string[] | undefined): boolean {
  if (!required || required.length === 0) return true;
  if (userRoles.includes("admin")) return true;
  return required.some((r) => userRoles.includes(r));
}
