/**
 * Who calls the open API: OAuth 2.0's client credentials grant (RFC 6749 4.4), the client authenticated by HTTP
 * Basic (2.3.1: its id and secret form-urlencoded, then base64), answered a bearer token (RFC 6750) of an hour, kept
 * as its SHA-256. Each call with the token finds its client still in use, from an allowed address, within its rate
 * limit (a window a minute per client, counted in the database so that every server process counts the same calls),
 * and acts as its client's provider, or its one school, and nothing else.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, gt, lt, lte, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { API_SCOPES, type ApiScope } from "../../../catalogue/clients";
import { loadProvider, type Authority } from "../../auth/authority";
import { pruneThrottle, recordFailures, releaseAttempts, reserveAttempts, type ThrottleKey, type ThrottleRule } from "../../auth/throttle";
import { queryRows, type Db } from "../../db/client";
import type { JobContext } from "../../jobs/registry";
import { apiClients, apiTokens } from "../../db/schema";
import { addressAllowed, addressMatcher, allowedAddresses, secretDigest } from "./clients";

/** how long a token lasts: short, so that a client switched off or narrowed is out within the hour at worst */
export const TOKEN_SECONDS = 3600;
/** wrong secrets per client id, and per address (any client): a secret is never guessed, a mistake is soon noticed */
const SIGN_IN_PER_CLIENT: ThrottleRule = { maxFailures: 10, windowMs: 10 * 60_000, firstLockMs: 10 * 60_000, maxLockMs: 3_600_000 };
const SIGN_IN_PER_IP: ThrottleRule = { maxFailures: 30, windowMs: 10 * 60_000, firstLockMs: 10 * 60_000, maxLockMs: 3_600_000 };
const RATE_WINDOW_MS = 60_000;
/** the prefix of the open API's throttle keys (sign-ins per client id and address, calls per client) */
const THROTTLE_PREFIX = "api-";

/** A value of the request refused, named by its place in it (`students[2].name`). */
export interface InputError {
  field: string;
  message: string;
}

/** A refusal in OAuth's words: the HTTP status, the error code (RFC 6749 5.2, RFC 6750 3.1) and what it means. */
export class OpenApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    /** translation key of its description, in the caller's language */
    readonly messageKey: string,
    readonly params: Record<string, string | number> = {},
    /** the request's value it is about (`students[2].name`), when one */
    readonly field?: string,
    readonly headers: Record<string, string> = {},
    /** each value refused, when there are several */
    readonly errors?: readonly InputError[],
  ) {
    super(code);
  }
}

/** The client a call acts for, found by its token. */
export interface ApiCaller {
  id: number;
  clientId: string;
  title: string;
  sysid: number;
  schId: number | null;
  scopes: readonly ApiScope[];
}

export type ClientRow = typeof apiClients.$inferSelect;

function digest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

const invalidClient = () =>
  new OpenApiError(401, "invalid_client", "openapi.error.invalid_client", {}, undefined, { "www-authenticate": 'Basic realm="openapi", charset="UTF-8"' });

/** The client id and secret of an `Authorization: Basic` header (each form-urlencoded, RFC 6749 2.3.1); null when none. */
export function basicCredentials(header: string | undefined): { clientId: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(header ?? "");
  if (!match) return null;
  const text = Buffer.from(match[1], "base64").toString("utf8");
  const colon = text.indexOf(":");
  if (colon < 0) return null;
  try {
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));
    return { clientId: decode(text.slice(0, colon)), secret: decode(text.slice(colon + 1)) };
  } catch {
    return null;
  }
}

/** The scopes asked for (space-separated, RFC 6749 3.3) within those the client has; all of its own when none. */
function grantedScopes(asked: string | undefined, own: readonly string[]): ApiScope[] {
  if (asked === undefined || asked.trim() === "") return API_SCOPES.filter((s) => own.includes(s));
  const wanted = asked.trim().split(/\s+/);
  if (wanted.some((s) => !own.includes(s))) throw new OpenApiError(400, "invalid_scope", "openapi.error.invalid_scope", { scopes: own.join(" ") });
  return API_SCOPES.filter((s) => wanted.includes(s));
}

