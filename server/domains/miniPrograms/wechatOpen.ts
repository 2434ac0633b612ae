/**
 * WeChat's third-party platform (第三方平台, publishing for the apps its owners authorised) as the publisher of
 * WeChat apps, once the mini-program settings choose it and hold the platform's credentials.
 *
 * - The verify ticket WeChat pushes every ten minutes (./wechatPushes.ts) is kept 12 hours, the latest used until a
 *   newer comes, so that a missed push changes nothing.
 * - The component access token is made from it and shared by every process through the database
 *   (mini_program_platform_state): renewed ten minutes before it ends by the first process that needs it, under a
 *   transaction-scoped lock, the others then reading what it made.
 * - An app's authorizer refresh token, given once when its owner authorises the platform, is kept sealed on the app
 *   and replaced only by a newer one WeChat answers (losing it is WeChat's 61023, and the owner must authorise
 *   again); its access token (two hours) is renewed from it the same way.
 * - Each call is WeChat's: a JSON POST with the token in the query, an answer whose errcode is not 0 a refusal
 *   (PublisherError, said in words by ./effects.ts). An address that does not answer, in time or in its format, is
 *   refused as WeChat's "system busy" (-1), never thrown as a failure of ours.
 */
import { eq, isNotNull, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { miniProgramPlatformState, miniPrograms } from "../../db/schema";
import type { Row } from "../../engine/hooks";
import { PLATFORM_TENANT, readSettings, readSettingsSecret } from "../../engine/settings";
import { ApiFailure } from "../../protocol/envelope";
import { miniAppSettings } from "../../../catalogue/miniPrograms";
import { AnswerTooLargeError, boundedBytes, boundedText } from "../../lib/boundedText";
import type { Clock } from "../../lib/clock";
import type { PaymentSecrets } from "../../payments/secrets";
import { appAccessToken, keepAppTokens, RENEW_BEFORE_MS, TOKEN_LOCK_SPACE, type AppTokens } from "./appTokens";
import { PublisherError, type MiniProgramPublisher } from "./publisher";
import { WechatMessageCrypt } from "./wechatCrypt";

export interface WechatPlatformCredentials {
  componentAppid: string;
  componentSecret: string;
  /** the message token and EncodingAESKey pushes are signed and encrypted with */
  messageToken: string;
  messageAesKey: string;
}

export interface WechatPlatformServices {
  db: Db;
  clock: Clock;
  paymentSecrets: PaymentSecrets;
  /** https://api.weixin.qq.com, or a stand-in's */
  apiOrigin: string;
}

/** A ticket is good for 12 hours after WeChat pushed it. */
const TICKET_LIFETIME_MS = 12 * 3600_000;
const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 256 * 1024;
/** an experience QR code is a small JPEG */
const MAX_QR_BYTES = 1024 * 1024;

const TICKET = "wechat.verify_ticket";
const COMPONENT_TOKEN = "wechat.component_token";

/** WeChat's word for a ticket that is missing or too old; its code for an address that does not answer */
const NO_TICKET = new PublisherError(61006, "component ticket is invalid");
const SYSTEM_BUSY = -1;

/** The purpose a sealed value is bound to: its place. */
const sealedAs = {
  state: (name: string) => `mini_program_platform_state.${name}`,
};

/** What an app's authorisation gave: its tokens (api_query_auth, or a renewal). */
export interface AuthorizerTokens extends AppTokens {
  appid: string;
}

export class WechatOpenPlatform {
  readonly crypt: WechatMessageCrypt;

  constructor(
    private readonly services: WechatPlatformServices,
    readonly credentials: WechatPlatformCredentials,
  ) {
    this.crypt = new WechatMessageCrypt(credentials.messageToken, credentials.messageAesKey, credentials.componentAppid);
  }

  async keepTicket(ticket: string): Promise<void> {
    await keepVerifyTicket(this.services, ticket);
  }

  /** The component access token, renewed by one process when it is about to end. */
  async componentToken(): Promise<string> {
    const fresh = await this.freshState(this.services.db, COMPONENT_TOKEN);
    if (fresh) return fresh;
    return this.services.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${TOKEN_LOCK_SPACE}::integer, 0)`);
      const made = await this.freshState(tx, COMPONENT_TOKEN);
      if (made) return made;
      const ticket = await this.freshState(tx, TICKET, 0);
      if (!ticket) throw NO_TICKET;
      const answer = await this.post("api_component_token", "/cgi-bin/component/api_component_token", {}, {
        component_appid: this.credentials.componentAppid,
        component_appsecret: this.credentials.componentSecret,
        component_verify_ticket: ticket,
      });
      const token = text(answer.component_access_token, "component_access_token");
      await keepState({ ...this.services, db: tx }, COMPONENT_TOKEN, token, this.expiry(answer.expires_in));
      return token;
    });
  }

  /** A pre-authorisation code (ten minutes) for the owner's authorisation page. */
  async authorizationPage(appid: string, redirectUri: string): Promise<string> {
    const answer = await this.post("api_create_preauthcode", "/cgi-bin/component/api_create_preauthcode", { component_access_token: await this.componentToken() }, { component_appid: this.credentials.componentAppid });
    const page = new URL("https://mp.weixin.qq.com/cgi-bin/componentloginpage");
    page.searchParams.set("component_appid", this.credentials.componentAppid);
    page.searchParams.set("pre_auth_code", text(answer.pre_auth_code, "pre_auth_code"));
    page.searchParams.set("redirect_uri", redirectUri);
    // 2: mini-programs only; biz_appid: the app bound here, no other
    page.searchParams.set("auth_type", "2");
    page.searchParams.set("biz_appid", appid);
    return page.toString();
  }

  /** An authorisation code (from the owner's return or the `authorized` push) made into the app's tokens. */
  async queryAuth(authorizationCode: string): Promise<AuthorizerTokens> {
    const answer = await this.post("api_query_auth", "/cgi-bin/component/api_query_auth", { component_access_token: await this.componentToken() }, { component_appid: this.credentials.componentAppid, authorization_code: authorizationCode });
    const info = (answer.authorization_info ?? {}) as Row;
    return {
      appid: text(info.authorizer_appid, "authorizer_appid"),
      accessToken: text(info.authorizer_access_token, "authorizer_access_token"),
      refreshToken: text(info.authorizer_refresh_token, "authorizer_refresh_token"),
      expiresIn: Number(info.expires_in),
    };
  }

  /** Keeps an app's tokens sealed on it: the authorisation is the platform's from now on. */
  async keepAuthorization(db: DbOrTx, appId: number, tokens: AppTokens): Promise<void> {
    await keepAppTokens(this.services, db, appId, tokens);
  }

  /** The app's access token, renewed from its refresh token by one process when it is about to end. */
  async authorizerToken(app: Row): Promise<string> {
    return appAccessToken(
      this.services,
      Number(app.id),
      () => this.componentToken(),
      async (refreshToken, componentToken) => {
        const answer = await this.post("api_authorizer_token", "/cgi-bin/component/api_authorizer_token", { component_access_token: componentToken }, {
          component_appid: this.credentials.componentAppid,
          authorizer_appid: String(app.appid),
          authorizer_refresh_token: refreshToken,
        });
        // a newer refresh token replaces the kept one only when WeChat gives one
        const newer = typeof answer.authorizer_refresh_token === "string" && answer.authorizer_refresh_token !== "" ? answer.authorizer_refresh_token : refreshToken;
        return { accessToken: text(answer.authorizer_access_token, "authorizer_access_token"), refreshToken: newer, expiresIn: Number(answer.expires_in) };
      },
    );
  }

  /** The experience version's QR code as WeChat draws it (get_qrcode: a picture, or JSON when refused). */
  async experienceQr(app: Row): Promise<Buffer> {
    const url = new URL("/wxa/get_qrcode", this.services.apiOrigin);
    url.searchParams.set("access_token", await this.authorizerToken(app));
    let response: Response;
    try {
      response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch {
      throw new PublisherError(SYSTEM_BUSY, "WeChat gave no answer to get_qrcode");
    }
    if (response.status === 200 && (response.headers.get("content-type") ?? "").startsWith("image/")) {
      try {
        return await boundedBytes(response, MAX_QR_BYTES);
      } catch {
        throw new PublisherError(SYSTEM_BUSY, "WeChat's QR code of get_qrcode is too large or cut off");
      }
    }
    let answer: Row;
    try {
      answer = JSON.parse(await boundedText(response, MAX_ANSWER_BYTES)) as Row;
    } catch {
      throw new PublisherError(SYSTEM_BUSY, "WeChat's answer to get_qrcode is neither a picture nor JSON");
    }
    throw new PublisherError(Number(answer.errcode ?? SYSTEM_BUSY), String(answer.errmsg ?? "").slice(0, 200));
  }

  /** A call of an app's code management, with its access token. */
  async forApp(app: Row, api: string, path: string, body: Row | undefined): Promise<Row> {
    return this.post(api, path, { access_token: await this.authorizerToken(app) }, body);
  }

  /** POSTs JSON to WeChat (GETs without a body); an errcode other than 0 is its refusal. */
  async post(api: string, path: string, query: Record<string, string>, body: Row | undefined): Promise<Row> {
    const url = new URL(path, this.services.apiOrigin);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    let answer: unknown;
    try {
      const response = await fetch(url, {
        method: body ? "POST" : "GET",
        ...(body ? { body: asciiJson(body), headers: { "content-type": "application/json" } } : {}),
        redirect: "error",
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new PublisherError(SYSTEM_BUSY, `WeChat answered ${api} with HTTP ${response.status}`);
      }
      answer = JSON.parse(await boundedText(response, MAX_ANSWER_BYTES));
    } catch (error) {
      if (error instanceof PublisherError) throw error;
      const why = error instanceof AnswerTooLargeError ? "too large an answer" : error instanceof SyntaxError ? "an answer that is not JSON" : "no answer";
      throw new PublisherError(SYSTEM_BUSY, `WeChat gave ${why} to ${api}`);
    }
    if (answer === null || typeof answer !== "object" || Array.isArray(answer)) throw new PublisherError(SYSTEM_BUSY, `WeChat's answer to ${api} is not an object`);
    const errcode = Number((answer as Row).errcode ?? 0);
    if (errcode !== 0) throw new PublisherError(errcode, String((answer as Row).errmsg ?? "").slice(0, 200));
    return answer as Row;
  }

  private expiry(expiresIn: unknown): Date {
    const seconds = Number(expiresIn);
    // WeChat's tokens are of two hours; an answer without a lifetime is taken as that
    return new Date(this.services.clock.now().getTime() + (Number.isFinite(seconds) && seconds > 0 ? seconds : 7200) * 1000);
  }

  /** A kept value still good `renewBefore` ms from now. */
  private async freshState(db: DbOrTx, name: string, renewBefore = RENEW_BEFORE_MS): Promise<string | undefined> {
    const [row] = await db.select().from(miniProgramPlatformState).where(eq(miniProgramPlatformState.name, name));
    if (!row || row.expiresAt.getTime() - renewBefore <= this.services.clock.now().getTime()) return undefined;
    return this.services.paymentSecrets.decrypt(row.value, sealedAs.state(name));
  }
}

