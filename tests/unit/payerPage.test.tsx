/**
 * The payer's pages (src/h5/) in jsdom: every FAIL's message shown as the server sent it, a retry after a network
 * fault, the lookup the school asks for, the chosen bills and their total, the order checked every 2 s (one call at
 * a time) until paid and for at most 10 minutes, the receipt, and what a remount (back, reload) finds in
 * sessionStorage. Only fetch is fake (and time, where the polling is counted).
 */
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { App, POLL_INTERVAL_MS, POLL_WINDOW_MS } from "../../src/h5/App";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

// the QR code's canvas is not jsdom's to draw
vi.mock("../../src/h5/QrImage", () => ({
  default: ({ value }: { value: string }) => <div data-testid="h5-qr-image" data-value={value} />,
}));

type Body = Record<string, unknown>;
const ok = (items: unknown) => ({ return_code: "SUCCESS", return_msg: "ok", data: { items } });
const fail = (message: string) => ({ return_code: "FAIL", return_msg: message, data: null });

const entry = { school_title: "Sunrise No.1 Primary School", activities: [{ id: 1, title: "Spring term fees", end_date: "2026-12-31" }], lookup: "name_and_student_no" };
const found = {
  ticket: "T-1",
  student: { name: "Z*g", class_title: "Grade 3 (2)" },
  bills: [
    { id: 11, activity_title: "Spring term fees", items: [{ title: "Tuition", amount: "120.00" }, { title: "Books", amount: "35.50" }], amount: "155.50", status: "unpaid" },
    { id: 12, activity_title: "Uniform", items: [{ title: "Uniform", amount: "80.00" }], amount: "80.00", status: "unpaid" },
    { id: 13, activity_title: "Autumn term fees", items: [], amount: "120.00", status: "paid" },
  ],
};
const order = { orderid: "9", pay_no: "P20261125000001", total_fee: "155.50", payparam: { code_url: "http://127.0.0.1:8080/pay/sandbox/P20261125000001" }, sandbox: true };
const receipt = {
  school_title: "Sunrise No.1 Primary School",
  student: { name: "Z*g", class_title: "Grade 3 (2)" },
  items: [{ title: "Tuition", amount: "120.00" }, { title: "Books", amount: "35.50" }],
  amount: "155.50",
  paid_at: "2026-11-25T09:02:11.000Z",
  transaction_id: "4200001234202611250000000001",
  receipt_no: null,
};

/** The payer API as the contract answers it; `paid.value` makes the order paid. */
function payerServer(options: { paid?: { value: boolean }; entryFails?: number; lookup?: string } = {}) {
  const paid = options.paid ?? { value: false };
  let entryFailures = options.entryFails ?? 0;
  const calls = fakeWeapi((body: Body) => {
    switch (body.method) {
      case "h5entry":
        if (entryFailures-- > 0) throw new TypeError("Failed to fetch");
        return body.code === "abc" ? ok({ ...entry, lookup: options.lookup ?? entry.lookup }) : fail("This QR code is not in use");
      case "h5find":
        return body.name === "Zhang" ? ok(found) : fail("No student matches these details");
      case "h5pay":
        return ok(order);
      case "h5checkpay":
        return ok({ pay_no: order.pay_no, status: paid.value ? "paid" : "unpaid" });
      case "h5receipt":
        return ok(receipt);
      default:
        return fail(`unexpected ${String(body.method)}`);
    }
  });
  return { ...calls, paid };
}

async function flush(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) {
    await act(async () => {
      await Promise.resolve();
    });
  }
}

/** Finds the student (without testing-library's waits, which fake timers would hold up). */
async function findBills(): Promise<void> {
  await flush();
  fireEvent.change(screen.getByTestId("h5-find-name"), { target: { value: "Zhang" } });
  fireEvent.change(screen.getByTestId("h5-find-student-no"), { target: { value: "20260001" } });
  fireEvent.click(screen.getByTestId("h5-find-submit"));
  await flush();
  screen.getByTestId("h5-bill-11");
}

