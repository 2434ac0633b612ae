/**
 * What happened to money, told to whoever listens (the open API's webhooks), inside the transaction that made it
 * happen: a listener's writes (a delivery queued) commit with it or not at all. A payment is told once, when it is
 * applied; a refund once, when the gateway has done it.
 */
import type { DbOrTx } from "../db/client";
import type { refunds } from "../db/schema";
import type { PaymentOrder } from "./kinds";

export type PaymentEvent = { type: "payment.succeeded"; at: Date; order: PaymentOrder } | { type: "refund.succeeded"; at: Date; refund: typeof refunds.$inferSelect };

export type PaymentEventListener = (tx: DbOrTx, event: PaymentEvent) => Promise<void>;

const listeners = new Set<PaymentEventListener>();

/** Listens to every payment and refund from now on (a module imported twice adds the same listener once). */
export function onPaymentEvent(listener: PaymentEventListener): void {
  listeners.add(listener);
}

export async function tellPaymentEvent(tx: DbOrTx, event: PaymentEvent): Promise<void> {
  for (const listener of listeners) await listener(tx, event);
}
