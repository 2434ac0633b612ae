/**
 * The shop's customer service on enterprise WeChat (catalogue/customerService.ts): reading the provider's
 * customer-service accounts from enterprise WeChat (qwkfsync) with the corp id and secret of its qwkfset, and the
 * account the payer page's "contact us" opens (shopContact).
 *
 * qwkfsync asks enterprise WeChat everything first (a token, every page of accounts, the chat link of each account
 * not listed yet), then writes in one transaction, one sync of a provider at a time: an account not listed is added
 * in use, after the others; one listed (by open_kfid) takes enterprise WeChat's name and avatar, and a link where it
 * has none; every account read is stamped synced_at. An account entered by hand, or no longer in enterprise WeChat,
 * stays as it is. A refusal of enterprise WeChat names the setting at fault (corp_id, corp_secret), in the caller's
 * language; a failure changes nothing.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { customerServiceEntity, customerServiceSettingsDecl, customerServiceSync } from "../../../catalogue/customerService";
import { isImageUrl } from "../../../common/fieldRules";
import { auditCall } from "../../auth/audit";
import { resolveScope } from "../../auth/scope";
import type { DbOrTx } from "../../db/client";
import { qwKfAccounts } from "../../db/schema";
import { registerDeclared } from "../../engine/declared";
import { readSettings, readSettingsSecret } from "../../engine/settings";
import { PaymentKeyMissingError, SecretDecryptionError } from "../../payments/secrets";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { WORK_WECHAT_ERRORS, WorkWechatClient, WorkWechatError, type WorkWechatKfAccount } from "./workWechat";

/** the scene the chat links are asked with: a chat opened from the shop says it came from there */
const CONTACT_SCENE = "campus_shop";
/** one sync of a provider's accounts at a time (pg_advisory_xact_lock's first key; the provider is the second) */
const SYNC_LOCK = 0x71776b66;

const fieldOf = (name: string) => customerServiceEntity.fields.find((f) => f.name === name)!;
const NAME_MAX = fieldOf("name").max!;
const OPEN_KFID = new RegExp(fieldOf("open_kfid").pattern!);
const URL_PATTERN = new RegExp(fieldOf("url").pattern!);
const URL_MAX = fieldOf("url").max!;
const SORT_MAX = fieldOf("sort").max!;

/** The account parents are sent to by the payer page's "contact us": chosen, in use and contact switched on. */
export async function shopContact(db: DbOrTx, sysid: number): Promise<{ name: string; url: string } | null> {
  const settings = await readSettings(db, customerServiceSettingsDecl, sysid);
  const id = Number(settings.contact_kf_id);
  if (settings.contact_enabled !== "Y" || settings.contact_kf_id === null || !Number.isSafeInteger(id)) return null;
  const [account] = await db
    .select({ name: qwKfAccounts.name, url: qwKfAccounts.url })
    .from(qwKfAccounts)
    .where(and(eq(qwKfAccounts.id, id), eq(qwKfAccounts.sysid, sysid), eq(qwKfAccounts.status, "1")));
  return account && account.url !== "" ? account : null;
}

/** A refusal naming a setting of qwkfset, with its message under the field as a form shows it. */
function settingFailure(ctx: OperationContext, field: "corp_id" | "corp_secret", messageKey: string, params: Record<string, string | number> = {}): ApiFailure {
  return new ApiFailure(messageKey, params, { errors: [{ field, message: ctx.t(messageKey, params) }] });
}

/** Enterprise WeChat's failure in the caller's words: the setting at fault where its code names one. */
function wechatFailure(ctx: OperationContext, error: WorkWechatError): ApiFailure {
  if (error.kind === "network") return new ApiFailure("qwkf.sync.unreachable");
  switch (error.errcode) {
    case WORK_WECHAT_ERRORS.invalidCorpId:
      return settingFailure(ctx, "corp_id", "qwkf.sync.corp_id_refused", { code: error.errcode });
    case WORK_WECHAT_ERRORS.invalidSecret:
      return settingFailure(ctx, "corp_secret", "qwkf.sync.secret_refused", { code: error.errcode });
    case WORK_WECHAT_ERRORS.forbidden:
      return settingFailure(ctx, "corp_secret", "qwkf.sync.secret_forbidden", { code: error.errcode });
    case WORK_WECHAT_ERRORS.untrustedIp:
      return new ApiFailure("qwkf.sync.ip_refused", { code: error.errcode });
    default:
      return new ApiFailure("qwkf.sync.refused", { code: error.errcode ?? "", message: error.errmsg });
  }
}

/** The corp id and secret of the provider's qwkfset, or a refusal naming the one missing or unreadable. */
async function credentials(ctx: OperationContext, sysid: number): Promise<{ corpId: string; secret: string }> {
  const settings = await readSettings(ctx.db, customerServiceSettingsDecl, sysid);
  const corpId = typeof settings.corp_id === "string" ? settings.corp_id : "";
  if (corpId === "") throw settingFailure(ctx, "corp_id", "qwkf.sync.corp_id_missing");
  let secret: string | null;
  try {
    secret = await readSettingsSecret(ctx.db, ctx.services.paymentSecrets, customerServiceSettingsDecl, sysid, "corp_secret");
  } catch (error) {
    if (error instanceof PaymentKeyMissingError) throw new ApiFailure("api.payment_key_missing");
    // stored under another payment key (a database moved without its key): only saving it again helps
    if (error instanceof SecretDecryptionError) throw settingFailure(ctx, "corp_secret", "qwkf.sync.secret_unreadable");
    throw error;
  }
  if (!secret) throw settingFailure(ctx, "corp_secret", "qwkf.sync.secret_missing");
  return { corpId, secret };
}

