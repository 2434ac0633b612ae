/**
 * The sandbox gateway (DESIGN 8), the default when no WeChat Pay merchant is configured: an order's code_url is
 * {origin}/pay/sandbox/{pay_no}, a small page a phone on the same network opens from the QR code, showing the
 * order and a Pay button; POST {code_url}/confirm reports the payment exactly as a verified notification would.
 * With the JSON body {"notify": false} it pays without notifying the console, as a lost notification leaves a
 * real payment: the sandbox alone knows it (sandbox_payments) until a query asks, as the order-closing job does.
 * It takes the requests a real gateway takes: service-provider mode (a sub-merchant payee, whose merchant number
 * the order records as its merchant_id) and JSAPI orders, whose prepay id is the pay_no and whose payment sheet
 * is the same page.
 */
import { randomBytes } from "node:crypto";
import { open } from "node:fs/promises";
import { and, asc, eq, gte, inArray, lt, ne, sql, sum } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fenToYuan } from "../../common/money";
import { addDays, businessDayStart } from "../../common/term";
import type { Db } from "../db/client";
import { paymentOrders, sandboxPayments, sandboxRefunds } from "../db/schema";
import type { Clock } from "../lib/clock";
import { escapeHtml, phonePage } from "../lib/htmlPage";
import { requestLanguage, translator, type Translate } from "../lib/i18n";
import type { AppServices } from "../protocol/registry";
import { applyPaidOrder, PaymentMismatchError, type PaymentOrder } from "./apply";
import { paymentKind } from "./kinds";
import { sandboxActive } from "./orders";
import { rateFee, SANDBOX_RATE_PER_MILLE, TradeBillWriter, type TradeBillEntry } from "./tradeBill";
import {
  GatewayRequestError,
  GatewayVerificationError,
  NO_STATEMENT_EXIST,
  PAY_NO_PATTERN,
  type JsapiOrder,
  type JsapiOrderRequest,
  type PaymentGateway,
  type PaymentNotice,
  type QrOrder,
  type QrOrderRequest,
  type RefundNotice,
  type RefundRequest,
  type RefundResult,
  type SubMerchantPayee,
  type TradeQuery,
} from "./gateway";

const SANDBOX_PATH = "/pay/sandbox";
export const CONFIRMS_PER_MINUTE = 20;

export function sandboxCodeUrl(origin: string, payNo: string): string {
  return `${origin}${SANDBOX_PATH}/${payNo}`;
}

/** Neither WeChat nor a merchant key is behind the sandbox: its JSAPI parameters carry this instead of a signature. */
const SANDBOX_PAY_SIGN = "SANDBOX";
const SANDBOX_APP_ID = "sandbox";
/** where the sandbox's refunds go, as WeChat Pay names a refund into the payer's change */
const SANDBOX_REFUND_ACCOUNT = "支付用户零钱";
/** the merchant number the sandbox's bills give as the service provider's */
const SANDBOX_SP_MCHID = "0";

/** The sandbox's transaction id of an order: the same for every confirm of it. */
function sandboxTransactionId(payNo: string): string {
  return `SANDBOX${payNo}`;
}

/** records of the day read at a time for its bill, and rows written to its file at a time */
const BILL_PAGE = 1000;

/** Two sequences each in time order, as one in time order (a payment before a refund of the same instant). */
async function* inTimeOrder(payments: AsyncIterator<TradeBillEntry>, refunds: AsyncIterator<TradeBillEntry>): AsyncGenerator<TradeBillEntry, void, undefined> {
  let payment = await payments.next();
  let refund = await refunds.next();
  while (!payment.done || !refund.done) {
    if (!payment.done && (refund.done || payment.value.at.getTime() <= refund.value.at.getTime())) {
      yield payment.value;
      payment = await payments.next();
    } else if (!refund.done) {
      yield refund.value;
      refund = await refunds.next();
    }
  }
}

function payable(order: PaymentOrder, now: Date): boolean {
  return (order.status === "NOTPAY" || order.status === "USERPAYING") && order.expiresAt > now;
}

type SandboxPayment = typeof sandboxPayments.$inferSelect;

