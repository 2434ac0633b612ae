/**
 * Provider renewal dialog (spec 4.4, 5, 8): yearly price, QR mode polled every 3000 ms and on Finish payment,
 * activation-code mode with its validation and double-click guard, the fall to code mode, and logout.
 * Only fetch is fake; time is fake.
 */
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { changeLanguage } from "../../providers/i18n";
import ProviderRenewDialog, { PROVIDER_POLL_MS } from "../../src/shell/renewal/ProviderRenewDialog";
import { advance, renderDialog } from "../helpers/renderDialog";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

const payInfo = {
  return_code: "SUCCESS",
  return_msg: "",
  data: {
    items: { orderid: "S202611230001", pay_no: "SP0001", total_fee: "1200.00", payparam: { code_url: "http://127.0.0.1/pay/sandbox/SP0001" } },
    qrcode: "http://127.0.0.1/pay/sandbox/SP0001",
  },
};

interface ProviderServerOptions {
  paid?: { value: boolean };
  payAnswer?: unknown;
}

function providerServer({ paid = { value: false }, payAnswer = payInfo }: ProviderServerOptions = {}) {
  return fakeWeapi((body) => {
    switch (body.method) {
      case "get_sysdelay_pay":
        return payAnswer;
      case "checkpay":
        return paid.value ? { return_code: "SUCCESS", return_msg: "Paid, valid until 2027-12-01" } : { return_code: "FAIL", return_msg: "Not paid yet" };
      case "delay_foractcode":
        return { return_code: "FAIL", return_msg: "This activation code has expired" };
      case "logout":
        return { return_code: "SUCCESS", return_msg: "" };
      default:
        return { return_code: "FAIL", return_msg: `unexpected ${String(body.method)}` };
    }
  });
}

function Harness({ onRenewed = () => {} }: { onRenewed?: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <output data-testid="provider-open">{String(open)}</output>
      <button type="button" data-testid="reopen" onClick={() => setOpen(true)} />
      <ProviderRenewDialog open={open} onClose={() => setOpen(false)} onRenewed={onRenewed} sysid="5" />
    </>
  );
}

function isOpen(testId: string): boolean {
  const wrap = document.querySelector<HTMLElement>(`[data-testid="${testId}"] .ant-modal-wrap`);
  return Boolean(wrap && wrap.style.display !== "none");
}

