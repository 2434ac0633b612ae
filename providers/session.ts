/**
 * Session cookies of spec 3 and the in-memory session (roles, user info) of spec 4.1.
 * Cookies are the source of truth across reloads; the role keys are derived from them with the shared
 * common/roleKeys.ts so the SPA and the server agree.
 */
import Cookies from "js-cookie";
import { roleKeys } from "../common/roleKeys";

/** Every cookie the console writes (spec 3). */
export const SESSION_COOKIES = [
  "token",
  "select_paymode",
  "select_xcxupload",
  "open_activity_mode",
  "is_show_fee",
  "is_superadmin",
  "select_sysid",
  "select_schid",
  "select_user_type",
  "login_user_type",
  "service_name",
  "service_end_time",
  "servicer_ver",
  "kfurl",
  "userinfo",
] as const;
/** Preferences that outlive a session. */
export const PREFERENCE_COOKIES = ["language", "size", "sidebarStatus"] as const;

export type SessionCookie = (typeof SESSION_COOKIES)[number];
export type PreferenceCookie = (typeof PREFERENCE_COOKIES)[number];
export type CookieName = SessionCookie | PreferenceCookie;

const cookieAttributes: Cookies.CookieAttributes = { path: "/", sameSite: "lax" };
const preferenceAttributes: Cookies.CookieAttributes = { ...cookieAttributes, expires: 365 };

/**
 * The cookies as last read, by the cookie string they were read from: every API call and every list row asks for
 * some, and decoding the whole string each time cost a sign-in and a list page tens of milliseconds. A changed string
 * (a cookie set here, by the server or in another tab) is read again, so the answer is always the current one.
 */
let readCookies: { from: string; values: Map<string, string> } | undefined;

export function getCookie(name: CookieName): string {
  const from = document.cookie;
  if (readCookies?.from !== from) readCookies = { from, values: new Map() };
  let value = readCookies.values.get(name);
  if (value === undefined) readCookies.values.set(name, (value = Cookies.get(name) ?? ""));
  return value;
}

/**
 * Whether the console is served over https (PUBLIC_URL https, or TLS ended at a proxy in front of it): its cookies are
 * then Secure, so that the browser never sends the token over plain http. The page's own address decides, not the
 * server's settings: a page opened over http could not keep a Secure cookie at all.
 */
export function servedOverHttps(): boolean {
  return typeof window !== "undefined" && window.location.protocol === "https:";
}

export function setCookie(name: CookieName, value: string): void {
  const isPreference = (PREFERENCE_COOKIES as readonly string[]).includes(name);
  Cookies.set(name, value, { ...(isPreference ? preferenceAttributes : cookieAttributes), secure: servedOverHttps() });
}

export function removeCookie(name: CookieName): void {
  Cookies.remove(name, { path: "/" });
}

export function getToken(): string {
  return getCookie("token");
}

/** The session facts the login answers with (data.items.data). */
export interface LoginFacts {
  user_type: string;
  login_usertype: string;
  username: string;
  name: string;
  servicer_ver: string;
  sysid: string;
  schid: string;
  is_superadmin: string;
  is_show_fee: string;
  select_paymode: string;
  xcx_upload: string;
  open_activity_mode: string;
  service_name: string;
  service_end_time: string;
  kfurl: string;
}

/** Stored in the userinfo cookie: who logged in, kept for the top bar and for switching back. */
export interface StoredUserInfo {
  username: string;
  name: string;
  user_type: string;
  login_usertype: string;
  /** the login's own facts, restored when a system user switches back to the operator console */
  servicer_ver: string;
  is_show_fee: string;
  sysid: string;
  schid: string;
}

export function storeLogin(token: string, facts: LoginFacts): void {
  setCookie("token", token);
  setCookie("select_user_type", facts.user_type);
  setCookie("login_user_type", facts.login_usertype || facts.user_type);
  setCookie("servicer_ver", facts.servicer_ver);
  setCookie("select_sysid", facts.sysid ?? "");
  setCookie("select_schid", facts.schid ?? "");
  setCookie("is_superadmin", facts.is_superadmin);
  setCookie("is_show_fee", facts.is_show_fee);
  setCookie("select_paymode", facts.select_paymode);
  setCookie("select_xcxupload", facts.xcx_upload);
  setCookie("open_activity_mode", facts.open_activity_mode);
  setCookie("service_name", facts.service_name ?? "");
  setCookie("service_end_time", facts.service_end_time ?? "");
  setCookie("kfurl", facts.kfurl ?? "");
  const info: StoredUserInfo = {
    username: facts.username,
    name: facts.name,
    user_type: facts.user_type,
    login_usertype: facts.login_usertype || facts.user_type,
    servicer_ver: facts.servicer_ver,
    is_show_fee: facts.is_show_fee,
    sysid: facts.sysid ?? "",
    schid: facts.schid ?? "",
  };
  setCookie("userinfo", JSON.stringify(info));
}

export function storedUserInfo(): StoredUserInfo | null {
  const raw = getCookie("userinfo");
  if (!raw) return null;
  try {
    return JSON.parse(raw) as StoredUserInfo;
  } catch {
    return null;
  }
}

