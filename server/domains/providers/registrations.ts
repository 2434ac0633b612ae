/**
 * Providers who sign up (catalogue/registrations.ts). Public operations of the registration pages (/register):
 *
 * - `registerapply` {org, contact, mobile, email, region, licence_images, message}: an application, counted against
 *   the address (5 an hour) and the mobile (3 a day), one refused given back; refused naming the field where the
 *   organisation is a provider already, or where the mobile or the organisation has an application waiting or
 *   approved. Answers `follow_token`, the applicant's link to follow it (kept as its SHA-256 only).
 * - `registerstatus` {token}: the application as its applicant follows it: its state, the reason of a rejection, and
 *   once approved while no password is set, a one-time `password_token` (each asking makes a new one, valid a day,
 *   the one before no longer).
 * - `registerpassword` {token, password, password2}: the first administrator's password, set once through that token.
 *
 * And the operators' decision, `registerreview` (the action engine locks the application and audits it): approved,
 * one transaction makes the provider (its title the organisation's, its version and term as chosen) and its first
 * administrator (the username chosen, no password usable until the applicant sets one); rejected, with its reason.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { registrationEntity } from "../../../catalogue/registrations";
import type { FieldDecl } from "../../../common/catalogue";
import { auditCall, callerActor, writeAudit } from "../../auth/audit";
import { recordFailures, releaseAttempts, reserveAttempts, type ThrottleKey, type ThrottleRule } from "../../auth/throttle";
import { usernameMatches, usernameUnavailable } from "../../auth/usernames";
import { providerRegistrations, providers, users } from "../../db/schema";
import type { ActionEffect } from "../../engine/actions";
import { checkPayload } from "../../engine/declared";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { MIN_PASSWORD_LENGTH } from "../site/site";

const APPLIES_PER_IP: ThrottleRule = { maxFailures: 5, windowMs: 60 * 60_000, firstLockMs: 60 * 60_000, maxLockMs: 24 * 60 * 60_000 };
const APPLIES_PER_MOBILE: ThrottleRule = { maxFailures: 3, windowMs: 24 * 60 * 60_000, firstLockMs: 24 * 60 * 60_000, maxLockMs: 24 * 60 * 60_000 };
/** how long a link to set the first password stays good */
const PASSWORD_LINK_MS = 24 * 60 * 60_000;

const fieldOf = (name: string) => registrationEntity.fields.find((f) => f.name === name)!;
const applyFields: FieldDecl[] = ["org", "contact", "mobile", "email", "region", "licence_images", "message"].map(fieldOf);
const tokenField: FieldDecl = { name: "token", type: "string", label: "register.field.token", required: true, min: 20, max: 100, pattern: "^[A-Za-z0-9_-]+$" };
const passwordFields: FieldDecl[] = [
  tokenField,
  { name: "password", type: "string", label: "register.field.password", required: true, min: MIN_PASSWORD_LENGTH, max: 64 },
  { name: "password2", type: "string", label: "register.field.password2", required: true, max: 64 },
];

function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** A refusal naming a field of the form, in the caller's language. */
function formFailure(ctx: OperationContext, field: string, messageKey: string): ApiFailure {
  return new ApiFailure(messageKey, {}, { errors: [{ field, message: ctx.t(messageKey) }] });
}

