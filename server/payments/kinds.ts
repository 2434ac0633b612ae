/**
 * What a payment order is for (DESIGN 8): a kind that a domain registers, naming who is paid and what paying it
 * does. The renewals domain registers the two renewals (the platform is paid; paying extends a term); fee collection
 * will register its fees (a school's channel is paid; paying settles bills). Applying an order runs its own kind's
 * `applyPaid` in the transaction that marks it paid, so a payment can do only what its kind does: a fee can never
 * extend a term, and an order of a kind no domain registered is never applied.
 */
import type { Db, DbOrTx } from "../db/client";
import type { RefundResult } from "./gateway";
import type { paymentOrders } from "../db/schema";

export type PaymentOrder = typeof paymentOrders.$inferSelect;

/** who receives the money: the platform's own merchant, or the school's payment channel (a sub-merchant) */
export type Payee = "platform" | "school_channel";

/** who the payment is applied for (the order's creator) and where the report came from */
export interface PaymentActor {
  userId: number | null;
  username: string;
  ip: string;
}

/** Why an order was closed, when not for its timeout or a sibling's payment: its merchant was removed (closed here only). */
export type CloseReason = "merchant_gone";

/** The payment as the gateway reported it (the transaction and when it was paid). */
export interface PaidFacts {
  transactionId: string;
  paidAt: Date;
}

export interface PaymentKind {
  kind: string;
  payee: Payee;
  /** Applies a paid order to the business, inside the transaction that marks it paid; answers the term end it gave, if any. */
  applyPaid(tx: DbOrTx, order: PaymentOrder, actor: PaymentActor, now: Date, paid: PaidFacts): Promise<{ appliedEnd: string | null }>;
  /**
   * The order was closed unpaid (its timeout, or another order paid its bills): inside the transaction that marks it
   * CLOSED; it may be told more than once (a close repeated), and a payment that still comes applies it after all.
   */
  applyClosed?(tx: DbOrTx, order: PaymentOrder, now: Date, reason?: CloseReason): Promise<void>;
  /**
   * A refund of one of its orders reached its end at the gateway (a verified notification): applied once, whatever
   * arrives twice; answers false when no refund of the kind has that number. A kind without it takes no refunds.
   */
  applyRefund?(db: Db, result: RefundResult, now: Date): Promise<boolean>;
  /** What the order pays for, line by line (a fee order's bills), for the pages that show it to the payer. */
  lines?(db: DbOrTx, order: PaymentOrder): Promise<{ title: string; amountFen: number }[]>;
}

const kinds = new Map<string, PaymentKind>();

export function registerPaymentKind(kind: PaymentKind): void {
  if (!/^[a-z][a-z0-9_]{0,31}$/.test(kind.kind)) throw new Error(`payment kind ${kind.kind}: lower-case letters, digits and '_', at most 32`);
  const known = kinds.get(kind.kind);
  // a module imported twice (tests) registers the same kind again: the same declaration is no conflict
  if (known && known !== kind) throw new Error(`payment kind ${kind.kind} is registered twice`);
  kinds.set(kind.kind, kind);
}

export function paymentKind(kind: string): PaymentKind | undefined {
  return kinds.get(kind);
}
