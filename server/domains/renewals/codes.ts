/**
 * Activation codes (spec 4.3, 4.4): actcodeadd generates a batch; renew (a school) and delay_foractcode (a
 * provider) redeem one. A code is 20 Crockford base32 characters (100 random bits) shown as
 * XXXX-XXXX-XXXX-XXXX-XXXX. Redemption is one conditional UPDATE (status unused, target, binding, expiry), so of two
 * concurrent attempts on one code exactly one wins; wrong codes count against the user and the address, each attempt
 * counted before the code is looked at.
 */
import { randomBytes, randomInt } from "node:crypto";
import { and, eq, gte, isNull, or, type SQL } from "drizzle-orm";
import { businessDay } from "../../../common/term";
import { auditCall, callerActor } from "../../auth/audit";
import { loadProvider, loadSchool } from "../../auth/authority";
import { parseTenantId, resolveScope, schoolOfWrite } from "../../auth/scope";
import { recordFailures, releaseAttempts, reserveAttempts, type ThrottleKey } from "../../auth/throttle";
import { actcodeAddOperation } from "../../../resources.config";
import { tableColumn } from "../../db/catalogueTables";
import type { DbOrTx } from "../../db/client";
import { activationCodes } from "../../db/schema";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { missingField, registerDeclared } from "../../engine/declared";
import { enabledPackage } from "./packages";
import { extendProviderTerm, extendSchoolTerm, type ExtendedTerm } from "./terms";

/** Crockford's base32: no I, L, O or U */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CODE_LENGTH = 20;

/** A new code: 100 random bits as 20 base32 characters in groups of four. */
export function generateCode(): string {
  const bytes = randomBytes(13);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let chars = "";
  for (let i = 0; i < CODE_LENGTH; i++) chars += ALPHABET[Number((bits >> BigInt(5 * i)) & 31n)];
  return chars.match(/.{4}/g)!.join("-");
}

/** A code as typed (any case, with or without dashes or spaces, I/L for 1 and O for 0) in its stored form. */
export function normaliseCode(input: unknown): string | null {
  if (typeof input !== "string" || input.length > 64) return null;
  const chars = input
    .toUpperCase()
    .replace(/[\s-]/g, "")
    .replace(/[IL]/g, "1")
    .replace(/O/g, "0");
  if (chars.length !== CODE_LENGTH || [...chars].some((c) => !ALPHABET.includes(c))) return null;
  return chars.match(/.{4}/g)!.join("-");
}

const col = (name: string) => tableColumn(activationCodes, name);

/** The checked actcodeadd payload (catalogue/renewals.ts actcodeAddOperation). */
interface BatchPayload {
  count: number;
  target: "school" | "service";
  meal_id: number | null;
  term_months: number | null;
  expires_on: string;
  sysid: number | null;
  sch_id: number | null;
  remark: string | null;
}

function throttleKeys(ctx: OperationContext): ThrottleKey[] {
  return [
    { key: `redeem:user:${ctx.auth?.userId ?? 0}`, rule: ctx.services.throttle.perRedeemer },
    { key: `redeem:ip:${ctx.ip}`, rule: ctx.services.throttle.perIp },
  ];
}

interface Redeemer {
  target: "school" | "service";
  sysid: number;
  schId: number | null;
  /** extends the redeemer's term by the code's months inside the redemption's transaction */
  extend(tx: DbOrTx, code: Record<string, unknown>): Promise<ExtendedTerm>;
}

/**
 * Redeems a code for a school or a provider: throttled, one conditional UPDATE, then the term extension in the
 * same transaction. Failures say only whether the code is unknown, used or expired (a code bound to someone else
 * reads as unknown).
 */
async function redeem(ctx: OperationContext, rawCode: unknown, redeemer: Redeemer): Promise<ExtendedTerm> {
  // counted before the code is looked at, so that concurrent guesses get no more tries than the rules allow
  const keys = throttleKeys(ctx);
  const lockedMs = await reserveAttempts(ctx.db, keys, ctx.now);
  if (lockedMs > 0) throw new ApiFailure("api.code_locked", { seconds: Math.ceil(lockedMs / 1000) });
  const notAGuess = () => releaseAttempts(ctx.db, keys.map((k) => k.key));

  const code = normaliseCode(rawCode);
  const today = businessDay(ctx.now);
  const usable: SQL[] = [
    eq(col("status"), "unused"),
    eq(col("target"), redeemer.target),
    gte(col("expires_on"), today),
    or(isNull(col("sysid")), eq(col("sysid"), redeemer.sysid))!,
  ];
  if (redeemer.target === "school") usable.push(or(isNull(col("sch_id")), eq(col("sch_id"), redeemer.schId ?? -1))!);

  let term: ExtendedTerm | null = null;
  try {
    if (code !== null) {
      term = await ctx.db.transaction(async (tx) => {
        const [used] = await tx
          .update(activationCodes)
          .set({ status: "used", used_at: ctx.now, used_by: ctx.auth?.username ?? "", used_sysid: redeemer.sysid, used_sch_id: redeemer.schId })
          .where(and(eq(col("code"), code), ...usable))
          .returning();
        return used ? redeemer.extend(tx, used) : null;
      });
    }
  } catch (err) {
    // a good code whose renewal failed (and was rolled back)
    await notAGuess();
    throw err;
  }
  if (term) {
    await notAGuess();
    return term;
  }

  await auditCall(ctx.db, ctx, { action: "actcode_refused", entity: "actcode", entityId: code ?? "", detail: { target: redeemer.target, sysid: redeemer.sysid, sch_id: redeemer.schId }, sysid: redeemer.sysid, schId: redeemer.schId });
  // why it failed, without telling codes bound to someone else from unknown ones
  const [row] = code === null ? [] : await ctx.db.select().from(activationCodes).where(eq(col("code"), code));
  const theirs =
    row &&
    row.target === redeemer.target &&
    (row.sysid === null || row.sysid === redeemer.sysid) &&
    (redeemer.target !== "school" || row.sch_id === null || row.sch_id === redeemer.schId);
  // only a code that reads as not valid counts as a wrong one: one of theirs that is used (maybe by a
  // concurrent redemption a moment ago) or expired was typed right
  if (!theirs || row.status === "void") {
    await recordFailures(ctx.db, keys, ctx.now);
    throw new ApiFailure("api.code_invalid");
  }
  await notAGuess();
  if (row.status === "used") throw new ApiFailure("api.code_used");
  throw new ApiFailure("api.code_expired");
}

