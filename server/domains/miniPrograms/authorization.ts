/**
 * An app's owner authorises the platform to publish it, through a link the console hands out (miniappauthorize):
 *
 * - `GET /miniapp/authorize?link=…` opens the platform's authorisation page for the app: WeChat's with a fresh
 *   pre-auth code (it lasts ten minutes, the link a week), or Alipay's third-party app authorisation page.
 * - The platform returns the owner to `GET /miniapp/authorized?link=…` with its code (WeChat's `auth_code`, Alipay's
 *   `app_auth_code`), made into the app's tokens at once; a code for another app binds nothing.
 *
 * The link's token is the app and the link's end sealed with the server's key: nobody else can make one. The pages
 * are small server-rendered ones in the owner's language.
 */
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { miniPrograms } from "../../db/schema";
import type { Row } from "../../engine/hooks";
import { escapeHtml, phonePage } from "../../lib/htmlPage";
import { requestLanguage, translator } from "../../lib/i18n";
import { ApiFailure } from "../../protocol/envelope";
import type { AppServices } from "../../protocol/registry";
import { PaymentKeyMissingError, SecretDecryptionError } from "../../payments/secrets";
import { configuredAlipayPlatform, type AlipayOpenPlatform } from "./alipayOpen";
import type { AppTokens } from "./appTokens";
import { recordCall } from "./calls";
import { PublisherError } from "./publisher";
import { configuredWechatPlatform, type WechatOpenPlatform } from "./wechatOpen";

const AUTHORIZE_PATH = "/miniapp/authorize";
const AUTHORIZED_PATH = "/miniapp/authorized";
/** how long an authorisation link the console hands out opens the platform's page */
const AUTHORIZE_LINK_DAYS = 7;
const LINK_PURPOSE = "miniapp.authorize";

/** The link the app's owner opens, for a week. */
export function authorizeLink(services: Pick<AppServices, "paymentSecrets">, origin: string, appId: number, now: Date): string {
  const token = services.paymentSecrets.encrypt(`${appId}.${now.getTime() + AUTHORIZE_LINK_DAYS * 86_400_000}`, LINK_PURPOSE);
  return `${origin}${AUTHORIZE_PATH}?link=${encodeURIComponent(token)}`;
}

/** The app a link names while it lasts, else undefined. */
function linkedApp(services: AppServices, link: unknown): number | undefined {
  if (typeof link !== "string") return undefined;
  try {
    const [appId, until] = services.paymentSecrets.decrypt(link, LINK_PURPOSE).split(".").map(Number);
    return appId && until && until > services.clock.now().getTime() ? appId : undefined;
  } catch (err) {
    if (err instanceof SecretDecryptionError) return undefined;
    throw err;
  }
}

/** The platform chosen for the app's kind, or null (the sandbox, or its credentials missing). */
async function platformOf(services: AppServices, app: Row): Promise<WechatOpenPlatform | AlipayOpenPlatform | null> {
  try {
    return app.platform === "alipay" ? await configuredAlipayPlatform(services) : await configuredWechatPlatform(services);
  } catch (err) {
    if (err instanceof ApiFailure || err instanceof PaymentKeyMissingError || err instanceof SecretDecryptionError) return null;
    throw err;
  }
}

/** An owner's tokens kept for the app when they are the app's own; whether they were. */
export async function bindApp(services: AppServices, platform: WechatOpenPlatform | AlipayOpenPlatform, app: Row, tokens: AppTokens & { appid: string }, via: string): Promise<boolean> {
  const now = services.clock.now();
  if (tokens.appid !== app.appid) {
    await recordCall(services.db, app, via, { authorizer_appid: tokens.appid }, 0, { bound: false, reason: "another app" }, now);
    return false;
  }
  await services.db.transaction(async (tx) => {
    await platform.keepAuthorization(tx, Number(app.id), tokens);
    await tx.update(miniPrograms).set({ last_error: null }).where(eq(miniPrograms.id, Number(app.id)));
    await recordCall(tx, app, via, { authorizer_appid: tokens.appid }, 0, { auth_status: "authorized" }, now);
  });
  return true;
}

export function registerAuthorizationRoutes(app: FastifyInstance, services: AppServices, originOf: (request: FastifyRequest) => string): void {
  const page = (request: FastifyRequest, reply: FastifyReply, status: number, textKey: string) => {
    const language = requestLanguage(request.headers);
    const t = translator(language);
    return reply
      .status(status)
      .type("text/html; charset=utf-8")
      .send(phonePage(language, t("miniapps.authorize.title"), `<p>${escapeHtml(t(textKey))}</p>`));
  };

  /** The app of the link and its platform, or null when either is gone. */
  async function linked(link: unknown): Promise<{ row: Row; platform: WechatOpenPlatform | AlipayOpenPlatform } | null> {
    const appId = linkedApp(services, link);
    const [row] = appId ? await services.db.select().from(miniPrograms).where(eq(miniPrograms.id, appId)) : [];
    const platform = row ? await platformOf(services, row) : null;
    return row && platform ? { row: row as Row, platform } : null;
  }

  app.get<{ Querystring: { link?: string } }>(AUTHORIZE_PATH, async (request, reply) => {
    const found = await linked(request.query.link);
    if (!found) return page(request, reply, 404, "miniapps.authorize.link_ended");
    const back = `${originOf(request)}${AUTHORIZED_PATH}?link=${encodeURIComponent(String(request.query.link))}`;
    try {
      const target = "crypt" in found.platform ? await found.platform.authorizationPage(String(found.row.appid), back) : found.platform.authorizationPage(back);
      return await reply.redirect(target, 302);
    } catch (err) {
      if (!(err instanceof PublisherError)) throw err;
      return page(request, reply, 503, "miniapps.authorize.busy");
    }
  });

  app.get<{ Querystring: { link?: string; auth_code?: string; app_auth_code?: string } }>(AUTHORIZED_PATH, async (request, reply) => {
    const found = await linked(request.query.link);
    const code = request.query.auth_code ?? request.query.app_auth_code;
    if (!found || !code) return page(request, reply, 404, "miniapps.authorize.link_ended");
    const { row, platform } = found;
    try {
      const tokens = "crypt" in platform ? await platform.queryAuth(code) : await platform.tokensFromCode(code);
      return (await bindApp(services, platform, row, tokens, "authorized"))
        ? page(request, reply, 200, "miniapps.authorize.done")
        : page(request, reply, 409, "miniapps.authorize.other_app");
    } catch (err) {
      if (!(err instanceof PublisherError)) throw err;
      return page(request, reply, 503, "miniapps.authorize.busy");
    }
  });
}
