/**
 * The payer pages' calls: POST /weapi/h5api {method, ...payload}, answered with the envelope
 * {return_code: "SUCCESS" | "FAIL", return_msg, data}. No session: the ticket h5find answers stands for the
 * student found, in the payload of the calls after it.
 */
import type { ShownDiyBlock } from "../../common/shopDiy";

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

/** A goods item a bill carries (a uniform): the payer chooses its size before paying. */
export interface BillGoods {
  /** the activity item naming the goods: the key of the size chosen */
  item_id: number;
  title: string;
  goods_id: number;
  goods_title: string;
  image: string | null;
  delivery: GoodsDelivery;
  skus: { id: number; spec_values: Record<string, string>; stock: number }[];
}

export interface Bill {
  id: number | string;
  activity_title: string;
  items: BillItem[];
  amount: string;
  status: string;
  form?: BillForm | null;
  /** the goods it carries (none for most bills) */
  goods?: BillGoods[];
}

/** How a paid order's goods reach the payer: the pickup code and QR token while they wait to be collected. */
export interface Fulfilment {
  delivery: Delivery;
  /** "undelivered", "delivered", "completed", or the order's payment state */
  status: string;
  goods: { title: string; spec_values: Record<string, string>; image: string | null; qty: number }[];
  pickup_point: { title: string; address: string } | null;
  pickup_code: string | null;
  pickup_token: string | null;
  express_code: string | null;
  tracking_no: string | null;
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
  /** its goods and how they reach the payer, when it carries any */
  fulfilment?: Fulfilment | null;
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
  h5pay: [
    {
      ticket: string;
      bill_ids: (number | string)[];
      answers?: { question_id: number | string; value: AnswerValue }[];
      wx_token?: string;
      goods?: { item_id: number; sku_id: number }[];
      delivery?: Delivery;
      pickup_point_id?: number;
      address?: ShopAddress;
    },
    PayResult,
  ];
  h5checkpay: [{ ticket: string; pay_no: string }, CheckResult];
  h5receipt: [{ ticket: string; pay_no: string }, Receipt];
  h5goodslist: [{ code: string; cate_id?: number }, GoodsListAnswer];
  h5goodsinfo: [{ code: string; id: number }, GoodsInfo];
  h5shoppage: [{ code: string; id: number }, ShopPage];
  h5pickuppoints: [{ code: string }, PickupPoint[]];
  h5shopfreight: [{ code: string; items: { sku_id: number; qty: number }[]; province?: string }, FreightQuote];
  h5shoporder: [ShopOrderRequest, ShopOrderMade];
  h5shoporders: [{ ticket: string }, ShopOrder[]];
  h5shoporderinfo: [{ ticket: string; id: number }, ShopOrder];
  h5shopordercancel: [{ ticket: string; id: number }, ShopOrder];
  h5tracesource: [{ code: string; trace_code: string }, TraceFacts];
  h5aftersaleadd: [{ ticket: string; order_id: number; item_id: number; way: AfterSaleWay; qty: number; amount: string; reason: string; description?: string; images?: string[] }, AfterSale];
  h5aftersalereturn: [{ ticket: string; id: number; express_code: string; tracking_no: string }, AfterSale];
  h5aftersalecancel: [{ ticket: string; id: number }, AfterSale];
  h5aftersales: [{ ticket: string }, AfterSale[]];
}

// ---------------------------------------------------------------------------------------------------------
// The school shop (server/domains/retail/shop.ts)

export type Delivery = "pickup" | "express";
/** how a goods item may reach the payer */
export type GoodsDelivery = Delivery | "both";

export interface GoodsCategory {
  id: number;
  title: string;
  parent_id: number | null;
}

export interface GoodsSummary {
  id: number;
  title: string;
  cate_id: number | null;
  /** its first image, or null */
  image: string | null;
  /** its SKUs' lowest price */
  price: string;
  /** its SKUs' stock in all */
  stock: number | null;
  delivery: GoodsDelivery;
}

