/**
 * Publishing a mini-program through the engine's actions (catalogue/miniPrograms.ts): each step asks the app's
 * publisher (the sandbox, WeChat's third-party platform or Alipay's, as the mini-program settings choose)
 * first, outside the transaction and the app's lock (a platform may take its time), records the call and its answer
 * on the app's list of calls, and then applies what it answered under the lock. A refusal is recorded too, with the
 * app's last error, and said in words: nothing of the app changes.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { miniPrograms } from "../../db/schema";
import { actionFieldFailure, type ActionEffect, type ActionEffects, type UnlockedCall } from "../../engine/actions";
import type { EntityHooks, Row } from "../../engine/hooks";
import { PLATFORM_TENANT, readSettings } from "../../engine/settings";
import { qrPng } from "../../lib/qrImage";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationContext } from "../../protocol/registry";
import { storeImage, UnreadableImage } from "../../uploads/images";
import { filePath } from "../../uploads/keys";
import { miniAppSettings } from "../../../catalogue/miniPrograms";
import { alipayPublisher, configuredAlipayPlatform } from "./alipayOpen";
import { authorizeLink } from "./authorization";
import { recordCall } from "./calls";
import { PublisherError, sandboxPublisher, type ExperienceQr, type MiniProgramPublisher, type PublisherCall } from "./publisher";
import { configuredWechatPlatform, expirePlatformTokens, keepVerifyTicket, wechatPublisher } from "./wechatOpen";

/** The publisher of the app: its platform's (WeChat's third-party platform, Alipay's) when the settings choose it, else the sandbox. */
async function publisherOf(ctx: OperationContext, app: Row): Promise<MiniProgramPublisher> {
  if (app.platform === "alipay") {
    const alipay = await configuredAlipayPlatform(ctx.services);
    return alipay ? alipayPublisher(alipay) : sandboxPublisher;
  }
  const wechat = await configuredWechatPlatform(ctx.services);
  return wechat ? wechatPublisher(wechat) : sandboxPublisher;
}

/** Whether the app's platform is a real one (its owner then authorises it), read in the transaction. */
async function publishedByPlatform(ctx: OperationContext, tx: DbOrTx, app: Row): Promise<boolean> {
  return Boolean(app.platform === "alipay" ? await configuredAlipayPlatform(ctx.services, tx) : await configuredWechatPlatform(ctx.services, tx));
}

/** The platform's refusal in the user's words: its known codes by name, any other with the platform's message. */
function refusal(ctx: OperationContext, err: PublisherError): ApiFailure {
  const known = ctx.t(`miniapps.errcode.${err.errcode}`);
  const words = known === `miniapps.errcode.${err.errcode}` ? err.errmsg : known;
  return new ApiFailure("miniapps.refused", { errcode: err.errcode, words });
}

/** What a step answered, from its call before the lock to its effect under it. */
const answered = new WeakMap<OperationContext, Row>();

/**
 * An action that is a call of the publisher: `ask` makes the call from the app as read and the action's fields and
 * answers the app's columns it changes.
 */
function publishing(call: string, ask: (publisher: MiniProgramPublisher, app: Row, input: Row, ctx: OperationContext) => Promise<{ made: PublisherCall<unknown>; changes: Row }>): ActionEffect {
  const effect: ActionEffect = async ({ ctx }) => {
    const changes = answered.get(ctx) ?? {};
    answered.delete(ctx);
    return { changes: { ...changes, last_error: null } };
  };
  effect.beforeLock = async ({ ctx, row, input }: UnlockedCall) => {
    try {
      const { made, changes } = await ask(await publisherOf(ctx, row), row, input, ctx);
      await recordCall(ctx.db, row, call, made.request, 0, made.answer, ctx.now);
      answered.set(ctx, changes);
    } catch (err) {
      if (!(err instanceof PublisherError)) throw err;
      // the injected error is answered once
      await ctx.db.update(miniPrograms).set({ last_error: `${err.errcode} ${err.errmsg}`.slice(0, 300), sandbox_error: null }).where(eq(miniPrograms.id, Number(row.id)));
      await recordCall(ctx.db, row, call, {}, err.errcode, { errmsg: err.errmsg }, ctx.now);
      throw refusal(ctx, err);
    }
  };
  return effect;
}

