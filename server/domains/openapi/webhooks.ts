/**
 * Webhooks of the open API: a payment of a fee or of the shop, and a refund done, are posted to the webhook of every
 * client in use of that tenant (its provider, and its school when it has one) that may read orders. Each event is
 * queued as a job in the transaction that made it happen, so it is delivered at least once: the job retries with a
 * growing delay until the client answers 2xx. Its id stays the same across retries (the client drops what it has
 * seen), and its body is signed with the client's secret:
 *
 *   X-CampusPay-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>
 */
import { createHmac, randomUUID } from "node:crypto";
import { and, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { apiClients, feeOrders } from "../../db/schema";
import type { JobContext } from "../../jobs/registry";
import { enqueueJob } from "../../jobs/worker";
import { onPaymentEvent, type PaymentEvent } from "../../payments/events";
import { paymentKindsPaying } from "../../payments/kinds";
import { SECRET_PURPOSE } from "./clients";
import { feeOrdersJson, paymentJson, refundJson } from "./resources";

export const DELIVER_WEBHOOK = "openapi_webhook";
/** tries before a delivery is given up: with the queue's doubling delay from 10 s, about three hours */
export const WEBHOOK_ATTEMPTS = 10;
const TIMEOUT_MS = 10_000;

/** The header names of a delivery (lower case, as HTTP/2 and Node give them). */
export const WEBHOOK_HEADERS = { id: "x-campuspay-event-id", type: "x-campuspay-event-type", signature: "x-campuspay-signature" } as const;

/** An event as the client receives it. */
export interface WebhookEvent {
  id: string;
  type: PaymentEvent["type"];
  created_at: string;
  data: Record<string, unknown>;
}

/** The signature header of a body sent at `unixSeconds`. */
export function webhookSignature(secret: string, unixSeconds: number, body: string): string {
  const digest = createHmac("sha256", secret).update(`${unixSeconds}.${body}`, "utf8").digest("hex");
  return `t=${unixSeconds},v1=${digest}`;
}

/** The event's tenant and what it carries; null for money that is no school's (a renewal). */
async function eventOf(tx: DbOrTx, event: PaymentEvent): Promise<{ sysid: number; schId: number | null; data: Record<string, unknown> } | null> {
  const schoolKinds = paymentKindsPaying("school_channel");
  if (event.type === "payment.succeeded") {
    const { order } = event;
    if (!schoolKinds.includes(order.kind)) return null;
    // a fee order's bills and student, as GET /orders answers it
    const [feeOrder] = order.kind === "fee" ? await feeOrdersJson(tx, eq(feeOrders.pay_no, order.payNo), 1) : [];
    return { sysid: order.sysid, schId: order.schId, data: { payment: paymentJson(order), ...(feeOrder ? { order: feeOrder } : {}) } };
  }
  const { refund } = event;
  if (!schoolKinds.includes(refund.payment_kind)) return null;
  return { sysid: refund.sysid, schId: refund.sch_id, data: { refund: refundJson(refund) } };
}

/** Queues the event's delivery to each client that listens in its tenant, in the transaction telling it. */
async function queueDeliveries(tx: DbOrTx, event: PaymentEvent): Promise<void> {
  const listening = (sysid: number, schId: number | null) =>
    tx
      .select({ id: apiClients.id })
      .from(apiClients)
      .where(
        and(
          eq(apiClients.sysid, sysid),
          schId === null ? isNull(apiClients.sch_id) : or(isNull(apiClients.sch_id), eq(apiClients.sch_id, schId)),
          eq(apiClients.status, "1"),
          isNotNull(apiClients.webhook_url),
          sql`${apiClients.webhook_url} <> ''`,
          sql`'orders:read' = any(${apiClients.scopes})`,
        ),
      );
  // the clients first, by the provider's index: money of a provider without one costs a single lookup
  const { sysid, schId } = event.type === "payment.succeeded" ? { sysid: event.order.sysid, schId: event.order.schId } : { sysid: event.refund.sysid, schId: event.refund.sch_id };
  const clients = await listening(sysid, schId);
  if (clients.length === 0) return;
  const told = await eventOf(tx, event);
  if (!told) return;
  const body: WebhookEvent = { id: randomUUID(), type: event.type, created_at: event.at.toISOString(), data: told.data };
  for (const client of clients) {
    await enqueueJob(tx, DELIVER_WEBHOOK, { client: client.id, event: body }, { now: event.at, maxAttempts: WEBHOOK_ATTEMPTS });
  }
}

onPaymentEvent(queueDeliveries);

/**
 * One delivery: the event posted to the client's webhook as it is now (a client switched off or without a webhook
 * is skipped), signed with its secret; anything but a 2xx answer fails the run, which the queue retries.
 */
export async function deliverWebhook({ db, services, payload, now, attempt }: JobContext): Promise<{ outcome: string; status?: number }> {
  const event = payload.event as WebhookEvent;
  const [client] = await db.select().from(apiClients).where(eq(apiClients.id, Number(payload.client)));
  if (!client || client.status !== "1" || !client.webhook_url || !client.secret_sealed) return { outcome: "skipped" };
  const secret = services.paymentSecrets.decrypt(client.secret_sealed, SECRET_PURPOSE);
  const body = JSON.stringify(event);
  const response = await fetch(client.webhook_url, {
    method: "POST",
    headers: {
      "content-type": "application/json; charset=utf-8",
      "user-agent": "CampusPay-Webhook/1",
      [WEBHOOK_HEADERS.id]: event.id,
      [WEBHOOK_HEADERS.type]: event.type,
      [WEBHOOK_HEADERS.signature]: webhookSignature(secret, Math.floor(now.getTime() / 1000), body),
      "x-campuspay-attempt": String(attempt),
    },
    body,
    redirect: "error",
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  // the answer's body is not read: a client's page of text must not fill the server's memory
  await response.body?.cancel();
  if (!response.ok) throw new Error(`webhook answered ${response.status}`);
  return { outcome: "delivered", status: response.status };
}
