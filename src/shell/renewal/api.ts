/**
 * The renewal and payment operations (spec 7, contract of issue 3) as the dialogs and pages use them.
 * Money arrives as yuan strings.
 */
import { getCookie } from "../../../providers/session";
import { weapi, WeapiError, type Envelope, type WeapiOptions } from "../../../providers/weapi";

const PATH = "adminapiv2";

export interface MealPackage {
  id: number | string;
  title: string;
  fee: string;
  term_months: number;
}

/** A payment order waiting for the QR code to be scanned. */
export interface PayOrder {
  orderid: string;
  pay_no: string;
  total_fee: string;
  code_url: string;
  /** taken by the payment sandbox: a test payment, which the dialogs say plainly */
  sandbox: boolean;
}

interface OrderItems {
  orderid: string;
  pay_no: string;
  total_fee: string;
  payparam?: { code_url?: string };
  sandbox?: boolean;
}

/** The school a renewal is for: a school user's own, or the one a provider user chose. */
export interface SchoolRef {
  sch_id: string;
  sysid: string;
}

export function sessionSchool(): SchoolRef {
  return { sch_id: getCookie("select_schid"), sysid: getCookie("select_sysid") };
}

export function isSuccess(envelope: Envelope): boolean {
  return envelope.return_code === "SUCCESS";
}

/** The order of a SUCCESS answer of get_pay / get_sysdelay_pay, or null when it carries none. */
function orderOf(envelope: Envelope<{ items?: OrderItems; qrcode?: string }>): PayOrder | null {
  const items = envelope.data?.items;
  const codeUrl = items?.payparam?.code_url || envelope.data?.qrcode;
  if (!isSuccess(envelope) || !items || !codeUrl) return null;
  return { orderid: items.orderid, pay_no: items.pay_no, total_fee: items.total_fee, code_url: codeUrl, sandbox: items.sandbox === true };
}

export async function fetchMealPackages(): Promise<MealPackage[]> {
  const res = await weapi<{ items?: MealPackage[] }>(PATH, "getsetmeal");
  return isSuccess(res) ? (res.data?.items ?? []) : [];
}

/** get_pay: a school renewal order for a package; null when refused (the client showed why). */
export async function createSchoolOrder(mealId: MealPackage["id"], school: SchoolRef): Promise<PayOrder | null> {
  return orderOf(await weapi(PATH, "get_pay", { setmeal_id: mealId, ...school }));
}

export interface ProviderOrderAnswer {
  order: PayOrder | null;
  /** why there is no order (result_msg, else return_msg), shown in the dialog */
  notice?: string;
}

/** get_sysdelay_pay: a provider's one-year extension order; without a price it answers no order. */
export async function createProviderOrder(sysid: string): Promise<ProviderOrderAnswer> {
  const res = await weapi<{ items?: OrderItems; qrcode?: string }>(PATH, "get_sysdelay_pay", { sysid }, { silent: true });
  const refused = res.result_code !== undefined && res.result_code !== "SUCCESS";
  const order = refused ? null : orderOf(res);
  if (order) return { order };
  return { order: null, notice: (refused ? res.result_msg : undefined) || res.return_msg || undefined };
}

export interface CheckResult {
  paid: boolean;
  message: string;
}

/** checkpay, silent: the dialogs decide whether and where a failure is shown. */
export async function checkPayment(payNo: string): Promise<CheckResult> {
  try {
    const res = await weapi(PATH, "checkpay", { pay_no: payNo }, { silent: true });
    return { paid: isSuccess(res), message: res.return_msg };
  } catch (error) {
    return { paid: false, message: error instanceof WeapiError ? error.message : String(error) };
  }
}

/** renew / delay_foractcode: the server's message on SUCCESS, null on FAIL (the client showed the error). */
async function redeem(method: string, payload: Record<string, unknown>, options?: WeapiOptions): Promise<string | null> {
  const res = await weapi(PATH, method, payload, options);
  return isSuccess(res) ? res.return_msg : null;
}

export function renewSchoolWithCode(code: string, school: SchoolRef): Promise<string | null> {
  return redeem("renew", { code, ...school });
}

export function renewProviderWithCode(actCode: string, sysid: string): Promise<string | null> {
  return redeem("delay_foractcode", { sysid, act_code: actCode });
}

export interface NoticeUser {
  id: number | string;
  nickname: string;
  headurl: string;
}

export interface DailyReportSettings {
  users: NoticeUser[];
  authurl: string;
}

export async function fetchDailyReportSettings(sysid: string): Promise<DailyReportSettings | null> {
  const res = await weapi<{ daycount_notice_user?: NoticeUser[]; authurl?: string }>(PATH, "getdaycountnoticeset", { id: sysid });
  if (!isSuccess(res)) return null;
  return { users: res.data?.daycount_notice_user ?? [], authurl: res.data?.authurl ?? "" };
}

export async function unbindDailyReportUser(sysid: string, id: NoticeUser["id"]): Promise<boolean> {
  return isSuccess(await weapi(PATH, "daycountnoticeunbind", { sysid, id }));
}