/** The provider's shop as its parents see it (its shop settings): open, its ways of delivery, its phone. */
export interface ShopFace {
  open: boolean;
  pickup: boolean;
  express: boolean;
  service_phone: string | null;
  /** "contact us": the enterprise WeChat customer-service account chosen in qwkfset, its chat link; none when off */
  contact?: { name: string; url: string } | null;
  /** the provider's look of its shop (shopthemeset): its main colour and the shade pressed, its corners */
  theme?: { main: string; dark: string; style: "rounded" | "square" };
  /** today's banners at the top of the shop (bannerlist) */
  banners?: ShopBanner[];
  /** the shop's questions and answers (shophelp) */
  help?: { question: string; answer: string }[];
  /** the shop's home page (shopdiylist), shown above its goods, or none */
  home?: ShopPage | null;
}

/** A banner of the shop: its picture, and what tapping it opens */
export interface ShopBanner {
  title: string;
  image: string;
  link: { type: "none" } | { type: "goods"; id: number } | { type: "category"; id: number } | { type: "page"; id: number } | { type: "url"; url: string };
}

/** A DIY page of the shop (shopdiylist) with its blocks as the payer sees them. */
export interface ShopPage {
  id: number;
  title: string;
  blocks: ShownDiyBlock[];
}

export interface GoodsListAnswer {
  categories: GoodsCategory[];
  goods: GoodsSummary[];
  shop?: ShopFace;
}

export interface Sku {
  id: number;
  /** spec name -> value, e.g. {"尺码": "130", "颜色": "藏青"} */
  spec_values: Record<string, string>;
  price: string;
  stock: number;
  image: string | null;
}

export interface GoodsInfo {
  id: number;
  title: string;
  images: string[];
  /** HTML the server keeps to its allow-list */
  description: string;
  spec_names: string[];
  delivery: GoodsDelivery;
  price: string;
  skus: Sku[];
}

export interface PickupPoint {
  id: number;
  title: string;
  address: string;
  phone: string | null;
  opening_hours: string | null;
}

export interface ShopAddress {
  name: string;
  phone: string;
  /** GB/T 2260 code (common/provinces.ts): what the goods' express templates charge by */
  province?: string;
  detail: string;
}

/** h5shopfreight's answer: what the goods cost and sending them to the province, as the order would charge it */
export interface FreightQuote {
  goods_amount: string;
  freight: string;
  amount: string;
}

export interface ShopOrderRequest {
  ticket: string;
  items: { sku_id: number; qty: number }[];
  delivery: Delivery;
  pickup_point_id?: number;
  address?: ShopAddress;
}

/** h5shoporder's answer: h5pay's, with the shop order's id and number */
export interface ShopOrderMade extends PayResult {
  id: number;
  order_no: string;
}

export type ShopOrderStatus = "unpaid" | "undelivered" | "delivered" | "completed" | "cancelled";

export interface ShopOrderItem {
  id: number;
  title: string;
  spec_values: Record<string, string>;
  image: string | null;
  price: string;
  qty: number;
  amount: string;
  /** the garments' trace-source codes bound to the item (at packing or at pickup) */
  trace_codes?: string[];
}

/** A garment's public facts by its trace-source code (h5tracesource): nothing of an order or a student. */
export interface TraceFacts {
  code: string;
  goods_title: string;
  spec_values: Record<string, string> | null;
  image: string | null;
  batch_no: string;
  manufacturer: string | null;
  standard: string | null;
  fabric: string | null;
  report_url: string | null;
  voided: boolean;
}

export interface ShopOrder {
  id: number;
  order_no: string;
  pay_no: string;
  status: ShopOrderStatus;
  refund_status: "none" | "part" | "all";
  amount: string;
  /** of the amount, what sending it cost */
  freight: string;
  refunded_amount: string;
  delivery: Delivery;
  pickup_point: { id: number; title: string; address: string | null } | null;
  express_code: string | null;
  tracking_no: string | null;
  created_at: string;
  paid_at: string | null;
  items: ShopOrderItem[];
  /** h5shoporderinfo only, while a pickup order waits to be collected: the 8 digits and the QR code's token */
  pickup_code?: string | null;
  pickup_token?: string | null;
}

