/**
 * Payer tickets: what h5find hands the payer page for the student it found. A ticket is 32 random bytes
 * (base64url) of which the server keeps only the SHA-256 (payer_tickets), bound to that student, the school and
 * the QR code it was found through, and valid for TICKET_MINUTES. A row rather than a signed token: no server
 * secret to keep and share between processes, and the prune job forgets it. Every later payer call names it and
 * reaches only that student's bills and orders.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lte } from "drizzle-orm";
import { pruneThrottle } from "../../auth/throttle";
import type { DbOrTx } from "../../db/client";
import { payerTickets } from "../../db/schema";
import type { JobContext } from "../../jobs/registry";
import { ApiFailure } from "../../protocol/envelope";
import { pruneWechatIds } from "./payerWechat";

export const TICKET_MINUTES = 30;
export const PRUNE_PAYER_TICKETS = "collection.prune_payer_tickets";
export const PRUNE_PAYER_TICKETS_EVERY_SECONDS = 3600;
/** the payer API's throttle keys (h5find:, h5oauth:, h5pay:) */
export const PAYER_THROTTLE_PREFIX = "h5";
/** longer than the longest lock of the payer API's rules: a key untouched this long counts nothing any more */
const PAYER_THROTTLE_KEPT_MS = 2 * 24 * 3600_000;

export interface PayerTicket {
  studentId: number;
  schId: number;
  sysid: number;
  qrchnlId: number;
}

const TICKET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function hashOf(ticket: string): string {
  return createHash("sha256").update(ticket).digest("hex");
}

/** What names a ticket in a throttle key: its hash, never the ticket itself. */
export function ticketKey(ticket: string): string {
  return hashOf(ticket).slice(0, 32);
}

export async function issueTicket(db: DbOrTx, bound: PayerTicket, now: Date): Promise<string> {
  const ticket = randomBytes(32).toString("base64url");
  await db.insert(payerTickets).values({ tokenHash: hashOf(ticket), ...bound, createdAt: now, expiresAt: new Date(now.getTime() + TICKET_MINUTES * 60_000) });
  return ticket;
}

/** FAIL asking the payer to find the student again */
export function ticketExpired(): ApiFailure {
  return new ApiFailure("collection.payer.ticket_expired");
}

/** The hash a ticket is kept by; a text that cannot be a ticket is an expired one. */
export function ticketHashOf(ticket: unknown): string {
  if (typeof ticket !== "string" || !TICKET_PATTERN.test(ticket)) throw ticketExpired();
  return hashOf(ticket);
}

/** The student a live ticket stands for; else FAIL asking the payer to find the student again. */
export async function ticketOf(db: DbOrTx, ticket: unknown, now: Date): Promise<PayerTicket> {
  const [row] = await db
    .select({ studentId: payerTickets.studentId, schId: payerTickets.schId, sysid: payerTickets.sysid, qrchnlId: payerTickets.qrchnlId })
    .from(payerTickets)
    .where(and(eq(payerTickets.tokenHash, ticketHashOf(ticket)), gt(payerTickets.expiresAt, now)));
  if (!row) throw ticketExpired();
  return row;
}

/**
 * Hourly: the tickets and payers' WeChat id tokens that have expired are deleted, and the payer API's throttle keys
 * long unused (one per address, ticket and student looked up).
 */
export async function prunePayerTickets({ db, now }: JobContext): Promise<{ deleted: number; wechat_ids: number; throttle_keys: number }> {
  const deleted = await db.delete(payerTickets).where(lte(payerTickets.expiresAt, now)).returning({ hash: payerTickets.tokenHash });
  const throttleKeys = await pruneThrottle(db, PAYER_THROTTLE_PREFIX, new Date(now.getTime() - PAYER_THROTTLE_KEPT_MS));
  return { deleted: deleted.length, wechat_ids: await pruneWechatIds(db, now), throttle_keys: throttleKeys };
}