type StateServices = Pick<WechatPlatformServices, "clock" | "paymentSecrets"> & { db: DbOrTx };

async function keepState(services: StateServices, name: string, value: string, expiresAt: Date): Promise<void> {
  const sealed = services.paymentSecrets.encrypt(value, sealedAs.state(name));
  const now = services.clock.now();
  await services.db
    .insert(miniProgramPlatformState)
    .values({ name, value: sealed, expiresAt, updatedAt: now })
    .onConflictDoUpdate({ target: miniProgramPlatformState.name, set: { value: sealed, expiresAt, updatedAt: now } });
}

/** Keeps the ticket WeChat pushed (or the sandbox made): the latest stays in use 12 hours. */
export async function keepVerifyTicket(services: StateServices, ticket: string): Promise<void> {
  await keepState(services, TICKET, ticket, new Date(services.clock.now().getTime() + TICKET_LIFETIME_MS));
}

/** Ends WeChat's component token and every app's access token now: the next call renews them (the sandbox's control). */
export async function expirePlatformTokens(services: StateServices): Promise<void> {
  const past = new Date(services.clock.now().getTime() - 1000);
  await services.db.update(miniProgramPlatformState).set({ expiresAt: past }).where(eq(miniProgramPlatformState.name, COMPONENT_TOKEN));
  await services.db.update(miniPrograms).set({ auth_token_expires_at: past }).where(isNotNull(miniPrograms.auth_token_expires_at));
}