beforeEach(() => {
  // jsdom has no scrolling to do when a step changes
  window.scrollTo = () => undefined;
  clearCookies();
  window.sessionStorage.clear();
  setCookies({ language: "en" });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("payer page: the school and the lookup", () => {
  it("shows the school and its open activities, and refuses an unknown code with the server's message", async () => {
    payerServer();
    render(<App code="abc" />);
    expect((await screen.findByTestId("h5-school-title")).textContent).toBe("Sunrise No.1 Primary School");
    expect(screen.getByTestId("h5-activity").textContent).toContain("Spring term fees");
    cleanup();
    render(<App code="nope" />);
    expect((await screen.findByTestId("h5-error")).textContent).toBe("This QR code is not in use");
    expect(screen.queryByTestId("h5-retry")).toBeNull();
  });

  it("offers a retry when the network fails", async () => {
    const api = payerServer({ entryFails: 1 });
    render(<App code="abc" />);
    expect((await screen.findByTestId("h5-error")).textContent).toContain("network");
    fireEvent.click(screen.getByTestId("h5-retry"));
    await screen.findByTestId("h5-find-submit");
    expect(api.of("h5entry")).toHaveLength(2);
  });

  it("asks for both fields, then shows the neutral message of a miss", async () => {
    const api = payerServer();
    render(<App code="abc" />);
    fireEvent.click(await screen.findByTestId("h5-find-submit"));
    expect(screen.getAllByText("Please fill in this field.")).toHaveLength(2);
    expect(api.of("h5find")).toHaveLength(0);
    fireEvent.change(screen.getByTestId("h5-find-name"), { target: { value: "Li" } });
    fireEvent.change(screen.getByTestId("h5-find-student-no"), { target: { value: "1" } });
    fireEvent.click(screen.getByTestId("h5-find-submit"));
    expect((await screen.findByTestId("h5-find-error")).textContent).toBe("No student matches these details");
    expect(api.of("h5find")[0].body).toEqual({ method: "h5find", code: "abc", name: "Li", student_no: "1" });
  });

  it("asks for the guardian phone's last four digits when the school looks students up so", async () => {
    const api = payerServer({ lookup: "name_and_phone4" });
    render(<App code="abc" />);
    fireEvent.change(await screen.findByTestId("h5-find-name"), { target: { value: "Zhang" } });
    expect(screen.queryByTestId("h5-find-student-no")).toBeNull();
    fireEvent.change(screen.getByTestId("h5-find-phone4"), { target: { value: "12a" } });
    fireEvent.click(screen.getByTestId("h5-find-submit"));
    expect(screen.getByText("Enter exactly four digits.")).toBeTruthy();
    fireEvent.change(screen.getByTestId("h5-find-phone4"), { target: { value: "1234" } });
    fireEvent.click(screen.getByTestId("h5-find-submit"));
    await screen.findByTestId("h5-bill-11");
    expect(api.of("h5find")[0].body).toEqual({ method: "h5find", code: "abc", name: "Zhang", phone4: "1234" });
  });

  it("speaks the language chosen on the page, and remembers it", async () => {
    payerServer();
    render(<App code="abc" />);
    await screen.findByTestId("h5-find-submit");
    fireEvent.click(screen.getByTestId("h5-lang-zh"));
    expect(screen.getByTestId("h5-find-submit").textContent).toBe("查询账单");
    expect(document.cookie).toContain("language=zh");
    fireEvent.click(screen.getByTestId("h5-lang-es"));
    expect(screen.getByTestId("h5-find-submit").textContent).toBe("Buscar recibos");
  });
});

describe("payer page: bills, payment and receipt", () => {
  // a phone abroad (Mexico City, UTC-6): the receipt's time is still China time, and says so
  const zoneBefore = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = "America/Mexico_City";
  });
  afterAll(() => {
    if (zoneBefore === undefined) delete process.env.TZ;
    else process.env.TZ = zoneBefore;
  });

  it("chooses the unpaid bills, totals them and pays the chosen ones", async () => {
    const api = payerServer();
    render(<App code="abc" />);
    await findBills();
    expect(screen.getByTestId("h5-total").textContent).toBe("¥235.50");
    expect((screen.getByTestId("h5-bill-check-13") as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId("h5-bill-check-12"));
    expect(screen.getByTestId("h5-total").textContent).toBe("¥155.50");
    fireEvent.click(screen.getByTestId("h5-pay"));
    await screen.findByTestId("h5-pay-no");
    expect(api.of("h5pay")[0].body).toEqual({ method: "h5pay", ticket: "T-1", bill_ids: [11] });
    // the sandbox's page opens on the phone; the QR code is for another phone
    // the sandbox's page sends the payer back to this page once paid
    expect(screen.getByTestId("h5-open-pay-page").getAttribute("href")).toBe(`${order.payparam.code_url}?return=%2Fh5%2Fabc`);
    expect((await screen.findByTestId("h5-qr-image")).getAttribute("data-value")).toBe(order.payparam.code_url);
    expect(screen.getByTestId("h5-sandbox-note")).toBeTruthy();
  });

  it("checks the order every 2 s, one call at a time, until it is paid, then shows the receipt; a remount keeps it", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const api = payerServer();
    render(<App code="abc" />);
    await flush();
    await findBills();
    fireEvent.click(screen.getByTestId("h5-bill-check-12"));
    fireEvent.click(screen.getByTestId("h5-pay"));
    await flush();
    expect(screen.getByTestId("h5-pay-no").textContent).toBe(order.pay_no);
    expect(api.of("h5checkpay")).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    });
    expect(api.of("h5checkpay")).toHaveLength(4);
    expect(api.of("h5checkpay")[0].body).toEqual({ method: "h5checkpay", ticket: "T-1", pay_no: order.pay_no });
    api.paid.value = true;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    });
    await flush();
    expect(screen.getByTestId("h5-paid")).toBeTruthy();
    expect(screen.getByTestId("h5-receipt-amount").textContent).toBe("¥155.50");
    expect(screen.getByTestId("h5-receipt-transaction").textContent).toBe(receipt.transaction_id);
    // paid at 09:02:11 UTC: 17:02:11 in China (03:02:11 on the phone's clock), the zone named after it
    const paidAt = screen.getByTestId("h5-receipt-paid-at").querySelector("time")!;
    expect(paidAt.textContent).toBe("2026-11-25 17:02:11");
    expect(paidAt.dataset.zone).toBe("UTC+8");
    expect(paidAt.getAttribute("title")).toBe("China time (UTC+8)");
    const checks = api.of("h5checkpay").length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 5);
    });
    expect(api.of("h5checkpay")).toHaveLength(checks);

    // back from the payment page, or a reload: the same tab's storage has the order and its receipt
    cleanup();
    render(<App code="abc" />);
    await flush();
    expect(screen.getByTestId("h5-receipt-amount").textContent).toBe("¥155.50");
    expect(api.of("h5find")).toHaveLength(1);
    expect(api.of("h5receipt")).toHaveLength(1);
    // the bill paid is no longer offered
    fireEvent.click(screen.getByTestId("h5-pay-more"));
    expect((screen.getByTestId("h5-bill-check-11") as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByTestId("h5-total").textContent).toBe("¥0.00");
  });

  it("stops checking 10 minutes after the order was made; checking again is one tap", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const api = payerServer();
    render(<App code="abc" />);
    await flush();
    await findBills();
    fireEvent.click(screen.getByTestId("h5-pay"));
    await flush();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(POLL_WINDOW_MS + POLL_INTERVAL_MS * 2);
    });
    const checks = api.of("h5checkpay").length;
    expect(checks).toBeGreaterThan(POLL_WINDOW_MS / POLL_INTERVAL_MS - 5);
    expect(checks).toBeLessThanOrEqual(POLL_WINDOW_MS / POLL_INTERVAL_MS + 1);
    expect(screen.getByTestId("h5-pay-status").textContent).toContain("10 minutes");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 10);
    });
    expect(api.of("h5checkpay")).toHaveLength(checks);
    api.paid.value = true;
    fireEvent.click(screen.getByTestId("h5-check-now"));
    await flush();
    expect(screen.getByTestId("h5-paid")).toBeTruthy();
  });
});