type Listed = { id: number; open_kfid: string; name: string; avatar: string | null; url: string; sort: number };

async function listedAccounts(db: DbOrTx, sysid: number): Promise<Listed[]> {
  return db
    .select({ id: qwKfAccounts.id, open_kfid: qwKfAccounts.open_kfid, name: qwKfAccounts.name, avatar: qwKfAccounts.avatar, url: qwKfAccounts.url, sort: qwKfAccounts.sort })
    .from(qwKfAccounts)
    .where(eq(qwKfAccounts.sysid, sysid))
    .orderBy(asc(qwKfAccounts.id));
}

/**
 * An account as the list keeps it: a name within the field's length, an avatar only when it is an image's address
 * (enterprise WeChat's image host over https, the one the console's pages load pictures from beside their own).
 */
function keptForm(account: WorkWechatKfAccount): { open_kfid: string; name: string; avatar: string | null } {
  const name = [...account.name.trim()].slice(0, NAME_MAX).join("") || account.open_kfid.slice(0, NAME_MAX);
  const avatar = account.avatar.replace(/^http:\/\/wework\.qpic\.cn\//, "https://wework.qpic.cn/");
  return { open_kfid: account.open_kfid, name, avatar: isImageUrl(avatar) ? avatar : null };
}

async function syncAccounts(ctx: OperationContext): Promise<{ data: Record<string, unknown>; messageKey: string; messageParams: Record<string, number> }> {
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  if (scope.sysid === null) throw new ApiFailure("api.scope_required");
  const sysid = scope.sysid;
  const { corpId, secret } = await credentials(ctx, sysid);
  const client = new WorkWechatClient(corpId, secret, ctx.services.workWechatOrigin);

  // everything enterprise WeChat says, asked before anything is written
  const links = new Map<string, string>();
  let read: ReturnType<typeof keptForm>[] = [];
  try {
    const token = await client.accessToken();
    const accounts = await client.kfAccounts(token);
    if (accounts.some((a) => !OPEN_KFID.test(a.open_kfid))) throw new WorkWechatError("network", "kf/account/list answered an open_kfid not in its format");
    read = [...new Map(accounts.map((a) => [a.open_kfid, keptForm(a)])).values()];
    const listed = new Map((await listedAccounts(ctx.db, sysid)).map((a) => [a.open_kfid, a]));
    for (const account of read) {
      if (listed.get(account.open_kfid)?.url) continue;
      const url = await client.contactLink(token, account.open_kfid, CONTACT_SCENE);
      if (url.length > URL_MAX || !URL_PATTERN.test(url)) throw new WorkWechatError("network", "kf/add_contact_way answered a link not in its format");
      links.set(account.open_kfid, url);
    }
  } catch (error) {
    if (error instanceof WorkWechatError) {
      ctx.log.warn({ sysid, err: error.message }, "qwkfsync: enterprise WeChat failed");
      throw wechatFailure(ctx, error);
    }
    throw error;
  }

  const counts = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SYNC_LOCK}, ${sysid})`);
    const listed = await listedAccounts(tx, sysid);
    const byKfid = new Map(listed.map((a) => [a.open_kfid, a]));
    let sort = listed.reduce((most, a) => Math.max(most, a.sort), 0);
    const counted = { added: 0, updated: 0, unchanged: 0 };
    for (const account of read) {
      const known = byKfid.get(account.open_kfid);
      if (!known) {
        const url = links.get(account.open_kfid);
        // gone from the list since it was read, its link never asked: the next sync adds it
        if (!url) continue;
        sort = Math.min(sort + 1, SORT_MAX);
        await tx.insert(qwKfAccounts).values({ sysid, ...account, url, sort, status: "1", synced_at: ctx.now, created_at: ctx.now });
        counted.added++;
        continue;
      }
      const url = known.url || links.get(account.open_kfid) || known.url;
      const changed = known.name !== account.name || known.avatar !== account.avatar || known.url !== url;
      await tx
        .update(qwKfAccounts)
        .set({ name: account.name, avatar: account.avatar, url, synced_at: ctx.now })
        .where(eq(qwKfAccounts.id, known.id));
      counted[changed ? "updated" : "unchanged"]++;
    }
    await auditCall(tx, ctx, { action: customerServiceSync.name, entity: customerServiceEntity.name, entityId: "", detail: { ...counted }, sysid, schId: null });
    return counted;
  });
  return { data: { items: counts }, messageKey: "qwkf.sync.done", messageParams: counts };
}

export function registerCustomerService(registry: OperationRegistry): void {
  registerDeclared(registry, customerServiceSync, (ctx) => syncAccounts(ctx));
}
