/**
 * The daily business report binding (spec 2.5 dialogs, issue 3): getdaycountnoticeset answers the users bound to
 * a provider's report and a fresh binding address (authurl) for the QR code; daycountnoticeunbind removes one.
 * Binding happens on the page behind authurl: here the sandbox page /notice/sandbox/bind/{token}, where the person
 * who scanned enters the name the report is sent to (standing in for the messaging app's authorisation).
 */
import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, lt } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { PROVIDER_ROLES } from "../../../common/roleKeys";
import { writeAudit } from "../../auth/audit";
import { parseTenantId, resolveScope } from "../../auth/scope";
import { dailyReportBindTokens, dailyReportSubscribers } from "../../db/schema";
import { escapeHtml, phonePage } from "../../lib/htmlPage";
import { requestLanguage, translator, type Translate } from "../../lib/i18n";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { AppServices, OperationContext, OperationRegistry } from "../../protocol/registry";

const BIND_PATH = "/notice/sandbox/bind";
/** how long a binding QR code can be used */
const BIND_TOKEN_MS = 10 * 60 * 1000;
const NICKNAME_MAX = 64;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const READERS = PROVIDER_ROLES;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

async function providerOf(ctx: OperationContext, payload: Record<string, unknown>): Promise<number> {
  const scope = await resolveScope(ctx.db, ctx.auth!, payload);
  if (scope.sysid === null) throw new ApiFailure("api.scope_required");
  return scope.sysid;
}

export function registerDailyReportOperations(registry: OperationRegistry): void {
  registry.add({
    path: "adminapiv2",
    method: "getdaycountnoticeset",
    needsToken: true,
    roles: READERS,
    effect: "read",
    async handler(ctx) {
      // the dialog names the provider as `id`; naming two different providers is a mistake, not a choice
      const { id, sysid: named } = ctx.payload;
      if (id !== undefined && named !== undefined && String(id) !== String(named)) throw new ApiFailure("api.invalid_params", { field: "sysid" });
      const sysid = await providerOf(ctx, { sysid: id ?? named });
      const token = randomBytes(32).toString("base64url");
      await ctx.db.transaction(async (tx) => {
        await tx.delete(dailyReportBindTokens).where(lt(dailyReportBindTokens.expiresAt, ctx.now));
        await tx.insert(dailyReportBindTokens).values({ tokenHash: hashToken(token), sysid, expiresAt: new Date(ctx.now.getTime() + BIND_TOKEN_MS) });
      });
      const users = await ctx.db
        .select({ id: dailyReportSubscribers.id, nickname: dailyReportSubscribers.nickname, headurl: dailyReportSubscribers.headurl })
        .from(dailyReportSubscribers)
        .where(eq(dailyReportSubscribers.sysid, sysid))
        .orderBy(asc(dailyReportSubscribers.id));
      return { data: { daycount_notice_user: users, authurl: `${ctx.origin}${BIND_PATH}/${token}` } };
    },
  });

  registry.add({
    path: "adminapiv2",
    method: "daycountnoticeunbind",
    needsToken: true,
    roles: READERS,
    effect: "write",
    async handler(ctx) {
      const sysid = await providerOf(ctx, { sysid: ctx.payload.sysid });
      const id = parseTenantId(ctx.payload.id);
      if (id === undefined) throw notFound();
      const [removed] = await ctx.db
        .delete(dailyReportSubscribers)
        .where(and(eq(dailyReportSubscribers.id, id), eq(dailyReportSubscribers.sysid, sysid)))
        .returning();
      if (!removed) throw notFound();
      await writeAudit(ctx.db, {
        userId: ctx.auth?.userId,
        username: ctx.auth?.username,
        action: "daycountnoticeunbind",
        entity: "daily_report_subscriber",
        entityId: id,
        ip: ctx.ip,
        detail: { sysid, nickname: removed.nickname },
        sysid,
        schId: null,
      });
      return { messageKey: "api.unbound" };
    },
  });
}

function page(t: Translate, lang: string, body: string): string {
  return phonePage(lang, t("notice_sandbox.title"), body);
}

/** GET /notice/sandbox/bind/:token (the form) and POST (binds the name entered, once per token). */
export function registerDailyReportSandbox(app: FastifyInstance, services: AppServices): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 2048 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    const liveToken = async (token: string) => {
      if (!TOKEN_PATTERN.test(token)) return undefined;
      const [row] = await services.db
        .select()
        .from(dailyReportBindTokens)
        .where(and(eq(dailyReportBindTokens.tokenHash, hashToken(token)), gt(dailyReportBindTokens.expiresAt, services.clock.now())));
      return row;
    };
    const send = (request: FastifyRequest, reply: FastifyReply, status: number, body: (t: Translate) => string) => {
      const lang = requestLanguage(request.headers);
      const t = translator(lang);
      return reply.status(status).header("cache-control", "no-store").type("text/html; charset=utf-8").send(page(t, lang, body(t)));
    };
    const expired = (t: Translate) => `<p class="closed" data-testid="bind-expired">${escapeHtml(t("notice_sandbox.expired"))}</p>`;

    scope.get<{ Params: { token: string } }>(`${BIND_PATH}/:token`, async (request, reply) => {
      if (!(await liveToken(request.params.token))) return send(request, reply, 404, expired);
      return send(
        request,
        reply,
        200,
        (t) => `<p>${escapeHtml(t("notice_sandbox.hint"))}</p>
<form method="post" action="${BIND_PATH}/${escapeHtml(request.params.token)}">
<label for="nickname">${escapeHtml(t("notice_sandbox.nickname"))}</label>
<input id="nickname" name="nickname" maxlength="${NICKNAME_MAX}" required data-testid="bind-nickname">
<button type="submit" data-testid="bind-submit">${escapeHtml(t("notice_sandbox.bind"))}</button></form>`,
      );
    });

    scope.post<{ Params: { token: string }; Body: Record<string, string> | undefined }>(`${BIND_PATH}/:token`, async (request, reply) => {
      const nickname = String(request.body?.nickname ?? "").trim();
      if (nickname === "" || nickname.length > NICKNAME_MAX) return reply.redirect(`${BIND_PATH}/${encodeURIComponent(request.params.token)}`, 303);
      // a token binds once: taking it and binding are one transaction
      const bound = await services.db.transaction(async (tx) => {
        const [token] = await tx
          .delete(dailyReportBindTokens)
          .where(and(eq(dailyReportBindTokens.tokenHash, hashToken(request.params.token)), gt(dailyReportBindTokens.expiresAt, services.clock.now())))
          .returning();
        if (!token) return false;
        await tx.insert(dailyReportSubscribers).values({ sysid: token.sysid, openid: `sandbox-${randomBytes(12).toString("hex")}`, nickname });
        await writeAudit(tx, { action: "daycountnoticebind", entity: "daily_report_subscriber", ip: request.ip, detail: { sysid: token.sysid, nickname }, sysid: token.sysid, schId: null });
        return true;
      });
      if (!bound) return send(request, reply, 409, expired);
      return send(request, reply, 200, (t) => `<p class="done" data-testid="bind-done">${escapeHtml(t("notice_sandbox.done"))}</p>`);
    });
  });
}