function codeExtension(code: Record<string, unknown>) {
  return { way: "code" as const, title: String(code.title), months: Number(code.term_months), feeFen: 0, actCode: String(code.code) };
}

export function registerCodeOperations(registry: OperationRegistry): void {
  registerDeclared<BatchPayload>(registry, actcodeAddOperation, async (ctx, p) => {
    // a package or a number of months, never both
    if ((p.meal_id === null) === (p.term_months === null)) throw missingField(actcodeAddOperation, "term_months", ctx);
    if (p.expires_on < businessDay(ctx.now)) throw new ApiFailure("api.invalid_params", { field: "expires_on" });
    let sysid = parseTenantId(p.sysid);
    const schId = p.target === "school" ? parseTenantId(p.sch_id) : undefined;
    let boundTitle: string | null = null;
    if (schId !== undefined) {
      const school = await loadSchool(ctx.db, schId);
      if (!school || (sysid !== undefined && school.sysid !== sysid)) throw notFound();
      sysid = school.sysid;
      boundTitle = school.title;
    } else if (sysid !== undefined) {
      const provider = await loadProvider(ctx.db, sysid);
      if (!provider) throw notFound();
      boundTitle = provider.title;
    }
    const meal = p.term_months === null ? await enabledPackage(ctx.db, p.meal_id) : null;
    const months = meal?.termMonths ?? p.term_months!;
    const title = meal?.title ?? ctx.t("api.code_term_title", { count: months });
    const batchNo = `B${businessDay(ctx.now).replace(/-/g, "")}${String(randomInt(1_000_000)).padStart(6, "0")}`;
    const codes = new Set<string>();
    while (codes.size < p.count) codes.add(generateCode());
    await ctx.db.transaction(async (tx) => {
      await tx.insert(activationCodes).values(
        [...codes].map((code) => ({
          code,
          batch_no: batchNo,
          target: p.target,
          sysid: sysid ?? null,
          sch_id: schId ?? null,
          bound_title: boundTitle,
          meal_id: meal?.id ?? null,
          title,
          term_months: months,
          expires_on: p.expires_on,
          remark: p.remark?.trim() || null,
          created_by: ctx.auth?.username ?? "",
        })),
      );
      await auditCall(tx, ctx, {
        action: "actcodeadd",
        entity: "actcode",
        entityId: batchNo,
        detail: { count: p.count, target: p.target, term_months: months, meal_id: meal?.id, sysid, sch_id: schId, expires_on: p.expires_on },
        // the provider and school the codes are bound to (unbound: the platform's)
        sysid: sysid ?? null,
        schId: schId ?? null,
      });
    });
    return { messageKey: "api.codes_created", messageParams: { count: p.count }, data: { items: { batch_no: batchNo, count: p.count } } };
  });

  registry.add({
    path: "adminapiv2",
    method: "renew",
    needsToken: true,
    roles: ["school", "schoolv2", "service", "servicev2"],
    effect: "renewal",
    async handler(ctx) {
      const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
      const schId = schoolOfWrite(scope, ctx.payload);
      if (scope.sysid === null) throw new ApiFailure("api.school_required");
      const term = await redeem(ctx, ctx.payload.code, {
        target: "school",
        sysid: scope.sysid,
        schId,
        extend: (tx, code) => extendSchoolTerm(tx, schId, codeExtension(code), callerActor(ctx), ctx.now),
      });
      return { messageKey: "api.renewed", messageParams: { end: term.newEnd }, data: { items: { endtime: term.newEnd } } };
    },
  });

  registry.add({
    path: "adminapiv2",
    method: "delay_foractcode",
    needsToken: true,
    roles: ["service", "servicev2"],
    effect: "renewal",
    async handler(ctx) {
      const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
      const sysid = scope.sysid;
      if (sysid === null) throw new ApiFailure("api.scope_required");
      const term = await redeem(ctx, ctx.payload.act_code, {
        target: "service",
        sysid,
        schId: null,
        extend: (tx, code) => extendProviderTerm(tx, sysid, codeExtension(code), callerActor(ctx), ctx.now),
      });
      return { messageKey: "api.renewed", messageParams: { end: term.newEnd }, data: { items: { end_time: term.newEnd } } };
    },
  });
}
