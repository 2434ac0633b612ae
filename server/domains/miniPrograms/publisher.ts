/**
 * What publishing a mini-program asks of WeChat's third-party platform or Alipay's, behind one interface: commit the
 * template with the provider's ext config (the experience version), submit it for audit, ask the audit's result,
 * release it, revert to the version before, set its privacy rules. A refusal is the platform's error code and
 * message (WeChat's errcode / errmsg), which the console says in words.
 *
 * The sandbox (the default) stands in for both platforms: it answers as they do, keeps on the app what an operator
 * made happen next (an audit's result, an error code injected), and every call is recorded with its answer
 * (./effects.ts). The platforms' own drivers: ./wechatOpen.ts and ./alipayOpen.ts.
 */
import { randomInt } from "node:crypto";
import type { Row } from "../../engine/hooks";

/** A platform's refusal: its error code and message. */
export class PublisherError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
  ) {
    super(`${errcode} ${errmsg}`);
  }
}

/** WeChat's audit states (get_auditstatus): 0 passed, 1 refused, 2 auditing, 3 withdrawn, 4 delayed. */
export type AuditStatus = 0 | 1 | 2 | 3 | 4;

export interface PrivacySetting {
  privacyVer: 1 | 2;
  owner: { contact_phone?: string; contact_email?: string; notice_method: string };
  settings: { privacy_key: string; privacy_text: string }[];
}

/** The experience version's QR code: the picture the platform gives (WeChat's get_qrcode), or the text it encodes. */
export type ExperienceQr = { image: Buffer } | { text: string };

/** One call's request as recorded, and what it answered. */
export interface PublisherCall<T> {
  request: Row;
  answer: T;
}

export interface MiniProgramPublisher {
  commit(app: Row, commit: { templateId: string; extJson: string; userVersion: string; userDesc: string }): Promise<PublisherCall<{ qrcode: ExperienceQr }>>;
  submitAudit(app: Row, audit: { versionDesc: string }): Promise<PublisherCall<{ auditId: string }>>;
  auditStatus(app: Row): Promise<PublisherCall<{ status: AuditStatus; reason: string }>>;
  release(app: Row): Promise<PublisherCall<Record<string, never>>>;
  revert(app: Row): Promise<PublisherCall<Record<string, never>>>;
  setPrivacy(app: Row, privacy: PrivacySetting): Promise<PublisherCall<Record<string, never>>>;
}

/** WeChat's words for the codes the sandbox can be made to answer (the console says them in the user's language). */
const SANDBOX_ERRORS: Readonly<Record<string, string>> = {
  "61039": "code detection task is not completed, please try again later",
  "85086": "must commit before submit audit",
  "86074": "no live version, please release first",
  "48001": "api unauthorized",
  "61023": "refresh_token is invalid",
};

/**
 * The sandbox: answers as the platforms do, from what is kept on the app. An error injected is answered once, by the
 * next call; an audit answers what an operator sent (passed, refused with a reason, delayed) and is auditing until then.
 */
export const sandboxPublisher: MiniProgramPublisher = {
  async commit(app, commit) {
    refuseIfInjected(app);
    const request = { template_id: commit.templateId, ext_json: commit.extJson, user_version: commit.userVersion, user_desc: commit.userDesc };
    return { request, answer: { qrcode: { text: `sandbox://${String(app.platform)}/experience?appid=${String(app.appid)}&version=${encodeURIComponent(commit.userVersion)}` } } };
  },
  async submitAudit(app, audit) {
    refuseIfInjected(app);
    if (!app.exp_version) throw new PublisherError(85086, SANDBOX_ERRORS["85086"]);
    return { request: { version_desc: audit.versionDesc }, answer: { auditId: String(randomInt(100_000_000, 999_999_999)) } };
  },
  async auditStatus(app) {
    refuseIfInjected(app);
    const [code, ...reason] = String(app.sandbox_audit ?? "2").split("|");
    const status = Number(code) as AuditStatus;
    return { request: { auditid: app.audit_id }, answer: { status, reason: reason.join("|") } };
  },
  async release(app) {
    refuseIfInjected(app);
    return { request: {}, answer: {} };
  },
  async revert(app) {
    refuseIfInjected(app);
    return { request: {}, answer: {} };
  },
  async setPrivacy(app, privacy) {
    refuseIfInjected(app);
    if (privacy.privacyVer === 1 && !app.live_version) throw new PublisherError(86074, SANDBOX_ERRORS["86074"]);
    return { request: { privacy_ver: privacy.privacyVer, owner_setting: privacy.owner, setting_list: privacy.settings }, answer: {} };
  },
};

function refuseIfInjected(app: Row): void {
  const code = app.sandbox_error;
  if (typeof code === "string" && code !== "") throw new PublisherError(Number(code), SANDBOX_ERRORS[code] ?? "sandbox error");
}