/** The server answered FAIL: its message is for the payer. */
export class H5Failure extends Error {
  /** the question a refused answer is about: its message goes under it */
  questionId?: string;
  /** the payload's field a refusal names (a shop order's address, its pickup point): its message goes under it */
  field?: string;

  constructor(message: string, questionId?: string, field?: string) {
    super(message);
    this.questionId = questionId;
    this.field = field;
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
  data?: { items?: unknown; errors?: { question_id?: number | string; field?: string }[] } | null;
}

/** The envelope a POST is answered with; anything unreadable, or no answer within `timeoutMs`, is a network fault. */
async function postForEnvelope(url: string, init: { headers: Record<string, string>; body: BodyInit }, timeoutMs: number): Promise<Envelope> {
  const controller = typeof AbortController === "undefined" ? undefined : new AbortController();
  const timer = controller ? setTimeout(() => controller.abort(), timeoutMs) : undefined;
  try {
    const response = await fetch(url, { method: "POST", ...init, credentials: "same-origin", signal: controller?.signal });
    // a refusal (too many requests) comes as an envelope too; anything else unreadable is a network fault
    const envelope = (await response.json()) as Envelope;
    if (typeof envelope !== "object" || envelope === null || typeof envelope.return_code !== "string") throw new NetworkFailure();
    return envelope;
  } catch (err) {
    throw err instanceof NetworkFailure ? err : new NetworkFailure();
  } finally {
    if (timer) clearTimeout(timer);
  }
}

export async function h5call<M extends keyof Operations>(method: M, payload: Operations[M][0]): Promise<Operations[M][1]> {
  const envelope = await postForEnvelope("/weapi/h5api", { headers: { "content-type": "application/json" }, body: JSON.stringify({ method, ...payload }) }, TIMEOUT_MS);
  if (envelope.return_code !== "SUCCESS") {
    const first = Array.isArray(envelope.data?.errors) ? envelope.data.errors[0] : undefined;
    const questionId = first?.question_id;
    throw new H5Failure(envelope.return_msg || "", questionId === undefined ? undefined : String(questionId), typeof first?.field === "string" ? first.field : undefined);
  }
  return (envelope.data?.items ?? {}) as Operations[M][1];
}

/** the longest a photo's upload may take on a slow phone connection */
const UPLOAD_TIMEOUT_MS = 60_000;

/**
 * A photo the payer sends (an after-sale's): uploaded with the student's ticket (POST /weapi/upload, kind image,
 * X-Payer-Ticket), answered with its address; a refusal says why (not a picture, too large).
 */
export async function uploadPhoto(ticket: string, file: File): Promise<string> {
  const form = new FormData();
  // the kind before the file: the server's cap is the kind's
  form.append("kind", "image");
  form.append("file", file, file.name);
  const envelope = await postForEnvelope("/weapi/upload", { headers: { "x-payer-ticket": ticket }, body: form }, UPLOAD_TIMEOUT_MS);
  const url = (envelope.data?.items as { url?: unknown } | undefined)?.url;
  if (envelope.return_code !== "SUCCESS" || typeof url !== "string") throw new H5Failure(envelope.return_msg || "", undefined, "images");
  return url;
}

// ---------------------------------------------------------------------------------------------------------
// After-sales of the shop's order items (server/domains/retail/afterSales.ts)

export type AfterSaleWay = "refund" | "return_refund";

export interface AfterSale {
  id: number;
  aftersale_no: string;
  order_id: number;
  item_id: number;
  title: string;
  spec_values: Record<string, string>;
  way: AfterSaleWay;
  qty: number;
  amount: string;
  reason: string;
  description: string | null;
  images: string[];
  status: "applied" | "agreed" | "returning" | "received" | "refunding" | "completed" | "refused" | "refused_receipt" | "cancelled";
  review_reason: string | null;
  receive_reason: string | null;
  express_code: string | null;
  tracking_no: string | null;
  created_at: string;
  completed_at: string | null;
  /** where to send the goods of a return agreed (the provider's default return address), while they are to go back */
  return_address: { name: string; phone: string; address: string } | null;
}