/** The template the platform publishes for the app's platform. */
async function templateOf(ctx: OperationContext, app: Row): Promise<string> {
  const settings = await readSettings(ctx.db, miniAppSettings, PLATFORM_TENANT);
  const id = app.platform === "alipay" ? settings.alipay_template_id : settings.wx_template_id;
  if (id === null || id === undefined || id === "") throw new ApiFailure("miniapps.no_template");
  return String(id);
}

/**
 * The experience QR code as a picture the console shows: the platform's own, or one drawn of the text it gave;
 * stored as uploaded images are (by its hash, public: a QR code of an experience version lets in only its testers).
 */
async function experienceQrImage(ctx: OperationContext, qr: ExperienceQr): Promise<string | null> {
  if ("text" in qr && qr.text === "") return null;
  const picture = "image" in qr ? qr.image : await qrPng(qr.text);
  try {
    const { manifest } = await storeImage(ctx.services.uploadStorage, picture, "image" in qr ? "jpeg" : "png");
    const largest = manifest.variants.at(-1);
    return largest ? filePath(largest.key) : null;
  } catch (err) {
    if (err instanceof UnreadableImage) throw new PublisherError(-1, "the platform's QR code is not a picture");
    throw err;
  }
}

/** A JSON object of text, or null when it is none. */
function jsonObject(text: unknown): Row | null {
  if (text === null || text === undefined || text === "") return {};
  try {
    const parsed: unknown = JSON.parse(String(text));
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Row) : null;
  } catch {
    return null;
  }
}

/** The ext config committed: the provider's defaults (its record of microappset) under the app's own, `ext` merged too. */
async function extConfigOf(ctx: OperationContext, app: Row): Promise<Row> {
  const defaults = jsonObject((await readSettings(ctx.db, miniAppSettings, Number(app.sysid))).ext_defaults);
  if (defaults === null) throw new ApiFailure("miniapps.validation.ext_defaults");
  const own = jsonObject(app.ext_json) ?? {};
  const ext = { ...(defaults.ext as Row | undefined), ...(own.ext as Row | undefined) };
  return { ...defaults, ...own, ...(Object.keys(ext).length > 0 ? { ext } : {}) };
}

/** "key: purpose" lines as WeChat's setting_list. */
function privacyList(text: unknown): { privacy_key: string; privacy_text: string }[] {
  return String(text ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const colon = line.search(/[:：]/);
      return colon < 0 ? { privacy_key: line, privacy_text: "" } : { privacy_key: line.slice(0, colon).trim(), privacy_text: line.slice(colon + 1).trim() };
    });
}