/** Session values of spec 3, read from the cookies. */
export interface SessionValues {
  userType: string;
  loginUserType: string;
  sysid: string;
  schid: string;
  serviceName: string;
  serviceEndTime: string;
  servicerVer: string;
  openActivityMode: string;
  xcxUpload: string;
  isSuperadmin: string;
  isShowFee: string;
  selectPaymode: string;
  kfurl: string;
}

export function sessionValues(): SessionValues {
  return {
    userType: getCookie("select_user_type"),
    loginUserType: getCookie("login_user_type"),
    sysid: getCookie("select_sysid"),
    schid: getCookie("select_schid"),
    serviceName: getCookie("service_name"),
    serviceEndTime: getCookie("service_end_time"),
    servicerVer: getCookie("servicer_ver"),
    openActivityMode: getCookie("open_activity_mode"),
    xcxUpload: getCookie("select_xcxupload"),
    isSuperadmin: getCookie("is_superadmin"),
    isShowFee: getCookie("is_show_fee"),
    selectPaymode: getCookie("select_paymode"),
    kfurl: getCookie("kfurl"),
  };
}

/** Role keys of spec 4.1 from the cookies: the acting user type is select_user_type. */
export function rolesFromCookies(): string[] {
  return roleKeys({
    user_type: getCookie("select_user_type"),
    servicer_ver: getCookie("servicer_ver"),
    select_paymode: getCookie("select_paymode"),
    xcx_upload: getCookie("select_xcxupload"),
    is_superadmin: getCookie("is_superadmin"),
    is_show_fee: getCookie("is_show_fee"),
  });
}

/** What serviceinfo tells about a provider (spec 3). */
export interface ProviderFacts {
  id: number | string;
  title: string;
  end_time: string;
  open_activity_mode: string;
  xcx_upload: string;
  is_show_fee?: string;
  servicer_ver?: string;
}

/** Stores a provider's facts as the session's provider (top bar, expiry, role keys). */
export function storeProviderFacts(provider: ProviderFacts): void {
  setCookie("select_sysid", String(provider.id));
  setCookie("service_name", provider.title ?? "");
  setCookie("service_end_time", provider.end_time ?? "");
  setCookie("open_activity_mode", provider.open_activity_mode ?? "");
  setCookie("select_xcxupload", provider.xcx_upload ?? "N");
}

/**
 * Role switching (spec 4.1): a system user enters a provider and acts with the provider's role keys
 * (service, plus the upload role when xcx_upload is Y; v2: servicev2 plus xcxuploadv2).
 */
export function enterProvider(provider: ProviderFacts): void {
  storeProviderFacts(provider);
  setCookie("select_user_type", "service");
  setCookie("select_schid", "");
  if (provider.servicer_ver) setCookie("servicer_ver", provider.servicer_ver);
  if (provider.is_show_fee) setCookie("is_show_fee", provider.is_show_fee);
  refreshRoles();
}

/** Back to the operator console: user type system, roles systemv2 (plus superadminv2) in v2. */
export function backToOperator(): void {
  const login = storedUserInfo();
  setCookie("select_user_type", "system");
  setCookie("servicer_ver", login?.servicer_ver ?? getCookie("servicer_ver"));
  setCookie("is_show_fee", login?.is_show_fee ?? "N");
  setCookie("select_sysid", login?.sysid ?? "");
  setCookie("select_schid", "");
  setCookie("service_name", "");
  setCookie("service_end_time", "");
  setCookie("select_xcxupload", "N");
  refreshRoles();
}

/** A provider or provider-staff user chooses the school to manage. */
export function chooseSchool(schoolId: number | string): void {
  setCookie("select_schid", String(schoolId));
}

/** The user as getuserinfo describes it, plus the role keys in force. */
export interface SessionUser {
  roles: string[];
  name: string;
  avatar: string;
  introduction: string;
  username: string;
  user_type: string;
}

type Listener = () => void;
let currentUser: SessionUser | null = null;
const listeners = new Set<Listener>();

/** The loaded user (null until the navigation guard has loaded it). */
export function sessionUser(): SessionUser | null {
  return currentUser;
}

export function setSessionUser(user: SessionUser | null): void {
  currentUser = user;
  listeners.forEach((l) => l());
}

/** Recompute the role keys after a role switch (spec 4.1) without a server call. */
export function refreshRoles(): void {
  if (currentUser) setSessionUser({ ...currentUser, roles: rolesFromCookies() });
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** localStorage key of the open tabs (cleared on logout). */
export const TABS_STORAGE_KEY = "campus-pay-console:tabs";

/** Reset token (spec 4.1): clears token, roles and the session cookies, without a server call. */
export function resetToken(): void {
  SESSION_COOKIES.forEach(removeCookie);
  setSessionUser(null);
}

/** Everything logout clears besides the token: the open tabs too. */
export function clearSession(): void {
  resetToken();
  try {
    window.localStorage.removeItem(TABS_STORAGE_KEY);
  } catch {
    // storage may be unavailable (private mode); nothing to clear then
  }
}
