/**
 * The navigation guard (spec 2.1, 4.1): public routes, the redirect to login, the logged-in user on /login,
 * and loading the user (roles) before the first protected page.
 */
import { loadUser, loginPath } from "./authProvider";
import { feedback } from "./feedback";
import { resetToken } from "./session";

export const PUBLIC_PATHS = ["/login", "/loginv1", "/register", "/auth-redirect"] as const;

/** an application's own pages: followed by its link (/register/{token}) */
const PUBLIC_PREFIXES = ["/register/"] as const;

export function isPublicPath(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, "") || "/";
  return (PUBLIC_PATHS as readonly string[]).includes(path) || PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix));
}

export type GuardDecision =
  | { kind: "allow" }
  | { kind: "redirect"; to: string }
  /** a token but no roles yet: load the user, then decide again */
  | { kind: "load-user" };

export function guardDecision(input: {
  pathname: string;
  /** path with query, kept in ?redirect= */
  fullPath: string;
  hasToken: boolean;
  hasRoles: boolean;
}): GuardDecision {
  const { pathname, fullPath, hasToken, hasRoles } = input;
  if (hasToken && (pathname === "/login" || pathname === "/loginv1")) return { kind: "redirect", to: "/" };
  if (isPublicPath(pathname)) return { kind: "allow" };
  if (!hasToken) return { kind: "redirect", to: loginPath(fullPath) };
  if (!hasRoles) return { kind: "load-user" };
  return { kind: "allow" };
}

let inflight: Promise<string | null> | null = null;

/**
 * Loads the user for the guard. On failure: logs out locally, shows the error (or 'Has Error') and answers
 * the login path with a redirect back; on success answers null (go on).
 */
export function loadUserOrLogin(fullPath: string): Promise<string | null> {
  // one getuserinfo for concurrent callers (a re-run effect must not double the call or the error toast)
  inflight ??= loadUser()
    .then(() => null)
    .catch((e: unknown) => {
      resetToken();
      feedback().error((e as Error)?.message || "Has Error", 5);
      return loginPath(fullPath);
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}