beforeEach(async () => {
  await changeLanguage("en");
  vi.useFakeTimers();
  clearCookies();
  setCookies({ token: "tok", select_user_type: "service", login_user_type: "service", select_sysid: "5", servicer_ver: "v2" });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("provider renewal: QR mode", () => {
  it("opens in QR mode with the yearly price and the QR code of the provider's order", async () => {
    const server = providerServer();
    renderDialog(<Harness />);
    await advance(0);
    expect(server.of("get_sysdelay_pay").map((c) => c.body)).toEqual([{ method: "get_sysdelay_pay", sysid: "5" }]);
    expect(screen.getByText("¥1200.00/year")).toBeTruthy();
    const qr = screen.getByTestId("provider-renew-qr");
    expect(qr.getAttribute("data-code-url")).toBe("http://127.0.0.1/pay/sandbox/SP0001");
    expect(qr.querySelector("svg")?.getAttribute("height")).toBe("200");
  });

  it("checks the payment every 3000 ms until paid; then closes, shows the message and stops", async () => {
    const paid = { value: false };
    const server = providerServer({ paid });
    const onRenewed = vi.fn();
    const { toasts } = renderDialog(<Harness onRenewed={onRenewed} />);
    await advance(0);
    expect(PROVIDER_POLL_MS).toBe(3000);
    await advance(2999);
    expect(server.of("checkpay")).toHaveLength(0);
    await advance(1);
    expect(server.of("checkpay").map((c) => c.body)).toEqual([{ method: "checkpay", pay_no: "SP0001" }]);
    await advance(3000);
    expect(server.of("checkpay")).toHaveLength(2);
    expect(toasts.errors).toEqual([]);
    paid.value = true;
    await advance(3000);
    expect(screen.getByTestId("provider-open").textContent).toBe("false");
    expect(screen.getByTestId("pay-result-message").textContent).toBe("Paid, valid until 2027-12-01");
    expect(isOpen("pay-result-dialog")).toBe(true);
    expect(onRenewed).toHaveBeenCalledTimes(1);
    await advance(9000);
    expect(server.of("checkpay")).toHaveLength(3);
  });

  it("Finish payment checks at once; unpaid shows the message in the result dialog and polling goes on", async () => {
    const server = providerServer();
    renderDialog(<Harness />);
    await advance(0);
    fireEvent.click(screen.getByTestId("provider-renew-finish"));
    await advance(0);
    expect(server.of("checkpay")).toHaveLength(1);
    expect(screen.getByTestId("pay-result-message").textContent).toBe("Not paid yet");
    expect(screen.getByTestId("provider-open").textContent).toBe("true");
    await advance(3000);
    expect(server.of("checkpay")).toHaveLength(2);
  });

  it("choosing activation-code mode stops polling", async () => {
    const server = providerServer();
    renderDialog(<Harness />);
    await advance(0);
    await advance(3000);
    expect(server.of("checkpay")).toHaveLength(1);
    fireEvent.click(screen.getByTestId("provider-renew-mode-code"));
    await advance(0);
    expect(screen.getByTestId("provider-renew-code-input")).toBeTruthy();
    await advance(9000);
    expect(server.of("checkpay")).toHaveLength(1);
  });

  it("closing the dialog stops polling", async () => {
    const server = providerServer();
    renderDialog(<Harness />);
    await advance(0);
    await advance(3000);
    const close = document.querySelector<HTMLElement>('[data-testid="provider-renew-dialog"] .ant-modal-close');
    if (!close) throw new Error("no close icon");
    fireEvent.click(close);
    await advance(9000);
    expect(server.of("checkpay")).toHaveLength(1);
  });
});

describe("provider renewal: fall to activation code", () => {
  it("a FAIL from get_sysdelay_pay opens activation-code mode and never polls", async () => {
    const server = providerServer({ payAnswer: { return_code: "FAIL", return_msg: "No yearly fee is set for this provider" } });
    const { toasts } = renderDialog(<Harness />);
    await advance(0);
    expect(screen.getByTestId("provider-renew-code-input")).toBeTruthy();
    expect(screen.queryByTestId("provider-renew-qr")).toBeNull();
    expect(screen.getByText("No yearly fee is set for this provider")).toBeTruthy();
    expect(toasts.errors).toEqual([]);
    await advance(9000);
    expect(server.of("checkpay")).toHaveLength(0);
  });

  it("a result_code other than SUCCESS shows result_msg and falls to activation code", async () => {
    const server = providerServer({ payAnswer: { ...payInfo, result_code: "FAIL", result_msg: "Payments are closed for maintenance" } });
    renderDialog(<Harness />);
    await advance(0);
    expect(screen.getByText("Payments are closed for maintenance")).toBeTruthy();
    expect(screen.getByTestId("provider-renew-code-input")).toBeTruthy();
    await advance(9000);
    expect(server.of("checkpay")).toHaveLength(0);
  });
});

describe("provider renewal: activation code", () => {
  async function codeMode() {
    await advance(0);
    fireEvent.click(screen.getByTestId("provider-renew-mode-code"));
    await advance(0);
  }

  it("an empty code shows 请填写激活码 and 请完善信息！ and sends nothing", async () => {
    await changeLanguage("zh");
    const server = providerServer();
    const { toasts } = renderDialog(<Harness />);
    await codeMode();
    fireEvent.click(screen.getByTestId("provider-renew-submit"));
    await advance(0);
    expect(screen.getByText("请填写激活码")).toBeTruthy();
    expect(toasts.errors).toEqual(["请完善信息！"]);
    expect(server.of("delay_foractcode")).toHaveLength(0);
  });

  it("sends the code once however fast the button is clicked again; a refusal shows return_msg as an error", async () => {
    const server = providerServer();
    const { toasts } = renderDialog(<Harness />);
    await codeMode();
    fireEvent.change(screen.getByTestId("provider-renew-code-input"), { target: { value: "ABCD-EFGH-JKMN-PQRS-TVWX" } });
    const submit = screen.getByTestId("provider-renew-submit");
    fireEvent.click(submit);
    fireEvent.click(submit);
    await advance(0);
    fireEvent.click(submit);
    await advance(0);
    expect(server.of("delay_foractcode").map((c) => c.body)).toEqual([{ method: "delay_foractcode", sysid: "5", act_code: "ABCD-EFGH-JKMN-PQRS-TVWX" }]);
    expect(toasts.errors).toEqual(["This activation code has expired"]);
    expect(screen.getByTestId("provider-open").textContent).toBe("true");
    await advance(3000);
    fireEvent.click(submit);
    await advance(0);
    expect(server.of("delay_foractcode")).toHaveLength(2);
  });

  it("a redeemed code closes the dialog and shows the success message", async () => {
    const server = fakeWeapi((body) =>
      body.method === "delay_foractcode"
        ? { return_code: "SUCCESS", return_msg: "renewed until 2028-01-31" }
        : { return_code: "FAIL", return_msg: "No yearly fee is set for this provider" },
    );
    const onRenewed = vi.fn();
    renderDialog(<Harness onRenewed={onRenewed} />);
    await advance(0);
    fireEvent.change(screen.getByTestId("provider-renew-code-input"), { target: { value: "ABCD-EFGH-JKMN-PQRS-TVWX" } });
    fireEvent.click(screen.getByTestId("provider-renew-submit"));
    await advance(0);
    expect(server.of("delay_foractcode")).toHaveLength(1);
    expect(screen.getByTestId("provider-open").textContent).toBe("false");
    expect(screen.getByTestId("pay-result-message").textContent).toBe("renewed until 2028-01-31");
    expect(onRenewed).toHaveBeenCalledTimes(1);
  });
});

describe("provider renewal: logout", () => {
  it("the logout link logs out", async () => {
    const server = providerServer();
    renderDialog(<Harness />);
    await advance(0);
    fireEvent.click(screen.getByTestId("provider-renew-logout"));
    await advance(0);
    expect(server.of("logout")).toHaveLength(1);
  });
});
