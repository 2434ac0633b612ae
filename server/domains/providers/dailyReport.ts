/**
 * The daily business report binding (spec 2.5 dialogs, issue 3): getdaycountnoticeset answers the users bound to
 * a provider's report and a fresh binding address (authurl) for the QR code; daycountnoticeunbind removes one.
 * Binding happens on the page behind authurl: WeChat's web authorisation of the platform's official account, whose
 * template messages carry the report; with the notices in the sandbox, a sandbox page where the person who scanned
 * enters the name the report is sent to.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, lt } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { PROVIDER_ROLES } from "../../../common/roleKeys";
import { auditCall, wechatPersonActor, writeAudit } from "../../auth/audit";
import { parseTenantId, resolveScope } from "../../auth/scope";
import { dailyReportBindTokens, dailyReportSubscribers } from "../../db/schema";
import { platformOfficialAccount } from "../../payments/merchants";
import { userInfo, userOfCode, WechatOAuthError } from "../../payments/wechatpay/oauth";
import { escapeHtml, phonePage } from "../../lib/htmlPage";
import { requestLanguage, translator, type Translate } from "../../lib/i18n";
import { ApiFailure, notFound } from "../../protocol/envelope";
import type { AppServices, OperationContext, OperationRegistry } from "../../protocol/registry";

const SANDBOX_BIND_PATH = "/notice/sandbox/bind";
const WECHAT_BIND_PATH = "/notice/bind";
/** how long a binding QR code can be used */
const BIND_TOKEN_MS = 10 * 60 * 1000;
const NICKNAME_MAX = 64;
const HEADURL_MAX = 500;
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
      // outside the sandbox the binding is WeChat's: it needs the official account the reports are sent from
      const sandbox = ctx.services.notify.sandbox;
      if (!sandbox && !(await platformOfficialAccount(ctx.services))) throw new ApiFailure("api.no_official_account");
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
      return { data: { daycount_notice_user: users, authurl: `${ctx.origin}${sandbox ? SANDBOX_BIND_PATH : WECHAT_BIND_PATH}/${token}` } };
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
      await auditCall(ctx.db, ctx, {
        action: "daycountnoticeunbind",
        entity: "daily_report_subscriber",
        entityId: id,
        detail: { sysid, nickname: removed.nickname },
        sysid,
        schId: null,
      });
      return { messageKey: "api.unbound" };
    },
  });
}

function page(t: Translate, lang: string, body: string): string {
  return phonePage(lang, t("notice_bind.title"), body);
}

/** Control characters are no part of a name; WeChat's nickname may carry them. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * The binding pages behind authurl. With the notices in the sandbox: GET /notice/sandbox/bind/:token, a form, and
 * POST, which binds the name entered. Otherwise WeChat's web OAuth of the platform's official account:
 * GET /notice/bind/:token sends the phone to WeChat's authorize page (snsapi_userinfo: the person agrees to show
 * their nickname and avatar), which sends it back to GET /notice/bind/:token/wechat with a code; the code gives
 * the person's openid, which the template messages of the report reach. A token binds once.
 */
