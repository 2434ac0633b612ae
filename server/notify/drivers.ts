/**
 * The notifier's drivers: what carries a notice to its recipient. The sandbox driver (NOTIFY_SANDBOX, on unless
 * set to off) delivers every notice to the sandbox outbox, the notices page, and nothing leaves the server; tests and
 * demos use it. Without the sandbox, SMS go through Alibaba Cloud's SMS service (./aliyunSms.ts) and WeChat notices
 * as template messages of the platform's official account (./wechatTemplate.ts), each once configured; a channel
 * with no driver fails its notices with a message saying so, so that nothing is lost silently.
 */
import { platformOfficialAccount } from "../payments/merchants";
import { WECHAT_API_ORIGIN } from "../payments/wechatpay/oauth";
import type { JobServices } from "../jobs/registry";
import { AliyunSmsDriver, type AliyunSmsConfig } from "./aliyunSms";
import type { NoticeChannel, NoticeRow } from "./notices";
import { WechatTemplateDriver, type WechatTemplates } from "./wechatTemplate";

export interface NoticeDriver {
  /** stored with each notice it sent */
  readonly name: string;
  /** sends one notice; answers the gateway's reference of the message; throws when it was not sent */
  send(notice: NoticeRow): Promise<{ reference: string | null }>;
}

/** How notices leave the server (README: Configuration). */
export interface NotifyConfig {
  /** NOTIFY_SANDBOX: every notice goes to the sandbox outbox */
  sandbox: boolean;
  /** WECHAT_TEMPLATES: the official account's template of each kind of notice */
  wechatTemplates?: WechatTemplates;
  /** SMS_*: the SMS service's account and templates */
  sms?: AliyunSmsConfig;
}

const sandboxDriver: NoticeDriver = {
  name: "sandbox",
  async send(notice) {
    return { reference: `sandbox-${notice.id}` };
  },
};

/** The drivers of the channels, as configured. */
export type NoticeDrivers = Partial<Record<NoticeChannel, NoticeDriver>>;

/** The drivers a run of the sending job uses (the platform's official account read as it stands now). */
export async function configuredDrivers(services: JobServices): Promise<NoticeDrivers> {
  const notify = services.notify ?? { sandbox: true };
  if (notify.sandbox) return { sms: sandboxDriver, wechat: sandboxDriver };
  const now = () => services.clock.now();
  const drivers: NoticeDrivers = {};
  if (notify.sms) drivers.sms = new AliyunSmsDriver(notify.sms, now);
  if (notify.wechatTemplates) {
    const app = await platformOfficialAccount(services);
    if (app) drivers.wechat = new WechatTemplateDriver(services.wechatOAuth?.apiOrigin ?? WECHAT_API_ORIGIN, app, notify.wechatTemplates, now);
  }
  return drivers;
}
