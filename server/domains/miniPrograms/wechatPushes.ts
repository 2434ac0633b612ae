/**
 * What WeChat's third-party platform sends the platform:
 *
 * - `POST /miniapp/wechat/auth-events` (the platform's 授权事件接收 URL): the verify ticket every ten minutes, an
 *   owner's authorisation (`authorized`, `updateauthorized`: its code made into the app's tokens at once) and its end
 *   (`unauthorized`: the app's tokens dropped).
 * - `POST /miniapp/wechat/events/:appid` (消息与事件接收 URL, `$APPID$` in WeChat's setting): an app's audit
 *   result, `weapp_audit_success`, `weapp_audit_fail` (reason) or `weapp_audit_delay`.
 *
 * (An owner's authorisation through the link the console hands out: ./authorization.ts.)
 *
 * A push is answered `success` once it is verified and applied, and is refused (400) when its signature or
 * encryption is wrong, before a byte of it is believed. Every push concerning an app is on its list of calls.
 */
import { and, eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { miniPrograms } from "../../db/schema";
import type { Row } from "../../engine/hooks";
import { translator } from "../../lib/i18n";
import { ApiFailure } from "../../protocol/envelope";
import type { AppServices } from "../../protocol/registry";
import { PaymentKeyMissingError, SecretDecryptionError } from "../../payments/secrets";
import { bindApp } from "./authorization";
import { recordCall } from "./calls";
import { PublisherError } from "./publisher";
import { WechatCryptError } from "./wechatCrypt";
import { configuredWechatPlatform, type WechatOpenPlatform } from "./wechatOpen";

const WECHAT_AUTH_EVENTS_PATH = "/miniapp/wechat/auth-events";
const WECHAT_APP_EVENTS_PATH = "/miniapp/wechat/events";
const PUSH_BODY_LIMIT = 16 * 1024;

async function appByAppid(services: AppServices, appid: string): Promise<Row | undefined> {
  return (await services.db.select().from(miniPrograms).where(and(eq(miniPrograms.appid, appid), eq(miniPrograms.platform, "wechat"))))[0] as Row | undefined;
}

/** What a verified push of the authorisation events does. */
async function applyAuthEvent(services: AppServices, platform: WechatOpenPlatform, push: Record<string, string>): Promise<void> {
  const type = push.InfoType;
  if (type === "component_verify_ticket") {
    if (push.ComponentVerifyTicket) await platform.keepTicket(push.ComponentVerifyTicket);
    return;
  }
  const app = push.AuthorizerAppid ? await appByAppid(services, push.AuthorizerAppid) : undefined;
  // an app nobody bound here: WeChat is answered, nothing is kept
  if (!app) return;
  if ((type === "authorized" || type === "updateauthorized") && push.AuthorizationCode) {
    await bindApp(services, platform, app, await platform.queryAuth(push.AuthorizationCode), `push:${type}`);
  } else if (type === "unauthorized") {
    await services.db.transaction(async (tx) => {
      await tx.update(miniPrograms).set({ auth_status: "unauthorized", auth_refresh_token: null, auth_access_token: null, auth_token_expires_at: null }).where(eq(miniPrograms.id, Number(app.id)));
      await recordCall(tx, app, "push:unauthorized", {}, 0, { auth_status: "unauthorized" }, services.clock.now());
    });
  }
}

/** An audit's result as WeChat pushes it: the app leaves `auditing` for what it says. */
async function applyAppEvent(services: AppServices, appid: string, push: Record<string, string>): Promise<void> {
  const app = await appByAppid(services, appid);
  if (!app) return;
  const t = translator("zh");
  const changes: Row | undefined =
    push.Event === "weapp_audit_success"
      ? { publish_status: "audit_passed", audit_reason: null }
      : push.Event === "weapp_audit_fail"
        ? { publish_status: "audit_failed", audit_reason: (push.Reason || t("miniapps.audit_refused")).slice(0, 500) }
        : push.Event === "weapp_audit_delay"
          ? { audit_reason: (push.Reason || t("miniapps.audit_delayed")).slice(0, 500) }
          : undefined;
  if (!changes) return;
  await services.db.transaction(async (tx) => {
    // only an app in audit: a late or repeated push changes nothing that moved on
    const moved = await tx
      .update(miniPrograms)
      .set(changes)
      .where(and(eq(miniPrograms.id, Number(app.id)), eq(miniPrograms.publish_status, "auditing")))
      .returning({ id: miniPrograms.id });
    const { Encrypt: _encrypted, ...told } = push;
    await recordCall(tx, app, `push:${push.Event}`, told, 0, { applied: moved.length > 0 }, services.clock.now());
  });
}

export function registerWechatPushRoutes(app: FastifyInstance, services: AppServices): void {
  void app.register(async (scope) => {
    for (const type of ["text/xml", "application/xml"]) {
      scope.addContentTypeParser(type, { parseAs: "string", bodyLimit: PUSH_BODY_LIMIT }, (_request, body, done) => done(null, body));
    }

    /** Verifies and opens a push, then applies it; refuses what is not WeChat's for this platform. */
    async function receive(request: FastifyRequest, apply: (platform: WechatOpenPlatform, push: Record<string, string>) => Promise<void>): Promise<{ status: number; body: string }> {
      let platform: WechatOpenPlatform | null;
      try {
        platform = await configuredWechatPlatform(services);
      } catch (err) {
        if (err instanceof ApiFailure || err instanceof PaymentKeyMissingError || err instanceof SecretDecryptionError) platform = null;
        else throw err;
      }
      if (!platform) return { status: 404, body: "not configured" };
      let push: Record<string, string>;
      try {
        push = platform.crypt.open(request.query as Record<string, string>, typeof request.body === "string" ? request.body : "");
      } catch (err) {
        if (!(err instanceof WechatCryptError)) throw err;
        request.log.warn({ wechatPush: { refused: err.message } }, "WeChat push refused");
        return { status: 400, body: "refused" };
      }
      try {
        await apply(platform, push);
      } catch (err) {
        if (!(err instanceof PublisherError)) throw err;
        // WeChat pushes again: the next may find the platform answering
        request.log.warn({ wechatPush: { type: push.InfoType ?? push.Event, errcode: err.errcode } }, "WeChat push not applied");
        return { status: 503, body: "retry" };
      }
      // every push is in the server's log; one concerning an app is on its list of calls too
      request.log.info({ wechatPush: { type: push.InfoType ?? push.Event, appid: push.AuthorizerAppid } }, "WeChat push applied");
      return { status: 200, body: "success" };
    }

    scope.post(WECHAT_AUTH_EVENTS_PATH, async (request, reply) => {
      const answer = await receive(request, (platform, push) => applyAuthEvent(services, platform, push));
      return reply.status(answer.status).type("text/plain").send(answer.body);
    });

    scope.post<{ Params: { appid: string } }>(`${WECHAT_APP_EVENTS_PATH}/:appid`, async (request, reply) => {
      const answer = await receive(request, (_platform, push) => applyAppEvent(services, request.params.appid, push));
      return reply.status(answer.status).type("text/plain").send(answer.body);
    });
  });
}