/** A client that may act now: in use, and its provider in use too. */
async function clientInUse(db: Db, client: ClientRow): Promise<boolean> {
  if (client.status !== "1") return false;
  const provider = await loadProvider(db, client.sysid);
  return provider !== null && provider.status === "1";
}

function checkAddress(client: ClientRow, ip: string): void {
  let matcher;
  try {
    matcher = addressMatcher(allowedAddresses(client.allowed_ips));
  } catch {
    // a list stored before its check: nothing matches, rather than everything
    matcher = addressMatcher(["0.0.0.0/32"]);
  }
  if (!addressAllowed(matcher, ip)) throw new OpenApiError(403, "access_denied", "openapi.error.address", { ip });
}

/**
 * `POST /openapi/v1/oauth/token` {grant_type: client_credentials, scope?}: a bearer token for the client the Basic
 * header names, counted against the client id and the address (wrong secrets lock them for a while).
 */
export async function issueToken(db: Db, request: FastifyRequest, form: Record<string, string>, now: Date): Promise<Record<string, unknown>> {
  const credentials = basicCredentials(request.headers.authorization);
  if (!credentials) throw invalidClient();
  if (form.grant_type === undefined || form.grant_type === "") throw new OpenApiError(400, "invalid_request", "openapi.error.grant_missing", {}, "grant_type");
  if (form.grant_type !== "client_credentials") throw new OpenApiError(400, "unsupported_grant_type", "openapi.error.grant_type", {}, "grant_type");
  const keys: ThrottleKey[] = [
    { key: `${THROTTLE_PREFIX}client:${credentials.clientId.slice(0, 60)}`, rule: SIGN_IN_PER_CLIENT },
    { key: `${THROTTLE_PREFIX}ip:${request.ip}`, rule: SIGN_IN_PER_IP },
  ];
  const lockedMs = await reserveAttempts(db, keys, now);
  if (lockedMs > 0) throw new OpenApiError(429, "slow_down", "openapi.error.locked", { seconds: Math.ceil(lockedMs / 1000) }, undefined, { "retry-after": String(Math.ceil(lockedMs / 1000)) });
  const [client] = await db.select().from(apiClients).where(eq(apiClients.client_id, credentials.clientId));
  const proven = client?.secret_hash ? sameDigest(client.secret_hash, secretDigest(credentials.secret)) : false;
  if (!client || !proven) {
    await recordFailures(db, keys, now);
    throw invalidClient();
  }
  await releaseAttempts(
    db,
    keys.map((k) => k.key),
  );
  if (!(await clientInUse(db, client))) throw invalidClient();
  checkAddress(client, request.ip);
  const scopes = grantedScopes(form.scope, client.scopes);
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + TOKEN_SECONDS * 1000);
  await db.transaction(async (tx) => {
    // the client's tokens of the past go as it asks for a new one
    await tx.delete(apiTokens).where(and(eq(apiTokens.clientId, client.id), lt(apiTokens.expiresAt, now)));
    await tx.insert(apiTokens).values({ tokenHash: digest(token), clientId: client.id, scopes: scopes.join(" "), expiresAt });
    await tx.update(apiClients).set({ last_used_at: now }).where(eq(apiClients.id, client.id));
  });
  return { access_token: token, token_type: "Bearer", expires_in: TOKEN_SECONDS, scope: scopes.join(" ") };
}

const invalidToken = () => new OpenApiError(401, "invalid_token", "openapi.error.invalid_token", {}, undefined, { "www-authenticate": 'Bearer realm="openapi", error="invalid_token"' });

/** Counts a call of the client in its minute: the seconds to wait when its rate limit is reached, else 0. */
async function rateLimited(db: Db, client: ClientRow, now: Date): Promise<number> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const windowOver = sql`(t.window_start <= ${at} - ${RATE_WINDOW_MS}::double precision * interval '1 millisecond' or t.window_start > ${at})`;
  const [row] = await queryRows<{ failures: number; window_start: Date | string }>(
    db,
    sql`insert into login_throttle as t (key, failures, window_start, lock_count) values (${`${THROTTLE_PREFIX}rate:${client.id}`}, 1, ${at}, 0)
        on conflict (key) do update set
          failures = case when ${windowOver} then 1 else t.failures + 1 end,
          window_start = case when ${windowOver} then ${at} else t.window_start end
        returning failures, window_start`,
  );
  if (Number(row.failures) <= client.rate_limit) return 0;
  return Math.max(1, Math.ceil((new Date(row.window_start).getTime() + RATE_WINDOW_MS - now.getTime()) / 1000));
}