describe("payer page: a bill carrying goods", () => {
  const uniformBill = {
    id: 11,
    activity_title: "Uniform order",
    items: [{ title: "Summer uniform", amount: "128.00" }],
    amount: "128.00",
    status: "unpaid",
    goods: [
      {
        item_id: 7,
        title: "Summer uniform",
        goods_id: 3,
        goods_title: "夏季校服短袖套装",
        image: null,
        delivery: "both",
        skus: [
          { id: 31, spec_values: { 尺码: "130", 颜色: "藏青" }, stock: 4 },
          { id: 32, spec_values: { 尺码: "140", 颜色: "藏青" }, stock: 0 },
        ],
      },
    ],
  };
  const fulfilment = {
    delivery: "pickup",
    status: "undelivered",
    goods: [{ title: "夏季校服短袖套装", spec_values: { 尺码: "130", 颜色: "藏青" }, image: null, qty: 1 }],
    pickup_point: { title: "North Gate", address: "1 Sunrise Road" },
    pickup_code: "12345678",
    pickup_token: "opaque-token-of-the-order",
    express_code: null,
    tracking_no: null,
  };

  it("asks a size and how to receive it before paying, sends them with h5pay, and shows the pickup code on the receipt", async () => {
    const api = fakeWeapi((body: Body) => {
      switch (body.method) {
        case "h5entry":
          return ok(entry);
        case "h5find":
          return ok({ ...found, bills: [uniformBill] });
        case "h5pickuppoints":
          return ok([{ id: 5, title: "North Gate", address: "1 Sunrise Road", phone: null, opening_hours: null }]);
        case "h5pay":
          return ok(order);
        case "h5checkpay":
          return ok({ pay_no: order.pay_no, status: "paid" });
        case "h5receipt":
          return ok({ ...receipt, fulfilment });
        default:
          return fail(`unexpected ${String(body.method)}`);
      }
    });
    render(<App code="abc" />);
    await findBills();
    expect(screen.getByTestId("h5-goods")).toBeTruthy();
    // a sold-out size cannot be chosen
    expect((screen.getByRole("option", { name: /140/ }) as HTMLOptionElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId("h5-pay"));
    await flush();
    expect(screen.getByTestId("h5-goods-error").textContent).toBe("Choose a size of “Summer uniform”.");
    expect(api.of("h5pay")).toHaveLength(0);
    fireEvent.change(screen.getByTestId("h5-goods-size-7"), { target: { value: "31" } });
    fireEvent.click(screen.getByTestId("h5-goods-delivery-pickup"));
    await flush();
    fireEvent.click(screen.getByTestId("h5-goods-point-5"));
    fireEvent.click(screen.getByTestId("h5-pay"));
    await flush();
    expect(api.of("h5pay")[0].body).toEqual({ method: "h5pay", ticket: "T-1", bill_ids: [11], goods: [{ item_id: 7, sku_id: 31 }], delivery: "pickup", pickup_point_id: 5 });
    await screen.findByTestId("h5-fulfilment", {}, { timeout: 5000 });
    expect(screen.getByTestId("h5-goods-pickup-code").textContent).toBe("12345678");
    expect(screen.getAllByTestId("h5-qr-image").some((img) => img.getAttribute("data-value") === "opaque-token-of-the-order")).toBe(true);
  });
});

describe("payer page: inside WeChat", () => {
  const wechatEntry = { ...entry, wechat_oauth: { appid: "wx0001", authorize_url: "https://open.weixin.qq.com/connect/oauth2/authorize" } };
  const jsapiOrder = {
    ...order,
    sandbox: false,
    trade_type: "JSAPI",
    payparam: { appId: "wx0001", timeStamp: "1764061200", nonceStr: "N1", package: "prepay_id=wx201410272009395522657a690389285100", signType: "RSA", paySign: "S1" },
  };

  /** The payer API of a school that takes payments inside WeChat; h5pay answers JSAPI when given a token. */
  function wechatServer() {
    return fakeWeapi((body: Body) => {
      switch (body.method) {
        case "h5entry":
          return ok(wechatEntry);
        case "h5oauth":
          return body.oauth_code === "C1" ? ok({ wx_token: "W".repeat(43), expires_in: 7200 }) : fail("WeChat could not confirm who you are");
        case "h5find":
          return ok(found);
        case "h5pay":
          return ok(body.wx_token ? jsapiOrder : { ...order, sandbox: false, payparam: { code_url: "weixin://wxpay/bizpayurl?pr=abc" } });
        case "h5checkpay":
          return ok({ pay_no: order.pay_no, status: "unpaid" });
        default:
          return fail(`unexpected ${String(body.method)}`);
      }
    });
  }

  beforeEach(() => {
    vi.spyOn(navigator, "userAgent", "get").mockReturnValue("Mozilla/5.0 (Linux; Android 14) MicroMessenger/8.0.54 NetType/WIFI");
  });
  afterEach(() => {
    vi.restoreAllMocks();
    delete window.WeixinJSBridge;
    window.history.replaceState(null, "", "/");
  });

  it("trades the code WeChat's sign-in brought back, drops it from the address and pays on WeChat's sheet", async () => {
    const api = wechatServer();
    // back from WeChat's sign-in that this page started
    window.sessionStorage.setItem("h5:wx-state", "S1");
    window.history.replaceState(null, "", "/h5/abc?code=C1&state=S1");
    const sheets: unknown[] = [];
    const results = ["get_brand_wcpay_request:cancel", "get_brand_wcpay_request:ok"];
    window.WeixinJSBridge = {
      invoke: (_name, params, callback) => {
        sheets.push(params);
        callback({ err_msg: results.shift() });
      },
    };
    render(<App code="abc" />);
    await findBills();
    expect(api.of("h5oauth")[0].body).toEqual({ method: "h5oauth", code: "abc", oauth_code: "C1" });
    expect(window.location.search).toBe("");
    fireEvent.click(screen.getByTestId("h5-bill-check-12"));
    fireEvent.click(screen.getByTestId("h5-pay"));
    await flush();
    expect(api.of("h5pay")[0].body).toEqual({ method: "h5pay", ticket: "T-1", bill_ids: [11], wx_token: "W".repeat(43) });
    // the sheet opened by itself and was cancelled: the payer may open it again; no QR code on the way
    expect(sheets).toEqual([jsapiOrder.payparam]);
    expect(screen.getByTestId("h5-wechat-cancelled")).toBeTruthy();
    expect(screen.queryByTestId("h5-qr-image")).toBeNull();
    const checks = api.of("h5checkpay").length;
    fireEvent.click(screen.getByTestId("h5-wechat-pay"));
    await flush();
    expect(sheets).toHaveLength(2);
    // WeChat said paid: the order is asked about at once
    expect(api.of("h5checkpay").length).toBeGreaterThan(checks);
  });

  it("falls back to a QR code when WeChat's sheet cannot be opened", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const api = wechatServer();
    window.sessionStorage.setItem("h5:wx", JSON.stringify({ appid: "wx0001", token: "W".repeat(43), expiresAt: Date.now() + 3600_000 }));
    window.sessionStorage.setItem("h5:wx-state", "S1");
    render(<App code="abc" />);
    await findBills();
    expect(api.of("h5oauth")).toHaveLength(0);
    fireEvent.click(screen.getByTestId("h5-bill-check-12"));
    fireEvent.click(screen.getByTestId("h5-pay"));
    await flush();
    // no bridge came within its wait
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_000);
    });
    await flush();
    fireEvent.click(screen.getByTestId("h5-pay-by-qr"));
    await flush();
    fireEvent.click(screen.getByTestId("h5-pay"));
    await flush();
    expect(api.of("h5pay")[1].body).toEqual({ method: "h5pay", ticket: "T-1", bill_ids: [11] });
    vi.useRealTimers();
    expect((await screen.findByTestId("h5-qr-image")).getAttribute("data-value")).toBe("weixin://wxpay/bizpayurl?pr=abc");
  });
});
