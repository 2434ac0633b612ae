/**
 * School renewal (spec 4.3, 5): quick renewal dialog, package payment with checkpay every second and its stop
 * conditions, and activation codes. Only fetch is fake; time is fake.
 */
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { changeLanguage } from "../../providers/i18n";
import QuickRenewDialog from "../../src/shell/renewal/QuickRenewDialog";
import { SCHOOL_POLL_MS } from "../../src/shell/renewal/PayDialog";
import { advance, renderDialog } from "../helpers/renderDialog";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const meals = [
  { id: 7, title: "One year", fee: "365.00", term_months: 12 },
  { id: 8, title: "Two years", fee: "680.00", term_months: 24 },
];
const order = { orderid: "R202611230001", pay_no: "P0001", total_fee: "365.00", payparam: { code_url: "http://127.0.0.1/pay/sandbox/P0001" } };

/** A server whose order becomes paid once `paid.value` is set. */
function schoolServer(paid = { value: false }) {
  return fakeWeapi((body) => {
    switch (body.method) {
      case "getsetmeal":
        return { return_code: "SUCCESS", return_msg: "", data: { items: meals } };
      case "get_pay":
        return { return_code: "SUCCESS", return_msg: "", data: { items: order } };
      case "checkpay":
        return paid.value
          ? { return_code: "SUCCESS", return_msg: "Paid, valid until 2027-12-01" }
          : { return_code: "FAIL", return_msg: "Not paid yet" };
      case "renew":
        return body.code === "GOOD-CODE"
          ? { return_code: "SUCCESS", return_msg: "renewed until 2027-06-30" }
          : { return_code: "FAIL", return_msg: "This activation code has been used" };
      default:
        return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
    }
  });
}

function Harness({ onRenewed, closable }: { onRenewed: () => void; closable?: boolean }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <output data-testid="renew-open">{String(open)}</output>
      <QuickRenewDialog open={open} onClose={() => setOpen(false)} onRenewed={onRenewed} closable={closable} />
    </>
  );
}

function isOpen(testId: string): boolean {
  // antd puts the test id on the modal's root, around the wrap it hides when closed
  const wrap = document.querySelector<HTMLElement>(`[data-testid="${testId}"] .ant-modal-wrap`);
  return Boolean(wrap && wrap.style.display !== "none");
}

async function buyFirstPackage() {
  await advance(0);
  fireEvent.click(screen.getByTestId("renew-buy-7"));
  await advance(0);
}

