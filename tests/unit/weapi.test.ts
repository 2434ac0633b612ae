import Cookies from "js-cookie";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { registerFeedback, type ConfirmOptions, type Feedback } from "../../providers/feedback";
import { changeLanguage, i18nReady } from "../../providers/i18n";
import { sessionUser, setSessionUser } from "../../providers/session";
import { page, REQUEST_TIMEOUT_MS, weapi, weapiGeneral, weapiV3, WeapiError } from "../../providers/weapi";

// only the network layer is replaced: fetch answers what a server would
const fetchMock = vi.fn<typeof fetch>();
const toasts: { text: string; duration?: number }[] = [];
const confirms: ConfirmOptions[] = [];
const testFeedback: Feedback = {
  error: (text, duration) => void toasts.push({ text, duration }),
  warning: (text, duration) => void toasts.push({ text, duration }),
  success: (text, duration) => void toasts.push({ text, duration }),
  confirm: (o) => void confirms.push(o),
};

function answer(body: unknown, status = 200) {
  fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));
}

function sentRequest(call = 0): { url: string; init: RequestInit; body: Record<string, unknown> } {
  const [url, init] = fetchMock.mock.calls[call] as [string, RequestInit];
  return { url, init, body: JSON.parse(String(init.body)) as Record<string, unknown> };
}

let unregister: () => void;
beforeAll(async () => {
  await i18nReady;
  await changeLanguage("zh");
});
beforeEach(() => {
  vi.stubGlobal("fetch", fetchMock);
  unregister = registerFeedback(testFeedback);
  toasts.length = 0;
  confirms.length = 0;
  Cookies.set("token", "tok-123");
  Cookies.set("select_sysid", "7");
});
afterEach(() => {
  unregister();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
  Object.keys(Cookies.get()).forEach((name) => Cookies.remove(name));
});

describe("weapi client (spec 7, 8)", () => {
  it("posts JSON with the method, credentials and the X-Token header", async () => {
    answer({ return_code: "SUCCESS", return_msg: "ok", data: { items: { id: 1 } } });
    const res = await weapi<{ items: { id: number } }>("adminapiv2", "serviceinfo", { id: 1 });
    expect(res.data?.items.id).toBe(1);
    const { url, init, body } = sentRequest();
    expect(url).toBe("/weapi/adminapiv2");
    expect(init.method).toBe("POST");
    expect(init.credentials).toBe("include");
    expect((init.headers as Record<string, string>)["X-Token"]).toBe("tok-123");
    expect(body).toEqual({ id: 1, method: "serviceinfo" });
    expect(toasts).toEqual([]);
  });

  it("sends no X-Token without a token", async () => {
    Cookies.remove("token");
    answer({ return_code: "SUCCESS", return_msg: "" });
    await weapi("adminapiv2", "getwebsetinfo");
    expect((sentRequest().init.headers as Record<string, string>)["X-Token"]).toBeUndefined();
  });

  it("returns FAIL to the caller as is, after a 5 s error toast", async () => {
    const fail = { return_code: "FAIL", return_msg: "用户名或密码错误" };
    answer(fail);
    await expect(weapi("adminapi", "login", { username: "a", password: "b" })).resolves.toEqual(fail);
    expect(toasts).toEqual([{ text: "用户名或密码错误", duration: 5 }]);
  });

  it("falls back to 系统错误 when return_msg is empty, and stays quiet when silent", async () => {
    answer({ return_code: "FAIL", return_msg: "" });
    await weapi("adminapiv2", "getsysinfo");
    expect(toasts).toEqual([{ text: "系统错误", duration: 5 }]);
    answer({ return_code: "FAIL", return_msg: "x" });
    await weapi("adminapiv2", "getsysinfo", {}, { silent: true });
    expect(toasts).toHaveLength(1);
  });

  it.each(["token_error", "TOKEN_ERROR"])("%s resets the token and reloads after 1500 ms", async (code) => {
    vi.useFakeTimers();
    const reload = vi.spyOn(page, "reload").mockImplementation(() => {});
    setSessionUser({ roles: ["systemv2"], name: "n", avatar: "", introduction: "", username: "u", user_type: "system" });
    answer({ return_code: code, return_msg: "登录已失效" });
    await expect(weapi("adminapi", "getuserinfo")).rejects.toBeInstanceOf(WeapiError);
    expect(Cookies.get("token")).toBeUndefined();
    expect(sessionUser()).toBeNull();
    expect(toasts[0].text).toBe("登录已失效");
    vi.advanceTimersByTime(1499);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("rejects other codes with the message", async () => {
    answer({ return_code: "ERROR", return_msg: "" });
    await expect(weapi("adminapiv2", "x")).rejects.toThrow("系统错误");
  });

  it.each(["50008", "50012", "50014"])("legacy %s asks to log in again; confirming resets and reloads", async (code) => {
    const reload = vi.spyOn(page, "reload").mockImplementation(() => {});
    answer({ return_code: code, return_msg: "Token expired" });
    await expect(weapi("adminapiv2", "x")).rejects.toBeInstanceOf(WeapiError);
    expect(confirms).toHaveLength(1);
    expect(confirms[0].content).toContain("你已被登出");
    expect(confirms[0].okText).toBe("重新登录");
    expect(confirms[0].cancelText).toBe("取消");
    expect(Cookies.get("token")).toBe("tok-123");
    confirms[0].onOk();
    expect(Cookies.get("token")).toBeUndefined();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("answers a transport failure with a 5 s 网络错误 toast and a rejection", async () => {
    fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    const err = await weapi("adminapiv2", "x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WeapiError);
    expect((err as WeapiError).isTransport).toBe(true);
    expect(toasts).toEqual([{ text: "网络错误", duration: 5 }]);
  });

  it("gives up after 600000 ms", async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementationOnce(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        }),
    );
    let settled: unknown = "pending";
    const call = weapi("adminapiv2", "slow").catch((e: unknown) => (settled = e));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(settled).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(settled).toBeInstanceOf(WeapiError);
    expect(REQUEST_TIMEOUT_MS).toBe(600000);
  });

  it("general helper posts the caller payload to adminapiv2; v3 helper adds sysid from the cookie", async () => {
    answer({ return_code: "SUCCESS", return_msg: "" });
    answer({ return_code: "SUCCESS", return_msg: "" });
    await weapiGeneral({ method: "getsetmeal", sch_id: 3 });
    await weapiV3("payapi", { method: "get_sysdelay_pay" });
    expect(sentRequest(0)).toMatchObject({ url: "/weapi/adminapiv2", body: { method: "getsetmeal", sch_id: 3 } });
    expect(sentRequest(1)).toMatchObject({ url: "/weapi/payapi", body: { method: "get_sysdelay_pay", sysid: "7" } });
  });
});