/** Records a payment the sandbox took (the first record stands when an order is confirmed twice). */
async function recordSandboxPayment(db: Db, notice: PaymentNotice): Promise<SandboxPayment> {
  await db
    .insert(sandboxPayments)
    .values({ payNo: notice.payNo, transactionId: notice.transactionId, amountFen: notice.amountFen, paidAt: notice.paidAt ?? new Date() })
    .onConflictDoNothing();
  const [row] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.payNo, notice.payNo));
  return row;
}

export class SandboxGateway implements PaymentGateway {
  readonly name = "sandbox" as const;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly origin: string,
  ) {}

  private async order(payNo: string): Promise<PaymentOrder | undefined> {
    const [row] = await this.db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.payNo, payNo), eq(paymentOrders.gateway, "sandbox")));
    return row;
  }

  async createQrOrder(request: QrOrderRequest): Promise<QrOrder> {
    return { codeUrl: sandboxCodeUrl(this.origin, request.payNo) };
  }

  /**
   * The JS bridge's parameters in their real shape, for a payer page that does not know which gateway answered; the
   * prepay id is the pay_no, so the sandbox page (payPageUrl, `/pay/sandbox/{prepay_id}`) is where it is paid.
   */
  async createJsapiOrder(request: JsapiOrderRequest): Promise<JsapiOrder> {
    const prepayId = request.payNo;
    return {
      prepayId,
      payParams: {
        appId: "subOpenid" in request.payer ? request.payer.subAppid : SANDBOX_APP_ID,
        timeStamp: String(Math.floor(this.clock.now().getTime() / 1000)),
        nonceStr: randomBytes(16).toString("hex").toUpperCase(),
        package: `prepay_id=${prepayId}`,
        signType: "RSA",
        paySign: SANDBOX_PAY_SIGN,
      },
      payPageUrl: sandboxCodeUrl(this.origin, request.payNo),
    };
  }

  private async payment(payNo: string): Promise<SandboxPayment | undefined> {
    const [row] = await this.db.select().from(sandboxPayments).where(eq(sandboxPayments.payNo, payNo));
    return row;
  }

  /** An order made for a sub-merchant is found only under it, as at WeChat Pay. */
  private async orderOf(payNo: string, payee: SubMerchantPayee | undefined): Promise<PaymentOrder> {
    const order = await this.order(payNo);
    if (!order || (payee && order.merchantId !== payee.subMchid)) throw new GatewayRequestError("sandbox: no such order", 404, "ORDER_NOT_EXIST");
    return order;
  }

  async query(payNo: string, payee?: SubMerchantPayee): Promise<TradeQuery> {
    const order = await this.orderOf(payNo, payee);
    const paid = order.status === "SUCCESS";
    // paid at the sandbox without the console being told
    const payment = paid ? undefined : await this.payment(payNo);
    if (payment) {
      return {
        payNo,
        state: "SUCCESS",
        amountFen: payment.amountFen,
        transactionId: payment.transactionId,
        merchantId: order.merchantId,
        paidAt: payment.paidAt,
      };
    }
    return {
      payNo,
      state: order.status as TradeQuery["state"],
      amountFen: paid ? order.totalFeeFen : undefined,
      transactionId: order.transactionId ?? undefined,
      merchantId: order.merchantId,
      paidAt: order.paidAt ?? undefined,
    };
  }

  /** Like WeChat Pay, a paid order cannot be closed. */
  async close(payNo: string, payee?: SubMerchantPayee): Promise<void> {
    if (payee) await this.orderOf(payNo, payee);
    if (await this.payment(payNo)) throw new GatewayRequestError("sandbox: the order has been paid", 400, "ORDERPAID");
    await this.db
      .update(paymentOrders)
      .set({ status: "CLOSED" })
      .where(and(eq(paymentOrders.payNo, payNo), eq(paymentOrders.gateway, "sandbox"), ne(paymentOrders.status, "SUCCESS")));
  }

  /**
   * Refunds a paid order at once, into the payer's change, at most what was paid in all; the same refund number
   * again answers the refund it names, as at WeChat Pay. The answer is acceptance: a query tells the end.
   */
  async refund(request: RefundRequest): Promise<RefundResult> {
    const order = await this.orderOf(request.payNo, request.subMchid === undefined ? undefined : { subMchid: request.subMchid });
    const [known] = await this.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.refundNo, request.refundNo));
    if (known) {
      if (known.payNo !== request.payNo || known.amountFen !== request.amountFen) throw new GatewayRequestError("sandbox: the refund number is taken", 400, "INVALID_REQUEST");
      return { refundNo: known.refundNo, status: "PROCESSING", refundId: known.refundId };
    }
    const paid = order.status === "SUCCESS" || (await this.payment(request.payNo)) !== undefined;
    const [{ refunded }] = await this.db.select({ refunded: sum(sandboxRefunds.amountFen) }).from(sandboxRefunds).where(eq(sandboxRefunds.payNo, request.payNo));
    if (!paid || request.totalFen !== order.totalFeeFen || request.amountFen < 1 || Number(refunded ?? 0) + request.amountFen > order.totalFeeFen) {
      throw new GatewayRequestError("sandbox: the order cannot be refunded so much", 400, "INVALID_REQUEST");
    }
    const now = this.clock.now();
    const refundId = `SANDBOXR${request.refundNo}`.slice(0, 64);
    await this.db
      .insert(sandboxRefunds)
      .values({ refundNo: request.refundNo, payNo: request.payNo, refundId, amountFen: request.amountFen, status: "SUCCESS", createdAt: now, successTime: now })
      .onConflictDoNothing();
    return { refundNo: request.refundNo, status: "PROCESSING", refundId };
  }

  async queryRefund(refundNo: string, payee?: SubMerchantPayee): Promise<RefundResult> {
    const [refund] = await this.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.refundNo, refundNo));
    if (refund && payee) await this.orderOf(refund.payNo, payee);
    if (!refund) throw new GatewayRequestError("sandbox: no such refund", 404, "RESOURCE_NOT_EXISTS");
    return {
      refundNo,
      status: refund.status as RefundResult["status"],
      refundId: refund.refundId,
      amountFen: refund.amountFen,
      successTime: refund.successTime ?? undefined,
      userReceivedAccount: SANDBOX_REFUND_ACCOUNT,
    };
  }

  /**
   * The day's bill of the payments and refunds the sandbox took (for one sub-merchant when named), in WeChat Pay's
   * layout (fields behind a backtick, fees to five decimals) with its 0.6 % fee, today's as far as it goes, written
   * into the file as the day is read, a thousand records at a time, in time order; none taken answers
   * NO_STATEMENT_EXIST, as WeChat Pay does.
   */
  async tradeBill(billDate: string, into: string, payee?: SubMerchantPayee): Promise<void> {
    const from = businessDayStart(billDate);
    const to = businessDayStart(addDays(billDate, 1));
    const entries = inTimeOrder(this.dayPayments(from, to, payee), this.dayRefunds(from, to, payee));
    let next = await entries.next();
    if (next.done) throw new GatewayRequestError("sandbox: no trade that day", 400, NO_STATEMENT_EXIST);
    const writer = new TradeBillWriter(SANDBOX_SP_MCHID);
    const file = await open(into, "w");
    try {
      let text = writer.header();
      for (let rows = 0; !next.done; next = await entries.next()) {
        text += writer.row(next.value);
        if (++rows % BILL_PAGE === 0) {
          await file.write(text);
          text = "";
        }
      }
      await file.write(text + writer.summary());
    } finally {
      await file.close();
    }
  }

  /**
   * The day's payments, by time (then number), a page at a time: a page of the sandbox's own records read in the order
   * of their index of times, then their orders' titles and payees by one statement.
   */
  private async *dayPayments(from: Date, to: Date, payee: SubMerchantPayee | undefined): AsyncGenerator<TradeBillEntry> {
    // after the last record read, from where the index of times finds it: its time as the database has it (to the
    // microsecond, where a Date keeps the millisecond)
    for (let after: { at: string; payNo: string } | undefined; ; ) {
      const page = await this.db
        .select({ payNo: sandboxPayments.payNo, transactionId: sandboxPayments.transactionId, amountFen: sandboxPayments.amountFen, at: sandboxPayments.paidAt, cursor: sql<string>`${sandboxPayments.paidAt}::text` })
        .from(sandboxPayments)
        .where(and(after ? sql`${sandboxPayments.paidAt} >= ${after.at}::timestamptz AND (${sandboxPayments.paidAt}, ${sandboxPayments.payNo}) > (${after.at}::timestamptz, ${after.payNo})` : gte(sandboxPayments.paidAt, from), lt(sandboxPayments.paidAt, to)))
        .orderBy(asc(sandboxPayments.paidAt), asc(sandboxPayments.payNo))
        .limit(BILL_PAGE);
      const orders = await this.ordersOf(page.map((p) => p.payNo), payee);
      for (const p of page) {
        const order = orders.get(p.payNo);
        // what the sandbox took is its own record: the order's amount as the payer paid it
        if (order) yield { at: p.at, subMchid: order.subMchid, transactionId: p.transactionId, payNo: p.payNo, kind: "payment", amountFen: p.amountFen, orderFen: p.amountFen, feeFen: rateFee(p.amountFen, SANDBOX_RATE_PER_MILLE), title: order.title };
      }
      if (page.length < BILL_PAGE) return;
      const last = page[page.length - 1];
      after = { at: last.cursor, payNo: last.payNo };
    }
  }

  /** The day's refunds, by the time they were taken (then number), a page at a time as the payments are. */
  private async *dayRefunds(from: Date, to: Date, payee: SubMerchantPayee | undefined): AsyncGenerator<TradeBillEntry> {
    for (let after: { at: string; refundNo: string } | undefined; ; ) {
      const page = await this.db
        .select({
          payNo: sandboxRefunds.payNo,
          refundNo: sandboxRefunds.refundNo,
          refundId: sandboxRefunds.refundId,
          amountFen: sandboxRefunds.amountFen,
          status: sandboxRefunds.status,
          at: sandboxRefunds.createdAt,
          cursor: sql<string>`${sandboxRefunds.createdAt}::text`,
        })
        .from(sandboxRefunds)
        .where(and(after ? sql`${sandboxRefunds.createdAt} >= ${after.at}::timestamptz AND (${sandboxRefunds.createdAt}, ${sandboxRefunds.refundNo}) > (${after.at}::timestamptz, ${after.refundNo})` : gte(sandboxRefunds.createdAt, from), lt(sandboxRefunds.createdAt, to)))
        .orderBy(asc(sandboxRefunds.createdAt), asc(sandboxRefunds.refundNo))
        .limit(BILL_PAGE);
      const orders = await this.ordersOf(page.map((r) => r.payNo), payee);
      for (const r of page) {
        const order = orders.get(r.payNo);
        if (!order) continue;
        yield {
          at: r.at,
          subMchid: order.subMchid,
          transactionId: sandboxTransactionId(r.payNo),
          payNo: r.payNo,
          kind: "refund",
          amountFen: r.amountFen,
          orderFen: 0,
          refundId: r.refundId,
          refundNo: r.refundNo,
          refundState: r.status,
          feeFen: -rateFee(r.amountFen, SANDBOX_RATE_PER_MILLE),
          title: order.title,
        };
      }
      if (page.length < BILL_PAGE) return;
      const last = page[page.length - 1];
      after = { at: last.cursor, refundNo: last.refundNo };
    }
  }

  /** The orders of some numbers (the payee's only, when named): their titles and payees. */
  private async ordersOf(payNos: string[], payee: SubMerchantPayee | undefined): Promise<Map<string, { title: string; subMchid: string }>> {
    if (payNos.length === 0) return new Map();
    const rows = await this.db
      .select({ payNo: paymentOrders.payNo, title: paymentOrders.title, subMchid: paymentOrders.merchantId })
      .from(paymentOrders)
      .where(and(inArray(paymentOrders.payNo, payNos), payee ? eq(paymentOrders.merchantId, payee.subMchid) : undefined));
    return new Map(rows.map((row) => [row.payNo, row]));
  }

  /** The sandbox tells a refund's end only to a query. */
  async verifyRefundNotification(): Promise<RefundNotice> {
    throw new GatewayVerificationError("sandbox: refunds are not notified");
  }

  /** The confirm body names the order ({"pay_no"}); the sandbox pays what the order asks, while it is payable. */
  async verifyNotification(_headers: Readonly<Record<string, string | undefined>>, rawBody: string): Promise<PaymentNotice> {
    let payNo: unknown;
    try {
      payNo = (JSON.parse(rawBody) as { pay_no?: unknown }).pay_no;
    } catch {
      throw new GatewayVerificationError("sandbox: malformed confirmation");
    }
    const order = typeof payNo === "string" && PAY_NO_PATTERN.test(payNo) ? await this.order(payNo) : undefined;
    if (!order) throw new GatewayVerificationError("sandbox: no such order");
    if (order.status !== "SUCCESS" && !payable(order, this.clock.now())) throw new GatewayVerificationError("sandbox: the order is closed");
    return {
      payNo: order.payNo,
      state: "SUCCESS",
      amountFen: order.totalFeeFen,
      transactionId: sandboxTransactionId(order.payNo),
      merchantId: order.merchantId,
      paidAt: order.paidAt ?? this.clock.now(),
    };
  }
}

