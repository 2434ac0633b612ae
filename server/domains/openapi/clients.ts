/**
 * API clients as the operators keep them (catalogue/clients.ts): a new client gets its `client_id` and a secret,
 * answered once and kept as its SHA-256 (for signing in) and sealed with the server's key (for signing its
 * webhooks); `clientreset` gives a new secret and ends every token of the old one. Its school must be of its
 * provider, its addresses addresses or networks, its webhook an https address (http only to this machine).
 */
import { createHash, randomBytes } from "node:crypto";
import { BlockList, isIP } from "node:net";
import { and, eq } from "drizzle-orm";
import { MAX_ALLOWED_ADDRESSES } from "../../../catalogue/clients";
import type { DbOrTx } from "../../db/client";
import { apiClients, apiTokens, schools } from "../../db/schema";
import { actionFieldFailure, type ActionEffect } from "../../engine/actions";
import type { EntityHooks, Row } from "../../engine/hooks";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationContext } from "../../protocol/registry";
import { PaymentKeyMissingError, type PaymentSecrets } from "../../payments/secrets";

/** what the sealed secret is bound to: a value moved to another column does not open */
export const SECRET_PURPOSE = "api_clients.secret_sealed";

export function secretDigest(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** A new client's id: not a secret, but not guessable either (it names the client in every sign-in). */
function newClientId(): string {
  return `cp_${randomBytes(12).toString("hex")}`;
}

/** A new secret: 32 random bytes, so that its plain SHA-256 is as strong as a slow hash of a password. */
function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** The columns of a new secret, and the secret itself to answer once. */
function freshSecret(secrets: PaymentSecrets): { columns: Row; secret: string } {
  const secret = newSecret();
  try {
    return { columns: { secret_hash: secretDigest(secret), secret_sealed: secrets.encrypt(secret, SECRET_PURPOSE) }, secret };
  } catch (err) {
    // the server keeps no secret it cannot seal
    if (err instanceof PaymentKeyMissingError) throw new ApiFailure("api.payment_key_missing");
    throw err;
  }
}

/** The addresses a client may call from, one address or network (CIDR) a line (or separated by commas); [] for any. */
export function allowedAddresses(text: unknown): string[] {
  return String(text ?? "")
    .split(/[\s,;]+/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** The list of allowed addresses as a matcher; null when any address may call. Throws on an entry it cannot read. */
export function addressMatcher(entries: readonly string[]): BlockList | null {
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split("/");
    const family = isIP(address);
    if (family === 0 || rest.length > 0) throw new Error(entry);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(address, type);
    else {
      const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
      if (!(bits >= 0 && bits <= (family === 4 ? 32 : 128))) throw new Error(entry);
      list.addSubnet(address, bits, type);
    }
  }
  return list;
}

/** Whether the address (as Fastify gives it: an IPv4 client may come as ::ffff:a.b.c.d) is among the allowed. */
export function addressAllowed(matcher: BlockList | null, ip: string): boolean {
  if (matcher === null) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1] : ip;
  const family = isIP(address);
  return family !== 0 && matcher.check(address, family === 4 ? "ipv4" : "ipv6");
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** The checks of the record's own fields: its addresses and its webhook address. */
function checkRecord(ctx: OperationContext, record: Readonly<Row>): void {
  if (record.allowed_ips !== undefined && record.allowed_ips !== null) {
    const entries = allowedAddresses(record.allowed_ips);
    if (entries.length > MAX_ALLOWED_ADDRESSES) throw actionFieldFailure(ctx, "allowed_ips", "clients.validation.too_many_addresses", { max: MAX_ALLOWED_ADDRESSES });
    try {
      addressMatcher(entries);
    } catch (err) {
      throw actionFieldFailure(ctx, "allowed_ips", "clients.validation.address", { value: (err as Error).message.slice(0, 60) });
    }
  }
  const url = record.webhook_url;
  if (typeof url === "string" && url !== "") {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    // a payment's details go over the network: encrypted, unless they never leave this machine
    const acceptable = parsed !== null && parsed.username === "" && parsed.password === "" && (parsed.protocol === "https:" || (parsed.protocol === "http:" && LOOPBACK_HOSTS.has(parsed.hostname)));
    if (!acceptable) throw actionFieldFailure(ctx, "webhook_url", "clients.validation.webhook_url");
  }
}

/** A client's school is one of its provider's. */
async function checkSchool(ctx: OperationContext, tx: DbOrTx, row: Row): Promise<void> {
  if (row.sch_id === null || row.sch_id === undefined) return;
  const [school] = await tx
    .select({ id: schools.id })
    .from(schools)
    .where(and(eq(schools.id, Number(row.sch_id)), eq(schools.sysid, Number(row.sysid))));
  if (!school) throw actionFieldFailure(ctx, "sch_id", "clients.validation.school_of_provider");
}

/** Every token the client holds ends now (a new secret, the client switched off, its scopes or tenant changed). */
export async function endTokens(tx: DbOrTx, clientId: number): Promise<void> {
  await tx.delete(apiTokens).where(eq(apiTokens.clientId, clientId));
}

export const clientHooks: EntityHooks = {
  beforeAdd(ctx, _scope, record) {
    checkRecord(ctx, record);
    record.client_id = newClientId();
  },
  async afterAdd(ctx, tx, row) {
    await checkSchool(ctx, tx, row);
    const { columns, secret } = freshSecret(ctx.services.paymentSecrets);
    await tx.update(apiClients).set(columns).where(eq(apiClients.id, Number(row.id)));
    return { client_id: row.client_id, client_secret: secret };
  },
  async afterEdit(ctx, tx, before, after) {
    checkRecord(ctx, after);
    await checkSchool(ctx, tx, after);
    const changed = (name: string) => JSON.stringify(before[name] ?? null) !== JSON.stringify(after[name] ?? null);
    // a token was given for what the client was: narrowed, moved or switched off, it asks again
    if (["status", "scopes", "sysid", "sch_id"].some(changed)) await endTokens(tx, Number(after.id));
  },
};

/** `clientreset`: a new secret, answered once; the old one and its tokens stop working at once. */
export const clientResetEffect: ActionEffect = async ({ ctx, tx, row }) => {
  const { columns, secret } = freshSecret(ctx.services.paymentSecrets);
  await endTokens(tx, Number(row.id));
  return { changes: columns, answer: { client_id: row.client_id, client_secret: secret }, messageKey: "clients.reset_done" };
};
