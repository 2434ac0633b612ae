/**
 * The console's cookies and the page's scheme: a login on a page served over https (PUBLIC_URL https, or TLS ended at
 * a proxy that forwards X-Forwarded-Proto) stores every cookie Secure, so that the browser never sends the token over
 * plain http; on a page served over http none is, or the browser would not keep them and the login would be lost.
 * The same for the payer page's language cookie. Only fetch is fake; the cookies are jsdom's, as a browser keeps them.
 */
import Cookies from "js-cookie";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { login } from "../../providers/authProvider";
import { registerFeedback } from "../../providers/feedback";
import { getCookie, PREFERENCE_COOKIES, removeCookie, SESSION_COOKIES, setCookie } from "../../providers/session";
import { rememberH5Language } from "../../src/h5/i18n";

/** What the test uses of the jsdom instance vitest's environment runs in: its cookie jar holds each cookie's attributes. */
interface PageDom {
  cookieJar: { getCookiesSync(url: string): { key: string; secure: boolean }[]; removeAllCookiesSync(): void };
  reconfigure(settings: { url: string }): void;
}
const dom = (globalThis as unknown as { jsdom: PageDom }).jsdom;
const fetchMock = vi.fn<typeof fetch>();
let unregister: () => void;

/** every cookie the page holds, with whether it is Secure */
function storedCookies(): { name: string; secure: boolean }[] {
  return dom.cookieJar.getCookiesSync(window.location.href).map((c) => ({ name: c.key, secure: c.secure }));
}

function answerLogin() {
  const facts = {
    user_type: "service", login_usertype: "service", username: "svc", name: "Li Wei", servicer_ver: "v2", sysid: "1", schid: "",
    is_superadmin: "N", is_show_fee: "Y", select_paymode: "N", xcx_upload: "Y", open_activity_mode: "1",
    service_name: "Sunrise Campus Services", service_end_time: "2026-12-03", kfurl: "https://kf.example",
  };
  const body = { return_code: "SUCCESS", return_msg: "", data: { token: "t-secure", items: { data: facts } } };
  fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } }));
}

beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  unregister = registerFeedback({ error: () => {}, warning: () => {}, success: () => {}, confirm: () => {} });
});
afterEach(() => {
  unregister();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  dom.cookieJar.removeAllCookiesSync();
  dom.reconfigure({ url: "http://localhost:3000/" });
});

describe.each([
  { scheme: "https", url: "https://console.example.edu/login", secure: true },
  { scheme: "http", url: "http://192.168.1.20:8080/login", secure: false },
])("cookies of a console served over $scheme", ({ url, secure }) => {
  beforeEach(() => dom.reconfigure({ url }));

  it(`stores every session cookie of a login ${secure ? "" : "not "}Secure, and keeps them`, async () => {
    answerLogin();
    expect(await login({ username: "svc", password: "demo1234", redirect: "/" })).toMatchObject({ success: true });
    const stored = storedCookies();
    // kept: the login holds over reloads
    expect(Cookies.get("token")).toBe("t-secure");
    expect(stored.map((c) => c.name).sort()).toEqual([...SESSION_COOKIES].sort());
    expect(stored.filter((c) => c.secure !== secure)).toEqual([]);
  });

  it(`stores the preferences ${secure ? "" : "not "}Secure too, the payer page's language included`, () => {
    for (const name of PREFERENCE_COOKIES) setCookie(name, "x");
    rememberH5Language("en");
    const stored = storedCookies();
    expect(stored.map((c) => c.name).sort()).toEqual([...PREFERENCE_COOKIES].sort());
    expect(Cookies.get("language")).toBe("en");
    expect(stored.filter((c) => c.secure !== secure)).toEqual([]);
  });
});

describe("reading the cookies", () => {
  afterEach(() => dom.cookieJar.removeAllCookiesSync());

  it("answers what the page holds now, whoever set it: the console, another tab, the server", () => {
    setCookie("token", "first");
    expect(getCookie("token")).toBe("first");
    expect(getCookie("language")).toBe("");
    // written past the console's own functions, as another tab or a server's answer writes it
    document.cookie = "token=second; path=/";
    document.cookie = "language=es; path=/";
    expect(getCookie("token")).toBe("second");
    expect(getCookie("language")).toBe("es");
    removeCookie("token");
    expect(getCookie("token")).toBe("");
  });
});