function page(t: Translate, lang: string, body: string): string {
  return phonePage(lang, t("sandbox.title"), body);
}

/**
 * The payer page a payment was opened from (`?return=/h5/{code}`), to go back to once paid: a path of this
 * server's payer pages only, never another site.
 */
const RETURN_PATH = /^\/h5\/[A-Za-z0-9_-]{1,64}$/;
function returnPath(value: unknown): string | undefined {
  return typeof value === "string" && RETURN_PATH.test(value) ? value : undefined;
}

interface OrderView {
  order: PaymentOrder | undefined;
  /** what the order pays for, line by line, when its kind tells */
  lines: { title: string; amountFen: number }[];
  back?: string;
}

function orderPage(t: Translate, lang: string, view: OrderView, now: Date, active: boolean): string {
  const { order, lines, back } = view;
  if (!order) return page(t, lang, `<p class="closed" data-testid="sandbox-missing">${escapeHtml(t("sandbox.not_found"))}</p>`);
  // said first and plainly: nobody should believe a real payment happened here
  const banner = `<p class="test" data-testid="sandbox-test-banner">${escapeHtml(t("sandbox.test_banner"))}</p>`;
  // every bill the order pays, not only the first one's title
  const product =
    lines.length > 0
      ? `<ul class="lines" data-testid="sandbox-lines">${lines.map((line) => `<li><span>${escapeHtml(line.title)}</span><span>¥${fenToYuan(line.amountFen)}</span></li>`).join("")}</ul>`
      : escapeHtml(order.title);
  const facts = `<dl>
<dt>${escapeHtml(t("sandbox.order"))}</dt><dd data-testid="sandbox-orderid">${escapeHtml(order.orderid)}</dd>
<dt>${escapeHtml(t("sandbox.product"))}</dt><dd>${product}</dd>
<dt>${escapeHtml(t("sandbox.amount"))}</dt><dd data-testid="sandbox-amount">¥${fenToYuan(order.totalFeeFen)}</dd>
</dl>`;
  const backLink = back ? `<p><a href="${escapeHtml(back)}" data-testid="sandbox-back">${escapeHtml(t("sandbox.back"))}</a></p>` : "";
  let action: string;
  if (order.status === "SUCCESS") action = `<p class="done" data-testid="sandbox-paid">${escapeHtml(t(back ? "sandbox.paid_back" : "sandbox.paid"))}</p>${backLink}`;
  else if (!active) action = `<p class="closed" data-testid="sandbox-off">${escapeHtml(t("sandbox.off"))}</p>${backLink}`;
  else if (!payable(order, now)) action = `<p class="closed" data-testid="sandbox-closed">${escapeHtml(t("sandbox.closed"))}</p>${backLink}`;
  else {
    // paid, the payer goes straight back to the payer page, which then shows the receipt
    const returnField = back ? `<input type="hidden" name="return" value="${escapeHtml(back)}">` : "";
    action = `<form method="post" action="${SANDBOX_PATH}/${escapeHtml(order.payNo)}/confirm">${returnField}
<button type="submit" data-testid="sandbox-pay">${escapeHtml(t("sandbox.pay"))}</button></form>
<p class="hint">${escapeHtml(t("sandbox.hint"))}</p>`;
  }
  return page(t, lang, banner + facts + action);
}