/** JSON with every character past ASCII escaped (\uXXXX): WeChat shows Chinese sent as UTF-8 garbled (its note on setprivacysetting). */
function asciiJson(body: Row): string {
  return JSON.stringify(body).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function text(value: unknown, name: string): string {
  if (typeof value !== "string" || value === "") throw new PublisherError(SYSTEM_BUSY, `WeChat's answer lacks ${name}`);
  return value;
}

/** WeChat's audit states as get_auditstatus answers them. */
const AUDIT_STATES = new Set([0, 1, 2, 3, 4]);

/** The publisher of WeChat apps through the platform: WeChat's code-management calls, as documented. */
export function wechatPublisher(platform: WechatOpenPlatform): MiniProgramPublisher {
  return {
    async commit(app, commit) {
      const request = { template_id: Number(commit.templateId), ext_json: commit.extJson, user_version: commit.userVersion, user_desc: commit.userDesc };
      await platform.forApp(app, "commit", "/wxa/commit", request);
      return { request, answer: { qrcode: { image: await platform.experienceQr(app) } } };
    },
    async submitAudit(app, audit) {
      const request = { version_desc: audit.versionDesc };
      const answer = await platform.forApp(app, "submit_audit", "/wxa/submit_audit", request);
      return { request, answer: { auditId: String(answer.auditid ?? "") } };
    },
    async auditStatus(app) {
      const request = { auditid: Number(app.audit_id) };
      const answer = await platform.forApp(app, "get_auditstatus", "/wxa/get_auditstatus", request);
      const status = Number(answer.status);
      if (!AUDIT_STATES.has(status)) throw new PublisherError(SYSTEM_BUSY, `WeChat answered an audit status it does not document: ${String(answer.status)}`);
      return { request, answer: { status: status as 0 | 1 | 2 | 3 | 4, reason: String(answer.reason ?? "") } };
    },
    async release(app) {
      await platform.forApp(app, "release", "/wxa/release", {});
      return { request: {}, answer: {} };
    },
    async revert(app) {
      await platform.forApp(app, "revertcoderelease", "/wxa/revertcoderelease", undefined);
      return { request: {}, answer: {} };
    },
    async setPrivacy(app, privacy) {
      if (privacy.privacyVer === 2) {
        // the keys WeChat found in the committed code each need a purpose, or its audit refuses the version
        const found = await platform.forApp(app, "getprivacysetting", "/cgi-bin/component/getprivacysetting", { privacy_ver: 2 });
        const given = new Set(privacy.settings.map((s) => s.privacy_key));
        const missing = (Array.isArray(found.privacy_list) ? found.privacy_list : []).map(String).filter((key) => !given.has(key));
        if (missing.length > 0) throw new ApiFailure("miniapps.privacy_keys_missing", { keys: missing.join(", ") });
      }
      const request = { privacy_ver: privacy.privacyVer, owner_setting: privacy.owner, ...(privacy.privacyVer === 2 ? { setting_list: privacy.settings } : {}) };
      await platform.forApp(app, "setprivacysetting", "/cgi-bin/component/setprivacysetting", request);
      return { request, answer: {} };
    },
  };
}

/**
 * The platform the mini-program settings choose for WeChat apps: null while they choose the sandbox. Chosen without
 * its four credentials, it is refused in words (the operator has a field to fill).
 */
export async function configuredWechatPlatform(
  services: Omit<WechatPlatformServices, "apiOrigin"> & { wechatOAuth: { apiOrigin: string } },
  /** where the settings are read: a transaction's own connection when one is open (the embedded database has one) */
  db: DbOrTx = services.db,
): Promise<WechatOpenPlatform | null> {
  const settings = await readSettings(db, miniAppSettings, PLATFORM_TENANT);
  if (settings.wechat_publisher !== "platform") return null;
  const secret = (field: string) => readSettingsSecret(db, services.paymentSecrets, miniAppSettings, PLATFORM_TENANT, field);
  const [componentSecret, messageToken, messageAesKey] = await Promise.all([secret("component_appsecret"), secret("message_token"), secret("message_aes_key")]);
  const componentAppid = typeof settings.component_appid === "string" ? settings.component_appid : "";
  if (!componentAppid || !componentSecret || !messageToken || !messageAesKey || messageAesKey.length !== 43) throw new ApiFailure("miniapps.no_platform_credentials");
  return new WechatOpenPlatform({ ...services, apiOrigin: services.wechatOAuth.apiOrigin }, { componentAppid, componentSecret, messageToken, messageAesKey });
}