/**
 * The client of an `Authorization: Bearer` call, with the scope it needs: its token live, the client in use, the
 * address allowed, the call within its rate limit. Its last use is noted once a minute at most.
 */
export async function bearerCaller(db: Db, request: FastifyRequest, needs: ApiScope | null, now: Date): Promise<ApiCaller> {
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,100})\s*$/i.exec(request.headers.authorization ?? "");
  if (!match) throw invalidToken();
  const [found] = await db
    .select({ client: apiClients, scopes: apiTokens.scopes })
    .from(apiTokens)
    .innerJoin(apiClients, eq(apiClients.id, apiTokens.clientId))
    .where(and(eq(apiTokens.tokenHash, digest(match[1])), gt(apiTokens.expiresAt, now)));
  if (!found || !(await clientInUse(db, found.client))) throw invalidToken();
  const { client } = found;
  checkAddress(client, request.ip);
  const scopes = found.scopes.split(" ").filter((s): s is ApiScope => (API_SCOPES as readonly string[]).includes(s));
  if (needs !== null && !scopes.includes(needs)) {
    throw new OpenApiError(403, "insufficient_scope", "openapi.error.insufficient_scope", { scope: needs }, undefined, {
      "www-authenticate": `Bearer realm="openapi", error="insufficient_scope", scope="${needs}"`,
    });
  }
  const wait = await rateLimited(db, client, now);
  if (wait > 0) throw new OpenApiError(429, "rate_limited", "openapi.error.rate_limited", { limit: client.rate_limit, seconds: wait }, undefined, { "retry-after": String(wait) });
  if (!client.last_used_at || now.getTime() - client.last_used_at.getTime() > 60_000) {
    await db.update(apiClients).set({ last_used_at: now }).where(eq(apiClients.id, client.id));
  }
  return { id: client.id, clientId: client.client_id ?? "", title: client.title, sysid: client.sysid, schId: client.sch_id, scopes };
}

/**
 * The authority a client acts with inside the engine's operations: its provider's, confined to its school when it
 * has one. No account stands behind it (audit and logs name it `api:{client_id}`); it holds no role key, so that
 * nothing of the console is open to it but what the open API calls on its behalf.
 */
export async function callerAuthority(db: Db, caller: ApiCaller): Promise<Authority> {
  const provider = await loadProvider(db, caller.sysid);
  const schoolBound = caller.schId !== null;
  return {
    userId: 0,
    username: `api:${caller.clientId}`.slice(0, 50),
    name: caller.title,
    avatar: "",
    introduction: "",
    storedUserType: schoolBound ? "service_schadmin" : "service",
    userType: schoolBound ? "service_schadmin" : "service",
    isSuperadmin: "N",
    sysid: caller.sysid,
    schid: null,
    provider,
    school: null,
    facts: { user_type: schoolBound ? "service_schadmin" : "service", servicer_ver: provider?.servicerVer ?? "v2", select_paymode: "N", xcx_upload: "N", is_superadmin: "N", is_show_fee: "N" },
    roles: [],
    usable: true,
    assignedSchoolIds: schoolBound ? [caller.schId!] : [],
    pickupPointIds: [],
    apiClient: true,
  };
}

export const PRUNE_API_TOKENS = "openapi_prune";
export const PRUNE_API_TOKENS_EVERY_SECONDS = 3600;

/** Hourly: tokens past their time, and the open API's throttle keys unused for a day (their locks long over). */
export async function pruneApiTokens({ db, now }: JobContext): Promise<{ tokens: number; throttle_keys: number }> {
  const tokens = await db.delete(apiTokens).where(lte(apiTokens.expiresAt, now)).returning({ hash: apiTokens.tokenHash });
  const throttleKeys = await pruneThrottle(db, THROTTLE_PREFIX, new Date(now.getTime() - 24 * 3_600_000));
  return { tokens: tokens.length, throttle_keys: throttleKeys };
}
