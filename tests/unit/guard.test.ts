import Cookies from "js-cookie";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadUser, login, safeRedirect, USERINFO_NO_DATA, USERINFO_NO_ROLES } from "../../providers/authProvider";
import { registerFeedback } from "../../providers/feedback";
import { guardDecision, isPublicPath, loadUserOrLogin } from "../../providers/guard";
import { sessionUser, setSessionUser } from "../../providers/session";

const fetchMock = vi.fn<typeof fetch>();
const toasts: string[] = [];
let unregister: () => void;

function answer(body: unknown) {
  fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } }));
}

beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  unregister = registerFeedback({
    error: (t) => void toasts.push(t),
    warning: (t) => void toasts.push(t),
    success: (t) => void toasts.push(t),
    confirm: () => {},
  });
  toasts.length = 0;
});
afterEach(() => {
  unregister();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  setSessionUser(null);
  Object.keys(Cookies.get()).forEach((name) => Cookies.remove(name));
});

describe("navigation guard decisions (spec 2.1, 4.1)", () => {
  const decide = (pathname: string, hasToken: boolean, hasRoles = false, fullPath = pathname) =>
    guardDecision({ pathname, fullPath, hasToken, hasRoles });

  it("lets anyone reach the public routes", () => {
    for (const path of ["/login", "/loginv1", "/register", "/register/Zm9sbG93LXRoaXMtYXBwbGljYXRpb24", "/auth-redirect"]) {
      expect(isPublicPath(path)).toBe(true);
      expect(decide(path, false)).toEqual({ kind: "allow" });
    }
    expect(isPublicPath("/secservice")).toBe(false);
  });

  it("sends a visitor without a token to /login?redirect={path}", () => {
    expect(decide("/servicev2/servicelist", false, false, "/servicev2/servicelist?page=2")).toEqual({
      kind: "redirect",
      to: "/login?redirect=%2Fservicev2%2Fservicelist%3Fpage%3D2",
    });
  });

  it("sends a logged-in user on /login to /", () => {
    expect(decide("/login", true, true)).toEqual({ kind: "redirect", to: "/" });
  });

  it("loads the user when there is a token but no roles, then allows", () => {
    expect(decide("/Dashboard/Dashboard", true, false)).toEqual({ kind: "load-user" });
    expect(decide("/Dashboard/Dashboard", true, true)).toEqual({ kind: "allow" });
  });

  it("follows only same-site redirects after login", () => {
    expect(safeRedirect("/servicev2/servicelist")).toBe("/servicev2/servicelist");
    expect(safeRedirect("//evil.example")).toBe("/");
    expect(safeRedirect("https://evil.example")).toBe("/");
    expect(safeRedirect(null)).toBe("/");
  });
});

describe("login and loading the user (spec 4.1, 5)", () => {
  it("trims the username, keeps the password as entered and stores the session cookies", async () => {
    answer({
      return_code: "SUCCESS",
      return_msg: "",
      data: {
        token: "t-1",
        items: {
          data: {
            user_type: "service", login_usertype: "service", username: "svc", name: "Li Wei", servicer_ver: "v2", sysid: "1", schid: "",
            is_superadmin: "N", is_show_fee: "Y", select_paymode: "N", xcx_upload: "Y", open_activity_mode: "1",
            service_name: "Sunrise Campus Services", service_end_time: "2026-12-03", kfurl: "https://kf.example",
          },
        },
      },
    });
    const result = await login({ username: "  svc ", password: " demo1234 ", redirect: "/Dashboard/Dashboard" });
    expect(JSON.parse(String((fetchMock.mock.calls[0][1] as RequestInit).body))).toEqual({ method: "login", username: "svc", password: " demo1234 " });
    expect(result).toEqual({ success: true, redirectTo: "/Dashboard/Dashboard" });
    expect(Cookies.get("token")).toBe("t-1");
    expect(Cookies.get("select_user_type")).toBe("service");
    expect(Cookies.get("select_sysid")).toBe("1");
    expect(Cookies.get("select_xcxupload")).toBe("Y");
    expect(Cookies.get("service_name")).toBe("Sunrise Campus Services");
    expect(Cookies.get("kfurl")).toBe("https://kf.example");
  });

  it("derives the role keys from the cookies after getuserinfo", async () => {
    Cookies.set("token", "t");
    Cookies.set("select_user_type", "service");
    Cookies.set("servicer_ver", "v2");
    Cookies.set("select_xcxupload", "Y");
    answer({ return_code: "SUCCESS", return_msg: "", data: { items: { roles: ["servicev2"], name: "Li Wei", avatar: "", introduction: "", username: "svc", user_type: "service" } } });
    const user = await loadUser();
    expect(user.roles).toEqual(["servicev2", "xcxuploadv2"]);
    expect(sessionUser()?.name).toBe("Li Wei");
  });

  it("fails with the spec messages when there is no data or no roles", async () => {
    answer({ return_code: "SUCCESS", return_msg: "", data: {} });
    await expect(loadUser()).rejects.toThrow(USERINFO_NO_DATA);
    answer({ return_code: "SUCCESS", return_msg: "", data: { items: { roles: [], name: "x" } } });
    await expect(loadUser()).rejects.toThrow(USERINFO_NO_ROLES);
    expect(USERINFO_NO_DATA).toBe("Verification failed, please Login again.");
    expect(USERINFO_NO_ROLES).toBe("getInfo: roles must be a non-null array!");
  });

  it("on failure logs out, shows the message and goes to login with a redirect", async () => {
    Cookies.set("token", "t");
    answer({ return_code: "SUCCESS", return_msg: "", data: { items: { roles: null } } });
    await expect(loadUserOrLogin("/schoolv2/schoollist")).resolves.toBe("/login?redirect=%2Fschoolv2%2Fschoollist");
    expect(Cookies.get("token")).toBeUndefined();
    expect(toasts).toEqual([USERINFO_NO_ROLES]);
  });

  it("shows 'Has Error' when the failure has no message", async () => {
    Cookies.set("token", "t");
    answer({ return_code: "FAIL", return_msg: "" });
    await loadUserOrLogin("/");
    expect(toasts.at(-1)).toBe("Has Error");
  });
});