export function registerDailyReportBinding(app: FastifyInstance, services: AppServices, originOf: (request: FastifyRequest) => string): void {
  void app.register(async (scope) => {
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
    const expired = (t: Translate) => `<p class="closed" data-testid="bind-expired">${escapeHtml(t("notice_bind.expired"))}</p>`;
    const done = (t: Translate) => `<p class="done" data-testid="bind-done">${escapeHtml(t("notice_bind.done"))}</p>`;
    /** takes the token and binds the person in one transaction: false when the token was used or expired meanwhile */
    const bindOnce = (token: string, person: { openid: string; nickname: string; headurl: string }, ip: string) =>
      services.db.transaction(async (tx) => {
        const [taken] = await tx
          .delete(dailyReportBindTokens)
          .where(and(eq(dailyReportBindTokens.tokenHash, hashToken(token)), gt(dailyReportBindTokens.expiresAt, services.clock.now())))
          .returning();
        if (!taken) return false;
        // a person bound before is bound once: their name and avatar are brought up to date
        await tx
          .insert(dailyReportSubscribers)
          .values({ sysid: taken.sysid, ...person })
          .onConflictDoUpdate({ target: [dailyReportSubscribers.sysid, dailyReportSubscribers.openid], set: { nickname: person.nickname, headurl: person.headurl } });
        await writeAudit(tx, wechatPersonActor(person.nickname, ip), { action: "daycountnoticebind", entity: "daily_report_subscriber", detail: { sysid: taken.sysid, nickname: person.nickname }, sysid: taken.sysid, schId: null });
        return true;
      });

    if (services.notify.sandbox) {
      scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 2048 }, (_request, body, done) =>
        done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      scope.get<{ Params: { token: string } }>(`${SANDBOX_BIND_PATH}/:token`, async (request, reply) => {
        if (!(await liveToken(request.params.token))) return send(request, reply, 404, expired);
        return send(
          request,
          reply,
          200,
          (t) => `<p>${escapeHtml(t("notice_bind.hint"))}</p>
<form method="post" action="${SANDBOX_BIND_PATH}/${escapeHtml(request.params.token)}">
<label for="nickname">${escapeHtml(t("notice_bind.nickname"))}</label>
<input id="nickname" name="nickname" maxlength="${NICKNAME_MAX}" required data-testid="bind-nickname">
<button type="submit" data-testid="bind-submit">${escapeHtml(t("notice_bind.bind"))}</button></form>`,
        );
      });
      scope.post<{ Params: { token: string }; Body: Record<string, string> | undefined }>(`${SANDBOX_BIND_PATH}/:token`, async (request, reply) => {
        const nickname = String(request.body?.nickname ?? "").trim();
        if (nickname === "" || nickname.length > NICKNAME_MAX) return reply.redirect(`${SANDBOX_BIND_PATH}/${encodeURIComponent(request.params.token)}`, 303);
        const person = { openid: `sandbox-${randomBytes(12).toString("hex")}`, nickname, headurl: "" };
        if (!(await bindOnce(request.params.token, person, request.ip))) return send(request, reply, 409, expired);
        return send(request, reply, 200, done);
      });
      return;
    }

    const callbackOf = (request: FastifyRequest, token: string) => `${originOf(request)}${WECHAT_BIND_PATH}/${token}/wechat`;
    scope.get<{ Params: { token: string } }>(`${WECHAT_BIND_PATH}/:token`, async (request, reply) => {
      const account = await platformOfficialAccount(services);
      if (!account || !(await liveToken(request.params.token))) return send(request, reply, 404, expired);
      const authorize = new URL(services.wechatOAuth.authorizeUrl);
      authorize.search = new URLSearchParams({
        appid: account.appid,
        redirect_uri: callbackOf(request, request.params.token),
        response_type: "code",
        scope: "snsapi_userinfo",
        state: "bind",
      }).toString();
      authorize.hash = "wechat_redirect";
      return reply.header("cache-control", "no-store").redirect(authorize.toString(), 302);
    });
    scope.get<{ Params: { token: string }; Querystring: { code?: unknown } }>(`${WECHAT_BIND_PATH}/:token/wechat`, async (request, reply) => {
      const account = await platformOfficialAccount(services);
      if (!account || !(await liveToken(request.params.token))) return send(request, reply, 404, expired);
      const code = typeof request.query.code === "string" ? request.query.code : "";
      // WeChat comes back without a code when the person did not agree
      if (code === "" || code.length > 128) return send(request, reply, 400, (t) => `<p class="closed" data-testid="bind-cancelled">${escapeHtml(t("notice_bind.wechat_cancelled"))}</p>`);
      let person: { openid: string; nickname: string; headurl: string };
      try {
        const user = await userOfCode(services.wechatOAuth, account, code);
        const profile = await userInfo(services.wechatOAuth, user);
        // a person may show no nickname: the console then names them "WeChat user" in its own language
        const nickname = profile.nickname.replace(CONTROL, "").trim().slice(0, NICKNAME_MAX);
        // an avatar is shown by the console only from WeChat's own image hosts (the console's content policy)
        const headurl = /^https:\/\/(thirdwx|wx)\.qlogo\.cn\/\S+$/.test(profile.headimgurl) && profile.headimgurl.length <= HEADURL_MAX ? profile.headimgurl : "";
        person = { openid: user.openid, nickname, headurl };
      } catch (err) {
        if (!(err instanceof WechatOAuthError)) throw err;
        request.log.warn({ errcode: err.errcode, message: err.message }, "binding the daily report through WeChat's OAuth failed");
        return send(request, reply, 502, (t) => `<p class="closed" data-testid="bind-failed">${escapeHtml(t("notice_bind.wechat_failed"))}</p>`);
      }
      if (!(await bindOnce(request.params.token, person, request.ip))) return send(request, reply, 409, expired);
      return send(request, reply, 200, done);
    });
  });
}
