/**
 * The notifier's record: every message is a row of `notices`, written `queued` in the transaction of what caused
 * it (a reminder asked, a payment settled, a refund done, the evening's report) and sent afterwards by the
 * `notices.send` job (./send.ts) through the driver of its channel (./drivers.ts). A notice keeps its template's
 * parameters, not a text: the text is drawn from `notices.template.{kind}` in the language of whoever reads it.
 */
import { countedTitle } from "../../common/fieldRules";
import { formatYuan } from "../../common/money";
import type { DbOrTx } from "../db/client";
import { notices } from "../db/schema";
import { enqueueJob } from "../jobs/worker";
import type { Translate } from "../lib/i18n";

export const NOTICE_KINDS = ["reminder", "daily_report", "payment", "refund"] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
export const NOTICE_STATUSES = ["queued", "sending", "sent", "failed"] as const;
/** sms: a mobile number; wechat: an openid of the platform's official account */
export type NoticeChannel = "sms" | "wechat";

export const SEND_NOTICES = "notices.send";
/** the unique key of the run asked for as soon as a notice is queued (the recurring run keeps the kind's) */
const SEND_SOON_KEY = "notices.send.soon";
/**
 * the run asked for when the soon run is under way already: it may have looked at the queue before this notice was
 * written, which would then wait for the recurring run, a minute later
 */
const SEND_AGAIN_KEY = "notices.send.again";

export interface NoticeInput {
  sysid: number;
  schId?: number | null;
  kind: NoticeKind;
  channel: NoticeChannel;
  recipient: string;
  recipientName?: string;
  params: Record<string, string>;
  studentId?: number | null;
  billId?: number | null;
  /** a notice that could be caused twice is written once */
  dedupeKey?: string;
  createdBy: string;
}

export type NoticeRow = typeof notices.$inferSelect;

/**
 * Writes notices `queued` and asks for a run of the sending job: committed with the caller's transaction, sent
 * once it commits. Answers how many were written (a notice whose dedupe key exists is not).
 */
export async function queueNotices(tx: DbOrTx, inputs: readonly NoticeInput[], now: Date): Promise<number> {
  if (inputs.length === 0) return 0;
  const written = await tx
    .insert(notices)
    .values(
      inputs.map((n) => ({
        sysid: n.sysid,
        schId: n.schId ?? null,
        kind: n.kind,
        channel: n.channel,
        recipient: n.recipient,
        recipientName: (n.recipientName ?? "").slice(0, 64),
        params: n.params,
        studentId: n.studentId ?? null,
        billId: n.billId ?? null,
        dedupeKey: n.dedupeKey ?? null,
        createdBy: n.createdBy,
        createdAt: now,
      })),
    )
    .onConflictDoNothing({ target: notices.dedupeKey })
    .returning({ id: notices.id });
  if (written.length > 0 && (await enqueueJob(tx, SEND_NOTICES, {}, { now, uniqueKey: SEND_SOON_KEY })) === null) {
    await enqueueJob(tx, SEND_NOTICES, {}, { now, uniqueKey: SEND_AGAIN_KEY });
  }
  return written.length;
}

/** the parameters that are amounts in yuan: written as the reader's language writes money */
const MONEY_PARAMS = new Set(["amount", "paid", "refunded", "net"]);

/** the most characters of a template message's short text (a WeChat `thing` field): an activity's name fits in one */
export const NOTICE_NAME_MAX = 20;

/**
 * The parameters naming the activities of a payment or refund. Several: `activity` is "<first> 等 N 项" as the
 * gateways send it (SMS and WeChat templates are approved in Chinese), the first's name cut so that the count stays
 * within NOTICE_NAME_MAX; `activity_title` and `activity_count` let each reader's language name them again.
 */
export function activityParams(title: string, count: number, zh: Translate): Record<string, string> {
  if (count <= 1) return { activity: title };
  let name = title;
  let named = countedTitle(name, count, zh);
  const over = Array.from(named).length - NOTICE_NAME_MAX;
  if (over > 0) {
    const characters = Array.from(title);
    name = `${characters.slice(0, Math.max(1, characters.length - over - 1)).join("")}…`;
    named = countedTitle(name, count, zh);
  }
  return { activity: named, activity_title: title, activity_count: String(count) };
}

/** The message as its recipient reads it, in the language of `t`; the payer page's address follows it. */
export function noticeText(t: Translate, language: string, kind: string, params: Record<string, string>): string {
  const shown = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, MONEY_PARAMS.has(name) ? formatYuan(value, language) : value]));
  // several activities: named in the reader's language
  if (params.activity_count && params.activity_title !== undefined) shown.activity = countedTitle(params.activity_title, Number(params.activity_count), t);
  // a bill opened today has waited no days: "0 days" would read oddly
  const template = kind === "reminder" && params.days === "0" ? "reminder_new" : kind;
  const text = t(`notices.template.${template}`, shown);
  return params.link ? `${text} ${params.link}` : text;
}
