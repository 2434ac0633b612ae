/**
 * The notifier's drivers: what carries a notice to its recipient. The sandbox driver (NOTIFY_SANDBOX, on unless
 * set to off) delivers every notice to the sandbox outbox, the notices page, and nothing leaves the server; tests and
 * demos use it. Without the sandbox a channel needs its gateway's driver; a channel with none fails its notices
 * with a message saying so, so that nothing is lost silently.
 */
import type { NoticeChannel, NoticeRow } from "./notices";

export interface NoticeDriver {
  /** stored with each notice it sent */
  readonly name: string;
  /** sends one notice; answers the gateway's reference of the message; throws when it was not sent */
  send(notice: NoticeRow): Promise<{ reference: string | null }>;
}

export const sandboxDriver: NoticeDriver = {
  name: "sandbox",
  async send(notice) {
    return { reference: `sandbox-${notice.id}` };
  },
};

/** The drivers of the channels, as configured. */
export type NoticeDrivers = Partial<Record<NoticeChannel, NoticeDriver>>;

export function sandboxDrivers(): NoticeDrivers {
  return { sms: sandboxDriver, wechat: sandboxDriver };
}
