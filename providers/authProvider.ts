/**
 * refine AuthProvider over the adminapi operations (spec 4.1, 5, 7): login stores the token and every session
 * cookie; logout tells the server, then clears token, roles, cookies and open tabs.
 */
import type { AuthProvider } from "@refinedev/core";
import {
  clearSession,
  getToken,
  rolesFromCookies,
  sessionUser,
  setSessionUser,
  storeLogin,
  type LoginFacts,
  type SessionUser,
} from "./session";
import { weapi, WeapiError } from "./weapi";

export interface LoginParams {
  username: string;
  password: string;
  /** where to go after login (the redirect query of /login) */
  redirect?: string;
}

interface LoginData {
  token: string;
  items: { data: LoginFacts };
}

/** The current path with its query, for /login?redirect=... */
export function currentFullPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}

export function loginPath(redirect: string): string {
  return `/login?redirect=${encodeURIComponent(redirect)}`;
}

/** Only same-site paths are followed after login, never another origin. */
export function safeRedirect(redirect: string | null | undefined): string {
  return redirect && redirect.startsWith("/") && !redirect.startsWith("//") ? redirect : "/";
}

export async function login({ username, password, redirect }: LoginParams) {
  try {
    // spec 5: the username is trimmed, the password is sent as entered
    const res = await weapi<LoginData>("adminapi", "login", { username: username.trim(), password });
    if (res.return_code !== "SUCCESS" || !res.data?.token) {
      return { success: false, error: { name: "login", message: res.return_msg } };
    }
    // the previous session's cookies, roles and tabs never leak into this one
    clearSession();
    storeLogin(res.data.token, res.data.items.data);
    return { success: true, redirectTo: safeRedirect(redirect) };
  } catch (e) {
    return { success: false, error: { name: "login", message: (e as Error).message } };
  }
}

export const USERINFO_NO_DATA = "Verification failed, please Login again.";
export const USERINFO_NO_ROLES = "getInfo: roles must be a non-null array!";

interface UserInfoItems {
  roles?: unknown;
  name?: string;
  avatar?: string;
  introduction?: string;
  username?: string;
  user_type?: string;
}

/**
 * getuserinfo with the checks of spec 5; the role keys in force come from the cookies, because a system user
 * who switched into a provider acts with that provider's keys (spec 4.1 role switching).
 */
export async function loadUser(): Promise<SessionUser> {
  const res = await weapi<{ items?: UserInfoItems }>("adminapi", "getuserinfo", {}, { silent: true });
  // a refusal carries the server's message (the guard shows 'Has Error' when there is none)
  if (res.return_code !== "SUCCESS") throw new Error(res.return_msg);
  const items = res.data?.items;
  if (!items) throw new Error(USERINFO_NO_DATA);
  if (!Array.isArray(items.roles) || items.roles.length === 0) throw new Error(USERINFO_NO_ROLES);
  const user: SessionUser = {
    roles: rolesFromCookies(),
    name: items.name ?? "",
    avatar: items.avatar ?? "",
    introduction: items.introduction ?? "",
    username: items.username ?? "",
    user_type: items.user_type ?? "",
  };
  setSessionUser(user);
  return user;
}

/** Logout (spec 4.1): server first (its failure does not keep the user in), then everything local. */
export async function logout(): Promise<string> {
  const back = currentFullPath();
  if (getToken()) {
    try {
      await weapi("adminapi", "logout", {}, { silent: true });
    } catch {
      // an expired session is already logged out on the server
    }
  }
  clearSession();
  return loginPath(back);
}

export const authProvider: AuthProvider = {
  login: (params: LoginParams) => login(params),
  logout: async () => ({ success: true, redirectTo: await logout() }),
  check: async () =>
    getToken()
      ? { authenticated: true }
      : { authenticated: false, logout: true, redirectTo: loginPath(currentFullPath()) },
  getIdentity: async () => sessionUser() ?? (getToken() ? loadUser() : null),
  getPermissions: async () => sessionUser()?.roles ?? rolesFromCookies(),
  onError: async (error: unknown) => {
    if (error instanceof WeapiError && error.envelope?.return_code.toLowerCase() === "token_error") {
      return { logout: true, redirectTo: loginPath(currentFullPath()) };
    }
    return {};
  },
};