export const miniAppEffects: ActionEffects = {
  miniappcommit: publishing("commit", async (publisher, app, input, ctx) => {
    const extJson = JSON.stringify(await extConfigOf(ctx, app));
    const made = await publisher.commit(app, { templateId: await templateOf(ctx, app), extJson, userVersion: String(input.user_version), userDesc: String(input.user_desc ?? "") });
    const qrcode = await experienceQrImage(ctx, made.answer.qrcode);
    // the call's record keeps the QR code's text, or the picture's address, not its bytes
    const recorded = { request: made.request, answer: { qrcode: "text" in made.answer.qrcode ? made.answer.qrcode.text : qrcode } };
    return { made: recorded, changes: { exp_version: input.user_version, exp_qrcode: qrcode, audit_id: null, audit_reason: null, sandbox_audit: null } };
  }),
  miniappsubmit: publishing("submit_audit", async (publisher, app, input) => {
    const made = await publisher.submitAudit(app, { versionDesc: String(input.version_desc ?? "") });
    return { made, changes: { audit_id: made.answer.auditId, audit_reason: null } };
  }),
  miniappaudit: publishing("get_auditstatus", async (publisher, app, _input, ctx) => {
    const made = await publisher.auditStatus(app);
    const { status, reason } = made.answer;
    if (status === 0) return { made, changes: { publish_status: "audit_passed", audit_reason: null } };
    if (status === 1) return { made, changes: { publish_status: "audit_failed", audit_reason: reason || ctx.t("miniapps.audit_refused") } };
    // withdrawn: back to the experience version, to be submitted again
    if (status === 3) return { made, changes: { publish_status: "audit_failed", audit_reason: ctx.t("miniapps.audit_withdrawn") } };
    return { made, changes: { publish_status: "auditing", audit_reason: status === 4 ? ctx.t("miniapps.audit_delayed") : null } };
  }),
  miniapprelease: publishing("release", async (publisher, app, _input, ctx) => {
    const made = await publisher.release(app);
    return { made, changes: { live_version: app.exp_version, previous_version: app.live_version, released_at: ctx.now } };
  }),
  miniapprevert: publishing("revertcoderelease", async (publisher, app, _input, ctx) => {
    if (!app.previous_version) throw new ApiFailure("miniapps.no_previous");
    const made = await publisher.revert(app);
    return { made, changes: { live_version: app.previous_version, previous_version: null, released_at: ctx.now } };
  }),
  miniappprivacy: publishing("setprivacysetting", async (publisher, app, input) => {
    const live = input.privacy_ver === "live";
    const owner = { ...(input.contact_phone ? { contact_phone: String(input.contact_phone) } : {}), ...(input.contact_email ? { contact_email: String(input.contact_email) } : {}), notice_method: String(input.notice_method) };
    const made = await publisher.setPrivacy(app, { privacyVer: live ? 1 : 2, owner, settings: live ? [] : privacyList(input.privacy_settings) });
    const kept = JSON.stringify({ owner_setting: owner, ...(live ? {} : { setting_list: privacyList(input.privacy_settings) }) });
    return { made, changes: live ? { privacy_live: kept } : { privacy_dev: kept } };
  }),
  // the link the app's owner opens to authorise the platform (a week; each opening asks WeChat for a fresh page)
  miniappauthorize: async ({ ctx, tx, row }) => {
    if (!(await publishedByPlatform(ctx, tx, row))) throw new ApiFailure("miniapps.authorize.sandbox");
    await recordCall(tx, row, "authorize_link", {}, 0, {}, ctx.now);
    return { answer: { auth_link: authorizeLink(ctx.services, ctx.origin, Number(row.id), ctx.now) } };
  },
  // the sandbox's controls: what the platform does next, kept on the app until a call meets it; the platform's
  // ticket pushed now, its tokens ended now
  miniappsandbox: async ({ ctx, tx, row, input }) => {
    const event = String(input.event);
    if (event === "push_ticket" || event === "expire_tokens") {
      const services = { ...ctx.services, db: tx };
      if (event === "push_ticket") await keepVerifyTicket(services, `ticket@@@sandbox-${randomUUID()}`);
      else await expirePlatformTokens(services);
      await recordCall(tx, row, `sandbox:${event}`, {}, 0, {}, ctx.now);
      return { messageKey: "miniapps.sandbox_done" };
    }
    const changes: Row =
      event === "inject_error"
        ? { sandbox_error: String(input.errcode) }
        : event === "audit_success"
          ? { sandbox_audit: "0" }
          : event === "audit_fail"
            ? { sandbox_audit: `1|${String(input.reason)}` }
            : { sandbox_audit: "4" };
    await recordCall(tx, row, `sandbox:${event}`, { ...(input.errcode ? { errcode: input.errcode } : {}), ...(input.reason ? { reason: input.reason } : {}) }, 0, {}, ctx.now);
    return { changes, messageKey: "miniapps.sandbox_done" };
  },
};

/** An operator binds an app for the provider it names, a provider for itself; its ext config is a JSON object. */
export const miniAppHooks: EntityHooks = {
  beforeAdd(ctx, scope, record) {
    if (ctx.auth?.userType !== "system") {
      if (record.sysid !== null && record.sysid !== undefined && Number(record.sysid) !== scope.sysid) throw actionFieldFailure(ctx, "sysid", "miniapps.validation.own_provider");
      record.sysid = scope.sysid;
    } else if (record.sysid === null || record.sysid === undefined) {
      throw actionFieldFailure(ctx, "sysid", "api.validation.required", { label: ctx.t("miniapps.field.provider") });
    }
    checkExt(ctx, record.ext_json);
  },
  async afterAdd(ctx, tx, row) {
    // through its platform the app waits for its owner's authorisation (miniappauthorize); the sandbox grants it
    if (await publishedByPlatform(ctx, tx, row)) {
      await tx.update(miniPrograms).set({ auth_status: "unauthorized" }).where(eq(miniPrograms.id, Number(row.id)));
      return;
    }
    await recordCall(tx, row, "authorized", { appid: row.appid }, 0, { auth_status: "authorized" }, ctx.now);
  },
  async afterEdit(ctx, _tx, _before, after) {
    checkExt(ctx, after.ext_json);
  },
};

function checkExt(ctx: OperationContext, text: unknown): void {
  if (jsonObject(text) === null) throw actionFieldFailure(ctx, "ext_json", "miniapps.validation.ext_json");
}
