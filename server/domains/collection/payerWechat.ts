/**
 * Paying inside WeChat (JSAPI): a payer whose page runs in WeChat's browser pays on WeChat's own payment sheet
 * instead of scanning a QR code, which needs their openid in the app of the merchant that takes the order. That is
 * the platform's WeChat Pay merchant acting as service provider (sp_appid, an official account), and only for a
 * school whose channel is a WeChat Pay sub-merchant, once the platform stored the app's AppSecret.
 *
 * The page sends the payer through WeChat's silent OAuth (snsapi_base) and hands the code back to h5oauth, which
 * exchanges it for the openid and answers a token for it: 32 random bytes (base64url) of which only the SHA-256 is
 * kept (payer_wechat_ids), valid for WECHAT_ID_HOURS. h5pay names the token to order by JSAPI; without one (any
 * other browser, a sandbox channel) it orders by QR code as before.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lte } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { payerWechatIds } from "../../db/schema";
import { loadMerchant, merchantAppSecret } from "../../payments/merchants";
import type { AppServices } from "../../protocol/registry";
import { schoolChannel } from "../fees";

export const WECHAT_ID_HOURS = 2;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function hashOf(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The app a payer of this school signs in to for JSAPI payment, with its secret; null when JSAPI is not offered. */
export async function jsapiAppOfSchool(services: Pick<AppServices, "db" | "paymentSecrets">, schId: number): Promise<{ appid: string; secret: string } | null> {
  const channel = await schoolChannel(services.db, schId);
  if (channel?.gateway !== "wechatpay") return null;
  const merchant = await loadMerchant(services.db, null, "wechatpay");
  if (merchant?.enabled !== "Y" || !merchant.appid) return null;
  const secret = merchantAppSecret(services, merchant);
  return secret ? { appid: merchant.appid, secret } : null;
}

export async function issueWechatIdToken(db: DbOrTx, id: { appid: string; openid: string }, now: Date): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db.insert(payerWechatIds).values({ tokenHash: hashOf(token), ...id, createdAt: now, expiresAt: new Date(now.getTime() + WECHAT_ID_HOURS * 3600_000) });
  return token;
}

/** The payer's openid a live token stands for, or undefined (unknown, expired: the payer pays by QR code). */
export async function wechatIdOf(db: DbOrTx, token: string | undefined, now: Date): Promise<{ appid: string; openid: string } | undefined> {
  if (!token || !TOKEN_PATTERN.test(token)) return undefined;
  const [row] = await db
    .select({ appid: payerWechatIds.appid, openid: payerWechatIds.openid })
    .from(payerWechatIds)
    .where(and(eq(payerWechatIds.tokenHash, hashOf(token)), gt(payerWechatIds.expiresAt, now)));
  return row;
}

/** The tokens that have expired are deleted (with the payer tickets, hourly). */
export async function pruneWechatIds(db: DbOrTx, now: Date): Promise<number> {
  const deleted = await db.delete(payerWechatIds).where(lte(payerWechatIds.expiresAt, now)).returning({ hash: payerWechatIds.tokenHash });
  return deleted.length;
}
