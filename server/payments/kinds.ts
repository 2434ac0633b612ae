/**
 * What a payment order is for (DESIGN 8): a kind that a domain registers, naming who is paid and what paying it
 * does. The renewals domain registers the two renewals (the platform is paid; paying extends a term); fee collection
 * registers its fees (a school's channel is paid; paying settles bills) and the school shop its orders (the school's
 * channel too; paying makes them ready to deliver). Applying an order runs its own kind's
 * `applyPaid` in the transaction that marks it paid, so a payment can do only what its kind does: a fee can never
 * extend a term, and an order of a kind no domain registered is never applied.
 */
import type { AuditActor } from "../auth/audit";
import type { DbOrTx } from "../db/client";
import type { paymentOrders, refunds } from "../db/schema";

export type PaymentOrder = typeof paymentOrders.$inferSelect;

/** who receives the money: the platform's own merchant, or the school's payment channel (a sub-merchant) */
export type Payee = "platform" | "school_channel";

/** Why an order was closed, when not for its timeout or a sibling's payment: its merchant was removed (closed here only). */
export type CloseReason = "merchant_gone";

/** The payment as the gateway reported it (the transaction and when it was paid). */
export interface PaidFacts {
  transactionId: string;
  paidAt: Date;
}

/** A kind's order as a refund of it records it, read under the order's row lock. */
export interface RefundableOrder {
  /** what the order was paid, in fen: its refunds together never exceed it */
  paidFen: number;
  sysid: number;
  sch_id: number;
  student_id: number;
  gateway: string;
  /** the kind's own columns on the refund: the id of its order */
  columns: Partial<typeof refunds.$inferInsert>;
}

export interface RefundHooks {
  /** Locks the kind's order of the payment (FOR UPDATE) and answers it; undefined when the payment has none. */
  lockOrder(tx: DbOrTx, payNo: string): Promise<RefundableOrder | undefined>;
  /**
   * A refund of it is done at the gateway: the money given back on the kind's own records (a fee order's lines, bills
   * and daily figures; a shop order's items and stock), in the transaction that records the success, once.
   */
  refunded(tx: DbOrTx, refund: typeof refunds.$inferSelect, now: Date): Promise<void>;
}

export interface PaymentKind {
  kind: string;
  payee: Payee;
  /**
   * Applies a paid order to the business, inside the transaction that marks it paid, for `actor` (the order's creator,
   * from where the report came); answers the term end it gave, if any.
   */
  applyPaid(tx: DbOrTx, order: PaymentOrder, actor: AuditActor, now: Date, paid: PaidFacts): Promise<{ appliedEnd: string | null }>;
  /**
   * The order was closed unpaid (its timeout, or another order paid its bills): inside the transaction that marks it
   * CLOSED; it may be told more than once (a close repeated), and a payment that still comes applies it after all.
   */
  applyClosed?(tx: DbOrTx, order: PaymentOrder, now: Date, reason?: CloseReason): Promise<void>;
  /** What a refund of one of its orders does (./refunds.ts); a kind without them takes no refunds. */
  refunds?: RefundHooks;
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

/** The kinds registered that pay this payee (a school channel takes fees and the shop's orders), by name. */
export function paymentKindsPaying(payee: Payee): string[] {
  return [...kinds.values()].filter((kind) => kind.payee === payee).map((kind) => kind.kind).sort();
}