beforeAll(async () => {
  await changeLanguage("en");
});
beforeEach(() => {
  vi.useFakeTimers();
  clearCookies();
  setCookies({ token: "tok", select_user_type: "school", login_user_type: "school", select_schid: "31", select_sysid: "5", servicer_ver: "v2" });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

describe("quick renewal dialog: packages", () => {
  it("lists the packages with title, fee and a buy button; buying orders the package for the session's school", async () => {
    const server = schoolServer();
    renderDialog(<Harness onRenewed={() => {}} />);
    await advance(0);
    expect(screen.getByTestId("renew-dialog")).toBeTruthy();
    expect(screen.getByText("One year")).toBeTruthy();
    expect(screen.getByText("¥680.00")).toBeTruthy();
    await buyFirstPackage();
    expect(server.of("get_pay").map((c) => c.body)).toEqual([{ method: "get_pay", setmeal_id: 7, sch_id: "31", sysid: "5" }]);
    expect(screen.getByTestId("pay-orderid").textContent).toBe("R202611230001");
    expect(screen.getByTestId("pay-total").textContent).toBe("¥365.00");
    expect(screen.getByText("renewal package One year")).toBeTruthy();
    const qr = screen.getByTestId("pay-qr");
    expect(qr.getAttribute("data-code-url")).toBe(order.payparam.code_url);
    expect(qr.querySelector("svg")?.getAttribute("width")).toBe("200");
  });

  it("checks the payment every 1000 ms, silently, until paid; then closes both dialogs, shows the message and reloads", async () => {
    const paid = { value: false };
    const server = schoolServer(paid);
    const onRenewed = vi.fn();
    const { toasts } = renderDialog(<Harness onRenewed={onRenewed} />);
    await buyFirstPackage();
    expect(SCHOOL_POLL_MS).toBe(1000);
    await advance(999);
    expect(server.of("checkpay")).toHaveLength(0);
    await advance(1);
    expect(server.of("checkpay").map((c) => c.body)).toEqual([{ method: "checkpay", pay_no: "P0001" }]);
    await advance(2000);
    expect(server.of("checkpay")).toHaveLength(3);
    expect(toasts.errors).toEqual([]);
    expect(isOpen("pay-result-dialog")).toBe(false);

    paid.value = true;
    await advance(1000);
    expect(server.of("checkpay")).toHaveLength(4);
    expect(screen.getByTestId("pay-result-message").textContent).toBe("Paid, valid until 2027-12-01");
    expect(isOpen("pay-result-dialog")).toBe(true);
    expect(isOpen("pay-dialog")).toBe(false);
    expect(screen.getByTestId("renew-open").textContent).toBe("false");
    expect(onRenewed).toHaveBeenCalledTimes(1);
    await advance(5000);
    expect(server.of("checkpay")).toHaveLength(4);
  });

  it("closing the payment dialog stops polling", async () => {
    const server = schoolServer();
    renderDialog(<Harness onRenewed={() => {}} />);
    await buyFirstPackage();
    await advance(1000);
    expect(server.of("checkpay")).toHaveLength(1);
    const close = document.querySelector<HTMLElement>('[data-testid="pay-dialog"] .ant-modal-close');
    if (!close) throw new Error("no close icon");
    fireEvent.click(close);
    await advance(5000);
    expect(server.of("checkpay")).toHaveLength(1);
    expect(isOpen("pay-dialog")).toBe(false);
    expect(screen.getByTestId("renew-open").textContent).toBe("true");
  });

  it("Finish payment on an unpaid order shows the answer in the result dialog and stops polling", async () => {
    const server = schoolServer();
    const onRenewed = vi.fn();
    renderDialog(<Harness onRenewed={onRenewed} />);
    await buyFirstPackage();
    fireEvent.click(screen.getByTestId("pay-finish"));
    await advance(0);
    expect(server.of("checkpay")).toHaveLength(1);
    expect(screen.getByTestId("pay-result-message").textContent).toBe("Not paid yet");
    expect(isOpen("pay-result-dialog")).toBe(true);
    expect(isOpen("pay-dialog")).toBe(true);
    await advance(5000);
    expect(server.of("checkpay")).toHaveLength(1);
    expect(onRenewed).not.toHaveBeenCalled();
  });

  it("Finish payment on a paid order renews at once", async () => {
    const paid = { value: true };
    schoolServer(paid);
    const onRenewed = vi.fn();
    renderDialog(<Harness onRenewed={onRenewed} />);
    await buyFirstPackage();
    fireEvent.click(screen.getByTestId("pay-finish"));
    await advance(0);
    expect(screen.getByTestId("pay-result-message").textContent).toBe("Paid, valid until 2027-12-01");
    expect(onRenewed).toHaveBeenCalledTimes(1);
  });
});

describe("quick renewal dialog: activation code", () => {
  async function openCodeTab() {
    await advance(0);
    fireEvent.click(screen.getByTestId("renew-tab-code"));
    await advance(0);
  }

  it("an empty code shows 'please enter activation code' and sends nothing", async () => {
    const server = schoolServer();
    renderDialog(<Harness onRenewed={() => {}} />);
    await openCodeTab();
    fireEvent.click(screen.getByTestId("renew-code-submit"));
    await advance(0);
    expect(screen.getByText("please enter activation code")).toBeTruthy();
    expect(server.of("renew")).toHaveLength(0);
  });

  it("redeems a code for the session's school; success closes the dialog, shows the message and reloads", async () => {
    const server = schoolServer();
    const onRenewed = vi.fn();
    renderDialog(<Harness onRenewed={onRenewed} />);
    await openCodeTab();
    fireEvent.change(screen.getByTestId("renew-code-input"), { target: { value: " GOOD-CODE " } });
    fireEvent.click(screen.getByTestId("renew-code-submit"));
    await advance(0);
    expect(server.of("renew").map((c) => c.body)).toEqual([{ method: "renew", code: "GOOD-CODE", sch_id: "31", sysid: "5" }]);
    expect(screen.getByTestId("pay-result-message").textContent).toBe("renewed until 2027-06-30");
    expect(screen.getByTestId("renew-open").textContent).toBe("false");
    expect(onRenewed).toHaveBeenCalledTimes(1);
  });

  it("a refused code shows the server's message as an error and keeps the dialog open", async () => {
    schoolServer();
    const onRenewed = vi.fn();
    const { toasts } = renderDialog(<Harness onRenewed={onRenewed} />);
    await openCodeTab();
    fireEvent.change(screen.getByTestId("renew-code-input"), { target: { value: "USED-CODE" } });
    fireEvent.click(screen.getByTestId("renew-code-submit"));
    await advance(0);
    expect(toasts.errors).toEqual(["This activation code has been used"]);
    expect(screen.getByTestId("renew-open").textContent).toBe("true");
    expect(onRenewed).not.toHaveBeenCalled();
  });
});

describe("forced renewal", () => {
  it("has no close icon and cannot be closed with Escape", async () => {
    schoolServer();
    renderDialog(<Harness onRenewed={() => {}} closable={false} />);
    await advance(0);
    expect(document.querySelector('[data-testid="renew-dialog"] .ant-modal-close')).toBeNull();
    act(() => {
      fireEvent.keyDown(screen.getByTestId("renew-dialog"), { key: "Escape", keyCode: 27 });
    });
    await advance(0);
    expect(screen.getByTestId("renew-open").textContent).toBe("true");
  });
});