async function apply(ctx: OperationContext) {
  const input = checkPayload(ctx, applyFields);
  const org = String(input.org);
  const mobile = String(input.mobile);
  const asked: ThrottleKey[] = [
    { key: `register:ip:${ctx.ip}`, rule: APPLIES_PER_IP },
    { key: `register:mobile:${mobile}`, rule: APPLIES_PER_MOBILE },
  ];
  const lockedMs = await reserveAttempts(ctx.db, asked, ctx.now);
  if (lockedMs > 0) throw new ApiFailure("register.throttled", { minutes: Math.max(1, Math.ceil(lockedMs / 60_000)) });
  const followToken = newToken();
  try {
    await ctx.db.transaction(async (tx) => {
      // one application at a time per organisation and per mobile: the check and the insert under one lock
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${0x72656731})`);
      const [provider] = await tx.select({ id: providers.id }).from(providers).where(sql`lower(${providers.title}) = lower(${org})`);
      if (provider) throw formFailure(ctx, "org", "register.errors.org_is_provider");
      const open = await tx
        .select({ org: providerRegistrations.org, mobile: providerRegistrations.mobile })
        .from(providerRegistrations)
        .where(and(inArray(providerRegistrations.status, ["pending", "approved"]), or(sql`lower(${providerRegistrations.org}) = lower(${org})`, eq(providerRegistrations.mobile, mobile))));
      if (open.some((r) => r.org.toLowerCase() === org.toLowerCase())) throw formFailure(ctx, "org", "register.errors.org_applied");
      if (open.length > 0) throw formFailure(ctx, "mobile", "register.errors.mobile_applied");
      const [made] = await tx
        .insert(providerRegistrations)
        .values({ ...(input as typeof providerRegistrations.$inferInsert), status: "pending", ip: ctx.ip.slice(0, 64), follow_hash: digest(followToken), created_at: ctx.now })
        .returning({ id: providerRegistrations.id });
      await writeAudit(tx, callerActor(ctx), { action: "registerapply", entity: "registration", entityId: made.id, detail: { org, mobile }, sysid: null, schId: null });
    });
  } catch (err) {
    await releaseAttempts(ctx.db, asked.map((k) => k.key));
    throw err;
  }
  // the address or the mobile whose applications are used up is held back from here on
  await recordFailures(ctx.db, asked, ctx.now);
  return { messageKey: "register.applied", data: { items: { follow_token: followToken } } };
}

async function applicationOf(ctx: OperationContext, token: string) {
  const [found] = await ctx.db.select().from(providerRegistrations).where(eq(providerRegistrations.follow_hash, digest(token)));
  if (!found) throw new ApiFailure("register.errors.unknown_link");
  return found;
}

async function status(ctx: OperationContext) {
  const { token } = checkPayload(ctx, [tokenField]);
  const found = await applicationOf(ctx, String(token));
  let passwordToken: string | null = null;
  if (found.status === "approved" && !found.password_set_at) {
    passwordToken = newToken();
    await ctx.db
      .update(providerRegistrations)
      .set({ password_hash: digest(passwordToken), password_expires_at: new Date(ctx.now.getTime() + PASSWORD_LINK_MS) })
      .where(eq(providerRegistrations.id, found.id));
  }
  return {
    data: {
      items: {
        org: found.org,
        contact: found.contact,
        status: found.status,
        created_at: found.created_at,
        reviewed_at: found.reviewed_at,
        reject_reason: found.status === "rejected" ? found.reject_reason : null,
        username: found.status === "approved" ? found.username : null,
        password_set: found.password_set_at !== null,
        password_token: passwordToken,
      },
    },
  };
}

async function setPassword(ctx: OperationContext) {
  const input = checkPayload(ctx, passwordFields);
  if (input.password !== input.password2) throw formFailure(ctx, "password2", "api.password_mismatch");
  const passwordHash = await ctx.services.hasher.hash(String(input.password));
  const username = await ctx.db.transaction(async (tx) => {
    // the link works once, before it expires, and only while no password is set
    const [found] = await tx
      .update(providerRegistrations)
      .set({ password_set_at: ctx.now, password_hash: null, password_expires_at: null })
      .where(and(eq(providerRegistrations.password_hash, digest(String(input.token))), gt(providerRegistrations.password_expires_at, ctx.now), isNull(providerRegistrations.password_set_at), eq(providerRegistrations.status, "approved")))
      .returning({ id: providerRegistrations.id, provider_id: providerRegistrations.provider_id, username: providerRegistrations.username });
    if (!found?.provider_id || !found.username) throw new ApiFailure("register.errors.password_link");
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: ctx.now })
      .where(and(eq(users.sysid, found.provider_id), usernameMatches(found.username)))
      .returning({ id: users.id });
    if (!user) throw new ApiFailure("register.errors.password_link");
    await writeAudit(tx, callerActor(ctx), { action: "registerpassword", entity: "user", entityId: user.id, detail: { registration: found.id }, sysid: found.provider_id, schId: null });
    return found.username;
  });
  return { messageKey: "register.password_set", data: { items: { username } } };
}

/** registerreview: approved, the provider and its first administrator made; rejected, with its reason. */
export const registerReviewEffect: ActionEffect = async ({ ctx, tx, row, input }) => {
  const reviewed = { reviewed_by: ctx.auth!.username, reviewed_at: ctx.now };
  if (input.result === "reject") return { changes: { ...reviewed, reject_reason: String(input.reason) }, messageKey: "register.rejected" };
  const org = String(row.org);
  const [sameTitle] = await tx.select({ id: providers.id }).from(providers).where(sql`lower(${providers.title}) = lower(${org})`);
  if (sameTitle) throw new ApiFailure("register.errors.org_is_provider");
  const username = String(input.username);
  const [taken] = await tx.select({ id: users.id }).from(users).where(usernameMatches(username));
  if (taken) throw usernameUnavailable(ctx.t);
  const [provider] = await tx
    .insert(providers)
    .values({ title: org, contact: String(row.contact), phone: String(row.mobile), servicer_ver: String(input.servicer_ver), end_time: String(input.end_time), status: "1" })
    .returning({ id: providers.id });
  // no password anyone knows until the applicant sets one through its link
  const passwordHash = await ctx.services.hasher.hash(newToken());
  const [user] = await tx.insert(users).values({ username, passwordHash, name: org, userType: "service", sysid: provider.id }).returning({ id: users.id });
  await auditCall(tx, ctx, { action: "useradd", entity: "user", entityId: user.id, detail: { username, user_type: "service", sysid: provider.id, registration: row.id }, sysid: provider.id, schId: null });
  return { changes: { ...reviewed, provider_id: provider.id, username }, messageKey: "register.approved", messageParams: { username }, audit: { detail: { provider_id: provider.id, username } } };
};

export function registerRegistrationOperations(registry: OperationRegistry): void {
  registry.add({ path: "adminapiv2", method: "registerapply", needsToken: false, handler: apply });
  registry.add({ path: "adminapiv2", method: "registerstatus", needsToken: false, handler: status });
  registry.add({ path: "adminapiv2", method: "registerpassword", needsToken: false, handler: setPassword });
}
