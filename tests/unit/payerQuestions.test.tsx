/**
 * The payer page's questions (src/h5/Questions.tsx in App.tsx) in jsdom: the chosen bills' activity form asked
 * before paying, what was answered before offered again, a required question left blank refused under it without
 * a call, the answers sent with h5pay, a refusal of the server shown under its question, the answers kept through
 * a remount (sessionStorage), and the after-payment actions on the result page. Only fetch is fake.
 */
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { App } from "../../src/h5/App";
import { clearCookies, fakeWeapi, setCookies } from "../helpers/weapiFetch";

vi.mock("../../src/h5/QrImage", () => ({
  default: ({ value }: { value: string }) => <div data-testid="h5-qr-image" data-value={value} />,
}));

type Body = Record<string, unknown>;
const ok = (items: unknown) => ({ return_code: "SUCCESS", return_msg: "ok", data: { items } });

const form = {
  form_id: 5,
  title: "Term details",
  intro: "Please answer before paying",
  questions: [
    { id: 51, label: "Going home", kind: "choice", options: ["Picked up", "School bus"], required: true },
    { id: 52, label: "Allergies", kind: "text", options: [], required: true },
    { id: 53, label: "Clubs", kind: "multi", options: ["Chess", "Choir"], required: false },
  ],
  answers: { 52: "none" },
};
const found = {
  ticket: "T-1",
  student: { name: "Z*g", class_title: "Grade 3 (2)" },
  bills: [
    { id: 11, activity_title: "Spring term fees", items: [], amount: "155.50", status: "unpaid", form },
    { id: 12, activity_title: "Uniform", items: [], amount: "80.00", status: "unpaid", form: null },
  ],
};
const order = { orderid: "9", pay_no: "P20261125000001", total_fee: "155.50", payparam: { code_url: "http://127.0.0.1:8080/pay/sandbox/P20261125000001" }, sandbox: true };
const receipt = {
  school_title: "Sunrise No.1 Primary School",
  student: { name: "Z*g", class_title: "Grade 3 (2)" },
  items: [{ title: "Spring term fees", amount: "155.50" }],
  amount: "155.50",
  paid_at: "2026-11-25T09:02:11.000Z",
  transaction_id: "4200001234202611250000000001",
  receipt_no: null,
  actions: [
    { id: 1, kind: "link", title: "Parents' group", text: "Join your class's group", url: "https://sunrise.example.com/group", image: null },
    { id: 2, kind: "group_qr", title: "Class group", text: "", url: null, image: "https://img.example.com/qr.png" },
    { id: 3, kind: "link", title: "Sneaky", text: "", url: "javascript:alert(1)", image: null },
  ],
};

function payerServer(payAnswer: (body: Body) => unknown = () => ok(order)) {
  return fakeWeapi((body: Body) => {
    switch (body.method) {
      case "h5entry":
        return ok({ school_title: "Sunrise No.1 Primary School", activities: [], lookup: "name_and_student_no" });
      case "h5find":
        return ok(found);
      case "h5pay":
        return payAnswer(body);
      case "h5checkpay":
        return ok({ pay_no: order.pay_no, status: "paid" });
      case "h5receipt":
        return ok(receipt);
      default:
        return { return_code: "FAIL", return_msg: "unexpected", data: null };
    }
  });
}

async function flush(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) {
    await act(async () => {
      await Promise.resolve();
    });
  }
}

async function findBills(): Promise<void> {
  await flush();
  fireEvent.change(screen.getByTestId("h5-find-name"), { target: { value: "Zhang" } });
  fireEvent.change(screen.getByTestId("h5-find-student-no"), { target: { value: "20260001" } });
  fireEvent.click(screen.getByTestId("h5-find-submit"));
  await flush();
}

