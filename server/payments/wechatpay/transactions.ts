/**
 * What WeChat Pay API v3 says about a transaction, in either mode (a query answer or a notification's decrypted
 * resource): direct mode names the merchant (`mchid`), service-provider mode the service provider and the
 * sub-merchant (`sp_mchid`, `sub_mchid`). Also how our requests write what WeChat Pay reads (times, descriptions).
 */
import { z } from "zod";
import { GatewayRequestError, type TradeQuery, type TradeState } from "../gateway";

/** WeChat's limit on `description`, in UTF-8 bytes */
export const DESCRIPTION_MAX_BYTES = 127;
const SHANGHAI_OFFSET_MS = 8 * 3600 * 1000;

const TRADE_STATES = ["NOTPAY", "USERPAYING", "SUCCESS", "CLOSED", "REFUND", "REVOKED", "PAYERROR"] as const satisfies readonly TradeState[];

const transactionFacts = {
  out_trade_no: z.string(),
  trade_state: z.enum(TRADE_STATES),
  transaction_id: z.string().optional(),
  success_time: z.string().optional(),
  amount: z.object({ total: z.number().int().nonnegative() }).partial().optional(),
};

export const directTransactionSchema = z.object({ ...transactionFacts, mchid: z.string() });
export const partnerTransactionSchema = z.object({ ...transactionFacts, sp_mchid: z.string(), sub_mchid: z.string() });

export type DirectTransaction = z.infer<typeof directTransactionSchema>;
export type PartnerTransaction = z.infer<typeof partnerTransactionSchema>;
export type Transaction = DirectTransaction | PartnerTransaction;

/**
 * A transaction in the form its fields say: one naming a service provider or a sub-merchant must be complete in
 * that form (it is never read as a direct one); undefined when it is neither.
 */
export function parseTransaction(json: unknown): Transaction | undefined {
  const partner = typeof json === "object" && json !== null && ("sp_mchid" in json || "sub_mchid" in json);
  const parsed = (partner ? partnerTransactionSchema : directTransactionSchema).safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

export function tradeQueryOf(transaction: Transaction): TradeQuery {
  const paidAt = transaction.success_time ? new Date(transaction.success_time) : undefined;
  return {
    payNo: transaction.out_trade_no,
    state: transaction.trade_state,
    amountFen: transaction.amount?.total,
    transactionId: transaction.transaction_id,
    // the payee: the sub-merchant in service-provider mode (see TradeQuery.merchantId)
    ...("sp_mchid" in transaction ? { merchantId: transaction.sub_mchid, spMchid: transaction.sp_mchid } : { merchantId: transaction.mchid }),
    paidAt: paidAt && !Number.isNaN(paidAt.getTime()) ? paidAt : undefined,
  };
}

/** RFC 3339 in China time, as WeChat Pay writes and expects it: 2026-03-02T10:00:00+08:00 */
export function rfc3339China(at: Date): string {
  return `${new Date(at.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(0, 19)}+08:00`;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  let out = "";
  let bytes = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char, "utf8");
    if (bytes > maxBytes) break;
    out += char;
  }
  return out;
}

export function parseAnswer<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new GatewayRequestError(`WeChat Pay: unexpected ${what} answer`, 200);
  return parsed.data;
}