/** GET /pay/sandbox/:payNo (the page) and POST /pay/sandbox/:payNo/confirm (an HTML form or an API call). */
export function registerSandboxRoutes(app: FastifyInstance, services: AppServices, originOf: (request: FastifyRequest) => string): void {
  void app.register(async (scope) => {
    // the page's form posts an empty urlencoded body: nothing in it is read, but what is sent is checked like any input
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 1024 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    const loadOrder = async (payNo: string) => {
      if (!PAY_NO_PATTERN.test(payNo)) return undefined;
      const [row] = await services.db
        .select()
        .from(paymentOrders)
        .where(and(eq(paymentOrders.payNo, payNo), eq(paymentOrders.gateway, "sandbox")));
      return row;
    };
    const sendPage = async (request: FastifyRequest, reply: FastifyReply, order: PaymentOrder | undefined, back: string | undefined, status = 200) => {
      const lang = requestLanguage(request.headers);
      const active = await sandboxActive(services);
      const lines = order ? ((await paymentKind(order.kind)?.lines?.(services.db, order)) ?? []) : [];
      return reply
        .status(order ? status : 404)
        .header("cache-control", "no-store")
        .type("text/html; charset=utf-8")
        .send(orderPage(translator(lang), lang, { order, lines, back }, services.clock.now(), active));
    };

    scope.get<{ Params: { payNo: string }; Querystring: { return?: unknown } }>(`${SANDBOX_PATH}/:payNo`, async (request, reply) =>
      sendPage(request, reply, await loadOrder(request.params.payNo), returnPath(request.query.return)),
    );

    // whoever holds a QR code can confirm it: a few tries a minute per address are all a person needs
    const confirmLimit = { rateLimit: { max: CONFIRMS_PER_MINUTE, timeWindow: 60_000 } };
    scope.post<{ Params: { payNo: string } }>(`${SANDBOX_PATH}/:payNo/confirm`, { config: confirmLimit }, async (request, reply) => {
      const t = translator(requestLanguage(request.headers));
      const fromForm = String(request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded");
      // {"notify": false}: paid at the sandbox, the console not told (a lost notification)
      const notify = !(typeof request.body === "object" && request.body !== null && (request.body as { notify?: unknown }).notify === false);
      const gateway = new SandboxGateway(services.db, services.clock, originOf(request));
      let accepted = false;
      try {
        // a live merchant (or PAYMENT_SANDBOX=off) ends the sandbox, for the orders it took before too
        if (!(await sandboxActive(services))) throw new GatewayVerificationError("sandbox: off");
        const notice = await gateway.verifyNotification({}, JSON.stringify({ pay_no: request.params.payNo }));
        const payment = await recordSandboxPayment(services.db, notice);
        if (notify) {
          const paid = { ...notice, paidAt: payment.paidAt, transactionId: payment.transactionId };
          accepted = (await applyPaidOrder(services.db, { ...paid, gateway: "sandbox", ip: request.ip }, services.clock.now())) !== null;
        } else accepted = true;
      } catch (err) {
        if (!(err instanceof GatewayVerificationError || err instanceof PaymentMismatchError)) throw err;
        request.log.warn({ err, payNo: request.params.payNo }, "sandbox confirmation refused");
      }
      if (fromForm) {
        const back = returnPath((request.body as { return?: unknown } | null)?.return);
        // paid from the payer page: straight back to it, which checks the order and shows the receipt
        if (accepted && back) return reply.redirect(back, 303);
        return sendPage(request, reply, await loadOrder(request.params.payNo), back, accepted ? 200 : 409);
      }
      return reply.send(accepted ? { return_code: "SUCCESS", return_msg: t("api.ok") } : { return_code: "FAIL", return_msg: t("sandbox.closed") });
    });
  });
}
