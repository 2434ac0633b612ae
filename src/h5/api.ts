/**
 * The payer pages' calls: POST /weapi/h5api {method, ...payload}, answered with the envelope
 * {return_code: "SUCCESS" | "FAIL", return_msg, data}. No session: the ticket h5find answers stands for the
 * student found, in the payload of the calls after it.
 */

export interface Activity {
  id: number | string;
  title: string;
  end_date?: string | null;
}

export type Lookup = "name_and_student_no" | "name_and_phone4";

/** WeChat's sign-in the page goes through inside WeChat, to pay on WeChat's own payment sheet (wechat.ts). */
export interface WechatOAuth {
  appid: string;
  authorize_url: string;
}

export interface EntryInfo {
  school_title: string;
  activities: Activity[];
  lookup?: Lookup;
  wechat_oauth?: WechatOAuth | null;
}

export interface BillItem {
  title: string;
  amount: string;
}

export type QuestionKind = "text" | "choice" | "multi";

export interface Question {
  id: number | string;
  label: string;
  kind: QuestionKind;
  options: string[];
  required: boolean;
}

/** An answer as the page edits it: a text or a choice, or the options of a multiple choice. */
export type AnswerValue = string | string[];

/** The form a bill's activity asks the payer to answer before paying, with what the payer answered before. */
export interface BillForm {
  form_id: number | string;
  title: string;
  intro?: string;
  questions: Question[];
  answers?: Record<string, AnswerValue>;
}

export interface Bill {
  id: number | string;
  activity_title: string;
  items: BillItem[];
  amount: string;
  status: string;
  form?: BillForm | null;
}

export interface Student {
  name: string;
  class_title: string;
}

export interface FindResult {
  ticket: string;
  student: Student;
  bills: Bill[];
}

/** What WeChat's JS bridge takes to show its payment sheet, spelt as WeChat spells it. */
export interface JsapiPayParams {
  appId: string;
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: string;
  paySign: string;
}

export interface PayResult {
  orderid: number | string;
  pay_no: string;
  total_fee: string;
  /** JSAPI: paid on WeChat's sheet (payparam holds the bridge's parameters); otherwise by QR code (payparam.code_url) */
  trade_type?: "JSAPI" | "NATIVE";
  payparam: { code_url?: string } & Partial<JsapiPayParams>;
  sandbox?: boolean;
}

export type PayStatus = "unpaid" | "paid" | "closed";

export interface CheckResult {
  status: PayStatus;
}

export interface Receipt {
  school_title: string;
  student: Student;
  items: BillItem[];
  amount: string;
  paid_at: string;
  transaction_id: string;
  receipt_no?: string | null;
  actions?: AfterPayAction[];
}

/** What the result page offers once paid: a link, or a group's QR code image to join. */
export interface AfterPayAction {
  id: number | string;
  kind: "link" | "group_qr";
  title: string;
  text?: string;
  url?: string | null;
  image?: string | null;
}

export interface Operations {
  h5entry: [{ code: string }, EntryInfo];
  h5find: [{ code: string; name: string; student_no?: string; phone4?: string }, FindResult];
  h5oauth: [{ code: string; oauth_code: string }, { wx_token: string; expires_in: number }];
  h5pay: [{ ticket: string; bill_ids: (number | string)[]; answers?: { question_id: number | string; value: AnswerValue }[]; wx_token?: string }, PayResult];
  h5checkpay: [{ ticket: string; pay_no: string }, CheckResult];
  h5receipt: [{ ticket: string; pay_no: string }, Receipt];
}

/** The server answered FAIL: its message is for the payer. */
export class H5Failure extends Error {
  /** the question a refused answer is about: its message goes under it */
  questionId?: string;

  constructor(message: string, questionId?: string) {
    super(message);
    this.questionId = questionId;
    this.name = "H5Failure";
  }
}

/** No answer (offline, timeout, a proxy's error page): worth a retry. */
export class NetworkFailure extends Error {
  constructor() {
    super("network");
    this.name = "NetworkFailure";
  }
}

const TIMEOUT_MS = 15_000;

interface Envelope {
  return_code?: string;
  return_msg?: string;
  data?: { items?: unknown; errors?: { question_id?: number | string }[] } | null;
}

export async function h5call<M extends keyof Operations>(method: M, payload: Operations[M][0]): Promise<Operations[M][1]> {
  const controller = typeof AbortController === "undefined" ? undefined : new AbortController();
  const timer = controller ? setTimeout(() => controller.abort(), TIMEOUT_MS) : undefined;
  let envelope: Envelope;
  try {
    const response = await fetch("/weapi/h5api", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method, ...payload }),
      credentials: "same-origin",
      signal: controller?.signal,
    });
    // a refusal (too many requests) comes as an envelope too; anything else unreadable is a network fault
    envelope = (await response.json()) as Envelope;
    if (typeof envelope !== "object" || envelope === null || typeof envelope.return_code !== "string") throw new NetworkFailure();
  } catch (err) {
    throw err instanceof NetworkFailure ? err : new NetworkFailure();
  } finally {
    if (timer) clearTimeout(timer);
  }
  if (envelope.return_code !== "SUCCESS") {
    const questionId = Array.isArray(envelope.data?.errors) ? envelope.data.errors[0]?.question_id : undefined;
    throw new H5Failure(envelope.return_msg || "", questionId === undefined ? undefined : String(questionId));
  }
  return (envelope.data?.items ?? {}) as Operations[M][1];
}
