/**
 * Alipay's open platform as the publisher of Alipay apps, once the mini-program settings choose it and hold the
 * platform's third-party application (its app id, its RSA2 private key, Alipay's public key).
 *
 * - Calls go through Alipay's own SDK (alipay-sdk): the gateway's common parameters signed RSA2 (SHA256withRSA over
 *   the sorted parameters), the app's `app_auth_token` beside them, and every answer's signature checked with
 *   Alipay's public key before a field of it is believed. An answer whose code is not 10000 is Alipay's refusal: its
 *   code, sub_code and sub_msg.
 * - An app is bound by its owner's authorisation (third-party app authorisation): the owner confirms on Alipay's page
 *   and returns with an app_auth_code, made into the app_auth_token and app_refresh_token by
 *   alipay.open.auth.token.app; both kept sealed on the app (./appTokens.ts) and the token renewed from the refresh
 *   token before it ends.
 * - Publishing: alipay.open.mini.version.upload (the template with the provider's ext config), then
 *   alipay.open.mini.experience.create and .experience.query for the experience version's QR code,
 *   .version.audit.apply, .version.detail.query for the audit's state, .version.online to release, .version.rollback
 *   to go back to the version before.
 * - Alipay has no call for WeChat's privacy rules: an Alipay app's are declared on Alipay's console, and the console
 *   here refuses to set them in words.
 */
import { createPrivateKey, createPublicKey } from "node:crypto";
import type { AlipaySdk } from "alipay-sdk";
import type { Row } from "../../engine/hooks";
import type { DbOrTx } from "../../db/client";
import { PLATFORM_TENANT, readSettings, readSettingsSecret } from "../../engine/settings";
import { ApiFailure } from "../../protocol/envelope";
import { miniAppSettings } from "../../../catalogue/miniPrograms";
import { appAccessToken, keepAppTokens, type AppTokens, type TokenServices } from "./appTokens";
import { PublisherError, type AuditStatus, type MiniProgramPublisher } from "./publisher";

export const ALIPAY_GATEWAY = "https://openapi.alipay.com/gateway.do";
const ALIPAY_AUTH_PAGE = "https://openauth.alipay.com/oauth2/appToAppAuth.htm";
const TIMEOUT_MS = 10_000;
/** Alipay's code of a call done */
const SUCCESS = "10000";
/** our code for an answer Alipay did not give (no answer, not its format, a signature that fails) */
const NO_ANSWER = -1;
/** the client the versions are published for: Alipay's own app */
const BUNDLE_ID = "com.alipay.alipaywallet";

export interface AlipayPlatformCredentials {
  appId: string;
  privateKey: string;
  alipayPublicKey: string;
  templateId: string;
  templateVersion: string;
}

/** Alipay's version states (alipay.open.mini.version.detail.query) as WeChat's audit states the console keeps. */
const AUDIT_STATES: Readonly<Record<string, AuditStatus>> = { AUDITING: 2, WAIT_RELEASE: 0, AUDIT_REJECT: 1, RELEASE: 0, GRAY: 0, INIT: 3 };

export class AlipayOpenPlatform {
  /** made at the first call: the SDK and its HTTP client are imported then, not when a server starts */
  private sdk?: Promise<AlipaySdk>;

  constructor(
    private readonly services: TokenServices,
    readonly credentials: AlipayPlatformCredentials,
    private readonly gateway: string = ALIPAY_GATEWAY,
  ) {}

  private client(): Promise<AlipaySdk> {
    this.sdk ??= import("alipay-sdk").then(
      ({ AlipaySdk }) =>
        new AlipaySdk({
          appId: this.credentials.appId,
          privateKey: this.credentials.privateKey,
          // read by readKey below into PKCS#8
          keyType: "PKCS8",
          alipayPublicKey: this.credentials.alipayPublicKey,
          gateway: this.gateway,
          timeout: TIMEOUT_MS,
          camelcase: false,
        }),
    );
    return this.sdk;
  }