beforeEach(() => {
  window.scrollTo = () => undefined;
  clearCookies();
  window.sessionStorage.clear();
  setCookies({ language: "en" });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it("asks the chosen bills' questions before paying, with the earlier answers, and only while such a bill is chosen", async () => {
  payerServer();
  render(<App code="abc" />);
  await findBills();
  expect(screen.getByTestId("h5-questions").textContent).toContain("Term details");
  expect((screen.getByTestId("h5-answer-52") as HTMLInputElement).value).toBe("none");
  // the uniform alone asks nothing
  fireEvent.click(screen.getByTestId("h5-bill-check-11"));
  expect(screen.queryByTestId("h5-questions")).toBeNull();
  fireEvent.click(screen.getByTestId("h5-bill-check-11"));
  expect(screen.getByTestId("h5-questions")).toBeTruthy();
});

it("refuses a required question left blank under it without calling, then sends every answer with h5pay", async () => {
  const api = payerServer();
  render(<App code="abc" />);
  await findBills();
  fireEvent.change(screen.getByTestId("h5-answer-52"), { target: { value: "" } });
  fireEvent.click(screen.getByTestId("h5-pay"));
  expect(screen.getByTestId("h5-question-error-51").textContent).toBe("Please answer this question.");
  expect(screen.getByTestId("h5-question-error-52").textContent).toBe("Please answer this question.");
  expect(api.of("h5pay")).toHaveLength(0);

  fireEvent.click(screen.getByTestId("h5-answer-51-1"));
  fireEvent.change(screen.getByTestId("h5-answer-52"), { target: { value: " peanuts " } });
  fireEvent.click(screen.getByTestId("h5-answer-53-1"));
  fireEvent.click(screen.getByTestId("h5-answer-53-0"));
  expect(screen.queryByTestId("h5-question-error-51")).toBeNull();
  fireEvent.click(screen.getByTestId("h5-pay"));
  await flush();
  expect(api.of("h5pay")[0].body).toEqual({
    method: "h5pay",
    ticket: "T-1",
    bill_ids: [11, 12],
    answers: [
      { question_id: 51, value: "School bus" },
      { question_id: 52, value: "peanuts" },
      { question_id: 53, value: ["Chess", "Choir"] },
    ],
  });
  expect(api.of("h5pay")).toHaveLength(1);
});

it("shows the server's refusal of an answer under its question, and keeps the answers through a reload", async () => {
  const api = payerServer(() => ({ return_code: "FAIL", return_msg: '"Going home": choose one of the options.', data: { errors: [{ field: "answers.51", question_id: 51, message: "x" }] } }));
  render(<App code="abc" />);
  await findBills();
  fireEvent.click(screen.getByTestId("h5-answer-51-0"));
  fireEvent.click(screen.getByTestId("h5-pay"));
  await flush();
  expect(api.of("h5pay")).toHaveLength(1);
  expect(screen.getByTestId("h5-question-error-51").textContent).toBe('"Going home": choose one of the options.');
  expect(screen.queryByTestId("h5-pay-error")).toBeNull();

  cleanup();
  render(<App code="abc" />);
  await flush();
  expect((screen.getByTestId("h5-answer-51-0") as HTMLInputElement).checked).toBe(true);
  expect((screen.getByTestId("h5-answer-52") as HTMLInputElement).value).toBe("none");
});

it("offers the after-payment actions on the result page: a link button and a group QR code, web addresses only", async () => {
  payerServer();
  render(<App code="abc" />);
  await findBills();
  fireEvent.click(screen.getByTestId("h5-answer-51-0"));
  fireEvent.click(screen.getByTestId("h5-pay"));
  await flush();
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
  await flush();
  expect(await screen.findByTestId("h5-paid", {}, { timeout: 4000 })).toBeTruthy();
  await screen.findByTestId("h5-after-pay");
  expect(screen.getByTestId("h5-after-pay-link").getAttribute("href")).toBe("https://sunrise.example.com/group");
  expect(screen.getByTestId("h5-after-pay-qr").getAttribute("src")).toBe("https://img.example.com/qr.png");
  expect(screen.getByTestId("h5-after-pay").textContent).toContain("Long-press the QR code to join the group.");
  expect(screen.queryByTestId("h5-after-pay-3")).toBeNull();
});