  /** Calls a method of the gateway; an answer not signed by Alipay, or not done, is refused. */
  async call(method: string, bizContent: Row, appAuthToken?: string): Promise<Row> {
    const sdk = await this.client();
    let answer: Row;
    try {
      answer = (await sdk.exec(method, { bizContent, ...(appAuthToken ? { app_auth_token: appAuthToken } : {}) }, { validateSign: true })) as Row;
    } catch (error) {
      throw new PublisherError(NO_ANSWER, `Alipay gave no answer to ${method} that could be believed (${error instanceof Error ? error.message.slice(0, 120) : "error"})`);
    }
    if (String(answer.code) !== SUCCESS) {
      const code = Number(answer.code);
      throw new PublisherError(Number.isFinite(code) ? code : NO_ANSWER, [answer.sub_code, answer.sub_msg ?? answer.msg].filter(Boolean).join(" ").slice(0, 200));
    }
    return answer;
  }

  /** Alipay's authorisation page for the owner, who returns to `redirectUri` with an app_auth_code. */
  authorizationPage(redirectUri: string): string {
    const page = new URL(ALIPAY_AUTH_PAGE);
    page.searchParams.set("app_id", this.credentials.appId);
    page.searchParams.set("redirect_uri", redirectUri);
    return page.toString();
  }

  /** An owner's app_auth_code made into the app's tokens, and the app it authorises. */
  async tokensFromCode(code: string): Promise<AppTokens & { appid: string }> {
    const answer = await this.call("alipay.open.auth.token.app", { grant_type: "authorization_code", code });
    return { ...tokensOf(answer), appid: String(tokenEntry(answer).auth_app_id ?? "") };
  }

  async keepAuthorization(db: DbOrTx, appId: number, tokens: AppTokens): Promise<void> {
    await keepAppTokens(this.services, db, appId, tokens);
  }

  /** The app's app_auth_token, renewed from its refresh token by one process when it is about to end. */
  async appAuthToken(app: Row): Promise<string> {
    return appAccessToken(
      this.services,
      Number(app.id),
      async () => undefined,
      async (refreshToken) => tokensOf(await this.call("alipay.open.auth.token.app", { grant_type: "refresh_token", refresh_token: refreshToken })),
    );
  }

  async forApp(app: Row, method: string, bizContent: Row): Promise<Row> {
    return this.call(method, bizContent, await this.appAuthToken(app));
  }
}

/** The token's fields: at the answer's top, or (the newer form) its first of `tokens`. */
function tokenEntry(answer: Row): Row {
  return Array.isArray(answer.tokens) && answer.tokens[0] && typeof answer.tokens[0] === "object" ? (answer.tokens[0] as Row) : answer;
}

function tokensOf(answer: Row): AppTokens {
  const { app_auth_token: accessToken, app_refresh_token: refreshToken, expires_in: expiresIn } = tokenEntry(answer);
  if (typeof accessToken !== "string" || typeof refreshToken !== "string") throw new PublisherError(NO_ANSWER, "Alipay's answer lacks app_auth_token");
  return { accessToken, refreshToken, expiresIn: Number(expiresIn) };
}

/** The publisher of Alipay apps through Alipay's open platform. */
export function alipayPublisher(platform: AlipayOpenPlatform): MiniProgramPublisher {
  return {
    async commit(app, commit) {
      const request = { template_id: commit.templateId, template_version: platform.credentials.templateVersion, app_version: commit.userVersion, ext: commit.extJson, bundle_id: BUNDLE_ID };
      await platform.forApp(app, "alipay.open.mini.version.upload", request);
      await platform.forApp(app, "alipay.open.mini.experience.create", { app_version: commit.userVersion, bundle_id: BUNDLE_ID });
      const experience = await platform.forApp(app, "alipay.open.mini.experience.query", { app_version: commit.userVersion, bundle_id: BUNDLE_ID });
      return { request, answer: { qrcode: { text: String(experience.exp_qr_code_url ?? "") } } };
    },
    async submitAudit(app, audit) {
      const request = { app_version: String(app.exp_version), version_desc: audit.versionDesc || String(app.exp_version), region_type: "CHINA", bundle_id: BUNDLE_ID };
      await platform.forApp(app, "alipay.open.mini.version.audit.apply", request);
      // Alipay audits a version, not an audit id: the version is the audit's name
      return { request, answer: { auditId: String(app.exp_version) } };
    },
    async auditStatus(app) {
      const request = { app_version: String(app.exp_version), bundle_id: BUNDLE_ID };
      const answer = await platform.forApp(app, "alipay.open.mini.version.detail.query", request);
      const status = AUDIT_STATES[String(answer.status)];
      if (status === undefined) throw new PublisherError(NO_ANSWER, `Alipay answered a version state it does not document: ${String(answer.status)}`);
      return { request, answer: { status, reason: String(answer.reject_reason ?? "") } };
    },
    async release(app) {
      const request = { app_version: String(app.exp_version), bundle_id: BUNDLE_ID };
      await platform.forApp(app, "alipay.open.mini.version.online", request);
      return { request, answer: {} };
    },
    async revert(app) {
      const request = { app_version: String(app.live_version), bundle_id: BUNDLE_ID };
      await platform.forApp(app, "alipay.open.mini.version.rollback", request);
      return { request, answer: {} };
    },
    async setPrivacy() {
      throw new ApiFailure("miniapps.alipay_privacy");
    },
  };
}

/**
 * The platform the mini-program settings choose for Alipay apps: null while they choose the sandbox. Chosen without
 * its application's id, keys and template, it is refused in words.
 */
export async function configuredAlipayPlatform(services: TokenServices & { alipayGateway: string }, db: DbOrTx = services.db): Promise<AlipayOpenPlatform | null> {
  const settings = await readSettings(db, miniAppSettings, PLATFORM_TENANT);
  if (settings.alipay_publisher !== "platform") return null;
  const privateKey = await readSettingsSecret(db, services.paymentSecrets, miniAppSettings, PLATFORM_TENANT, "alipay_private_key");
  const text = (name: string) => (typeof settings[name] === "string" ? (settings[name] as string) : "");
  const credentials = { appId: text("alipay_app_id"), privateKey: privateKey ?? "", alipayPublicKey: text("alipay_public_key"), templateId: text("alipay_template_id"), templateVersion: text("alipay_template_version") };
  if (Object.values(credentials).some((value) => value === "")) throw new ApiFailure("miniapps.no_alipay_credentials");
  try {
    credentials.privateKey = readKey(credentials.privateKey, "private");
    credentials.alipayPublicKey = readKey(credentials.alipayPublicKey, "public");
  } catch {
    throw new ApiFailure("miniapps.alipay_keys_unreadable");
  }
  return new AlipayOpenPlatform(services, credentials, services.alipayGateway);
}

/**
 * A key as pasted (Alipay's key tool gives bare base64, PKCS#8 or PKCS#1 for the private key; a PEM may have lost its
 * line breaks in a one-line box) as PEM the SDK reads: PKCS#8 for the private key, SPKI for the public one. Throws
 * when it is no RSA key.
 */
function readKey(pasted: string, kind: "private" | "public"): string {
  const header = /-----BEGIN ([A-Z ]+)-----/.exec(pasted)?.[1];
  const body = pasted.replace(/-----(BEGIN|END) [A-Z ]+-----/g, "").replace(/\s+/g, "");
  const der = Buffer.from(body, "base64");
  const types = kind === "private" ? (header === "RSA PRIVATE KEY" ? ["pkcs1"] : header ? ["pkcs8"] : ["pkcs8", "pkcs1"]) : header === "RSA PUBLIC KEY" ? ["pkcs1"] : ["spki"];
  for (const type of types) {
    try {
      return kind === "private"
        ? createPrivateKey({ key: der, format: "der", type: type as "pkcs1" | "pkcs8" }).export({ type: "pkcs8", format: "pem" }).toString()
        : createPublicKey({ key: der, format: "der", type: type as "pkcs1" | "spki" }).export({ type: "spki", format: "pem" }).toString();
    } catch {
      // the next form
    }
  }
  throw new Error(`not an RSA ${kind} key`);
}
