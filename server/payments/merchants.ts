/**
 * Merchant credentials of the payment gateways (payment_merchants): the platform's (sysid null, receives renewal
 * payments) and each provider's. The merchant private key and the APIv3 key are stored encrypted
 * (server/payments/secrets.ts) and never leave the server: `paymerchantinfo` only says whether they are set.
 */
import { OPERATOR_ROLES } from "../../common/roleKeys";
import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { auditCall } from "../auth/audit";
import { resolveScope } from "../auth/scope";
import type { DbOrTx } from "../db/client";
import { paymentMerchants } from "../db/schema";
import { ApiFailure } from "../protocol/envelope";
import type { AppServices, OperationRegistry } from "../protocol/registry";
import { PaymentKeyMissingError, type PaymentSecrets } from "./secrets";
import { WECHATPAY_API_BASE, WechatPayGateway, type WechatPayConfig } from "./wechatpay/gateway";

export type PaymentMerchant = typeof paymentMerchants.$inferSelect;

/** AAD of each encrypted column: a value copied into the other column does not decrypt */
const PRIVATE_KEY_PURPOSE = "payment_merchants.private_key";
const API_V3_KEY_PURPOSE = "payment_merchants.api_v3_key";
const APP_SECRET_PURPOSE = "payment_merchants.app_secret";
const API_V3_KEY_LENGTH = 32;
const PEM_MAX_LENGTH = 10_000;
/** advisory lock serialising paymerchantset (any constant of this application) */
const MERCHANT_LOCK_KEY = 720_301;

const MERCHANT_ROLES = [...OPERATOR_ROLES, "service", "servicev2"] as const;

/** The merchant of a provider (sysid) or of the platform (null) for a gateway. */
export async function loadMerchant(db: DbOrTx, sysid: number | null, gateway = "wechatpay"): Promise<PaymentMerchant | undefined> {
  const [row] = await db
    .select()
    .from(paymentMerchants)
    .where(and(sysid === null ? isNull(paymentMerchants.sysid) : eq(paymentMerchants.sysid, sysid), eq(paymentMerchants.gateway, gateway)));
  return row;
}

/**
 * The WeChat Pay merchant with this mchid, enabled or not (a payment made before disabling still counts).
 * paymerchantset keeps a mchid to one owner, so that nobody can register a known mchid with keys of their own.
 */
export async function wechatPayMerchantById(db: DbOrTx, merchantId: string): Promise<PaymentMerchant | undefined> {
  const [row] = await db
    .select()
    .from(paymentMerchants)
    .where(and(eq(paymentMerchants.merchantId, merchantId), eq(paymentMerchants.gateway, "wechatpay")));
  return row;
}

export function wechatPayConfigOf(row: PaymentMerchant, secrets: PaymentSecrets): WechatPayConfig {
  return {
    merchantId: row.merchantId,
    appid: row.appid,
    merchantSerialNo: row.merchantSerialNo,
    privateKeyPem: secrets.decrypt(row.privateKeyEnc, PRIVATE_KEY_PURPOSE),
    apiV3Key: secrets.decrypt(row.apiV3KeyEnc, API_V3_KEY_PURPOSE),
    platformKeyId: row.platformKeyId,
    platformPublicKeyPem: row.platformPublicKey,
    apiBase: row.apiBase || WECHATPAY_API_BASE,
  };
}

/**
 * The AppSecret of the merchant's app, for exchanging a payer's OAuth code for their openid; undefined when none is
 * stored (or it does not decrypt: JSAPI is then simply not offered).
 */
export function merchantAppSecret(services: Pick<AppServices, "paymentSecrets">, row: PaymentMerchant): string | undefined {
  if (!row.appSecretEnc) return undefined;
  try {
    return services.paymentSecrets.decrypt(row.appSecretEnc, APP_SECRET_PURPOSE);
  } catch {
    return undefined;
  }
}

/**
 * The platform's official account: the app of the platform's WeChat Pay merchant with its AppSecret, once both are
 * stored (paymerchantset). Its users' openids are what template messages reach and what WeChat's web OAuth answers.
 */
export async function platformOfficialAccount(services: Pick<AppServices, "db" | "paymentSecrets">): Promise<{ appid: string; secret: string } | null> {
  const merchant = await loadMerchant(services.db, null);
  const secret = merchant ? merchantAppSecret(services, merchant) : undefined;
  return merchant?.appid && secret ? { appid: merchant.appid, secret } : null;
}

/** The gateway that acts as this merchant (throws when its secrets do not decrypt). */
export function wechatPayGatewayOf(services: Pick<AppServices, "paymentSecrets" | "clock">, row: PaymentMerchant): WechatPayGateway {
  return new WechatPayGateway(wechatPayConfigOf(row, services.paymentSecrets), services.clock);
}

function tryKey<T extends KeyObject>(make: () => T): T | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}

const tenantId = z.union([z.number(), z.string().max(12)]).nullish();

const merchantInfoPayload = z.object({ sysid: tenantId });

const merchantSetPayload = z.object({
  sysid: tenantId,
  gateway: z.literal("wechatpay"),
  merchant_id: z.string().regex(/^\d{1,32}$/),
  appid: z.string().regex(/^[A-Za-z0-9_]{1,32}$/),
  merchant_serial_no: z.string().regex(/^[0-9A-Fa-f]{1,64}$/),
  /** absent or empty: keep the stored one */
  private_key: z
    .string()
    .max(PEM_MAX_LENGTH)
    .refine((pem) => pem === "" || tryKey(() => createPrivateKey(pem))?.asymmetricKeyType === "rsa")
    .optional(),
  /** absent or empty: keep the stored one */
  api_v3_key: z
    .string()
    .refine((key) => key === "" || (key.length === API_V3_KEY_LENGTH && Buffer.byteLength(key, "utf8") === API_V3_KEY_LENGTH))
    .optional(),
  /** the AppSecret of `appid` (an official account), for JSAPI payment inside WeChat; absent or empty: keep the stored one */
  app_secret: z
    .string()
    .regex(/^([0-9A-Za-z]{16,64})?$/)
    .optional(),
  platform_key_id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/),
  platform_public_key: z
    .string()
    .max(PEM_MAX_LENGTH)
    .refine((pem) => tryKey(() => createPublicKey(pem))?.asymmetricKeyType === "rsa"),
  /** the gateway's origin, e.g. https://api.mch.weixin.qq.com; absent or empty: that one */
  api_base: z
    .string()
    .max(200)
    .refine((base) => base === "" || isOrigin(base))
    .optional(),
  enabled: z.enum(["Y", "N"]),
});

/** http(s)://host[:port] and nothing more: request paths are signed as they are sent, so no path prefix. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value.replace(/\/$/, "");
  } catch {
    return false;
  }
}

function merchantInfo(sysid: number | null, row: PaymentMerchant | undefined): Record<string, unknown> {
  return {
    sysid,
    gateway: "wechatpay",
    configured: row !== undefined,
    merchant_id: row?.merchantId ?? "",
    appid: row?.appid ?? "",
    merchant_serial_no: row?.merchantSerialNo ?? "",
    has_private_key: Boolean(row?.privateKeyEnc),
    has_api_v3_key: Boolean(row?.apiV3KeyEnc),
    has_app_secret: Boolean(row?.appSecretEnc),
    platform_key_id: row?.platformKeyId ?? "",
    platform_public_key: row?.platformPublicKey ?? "",
    api_base: row?.apiBase || WECHATPAY_API_BASE,
    enabled: row?.enabled ?? "N",
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}

export function registerMerchantOperations(registry: OperationRegistry): void {
  registry.add({
    path: "adminapiv2",
    method: "paymerchantinfo",
    needsToken: true,
    roles: MERCHANT_ROLES,
    effect: "read",
    schema: merchantInfoPayload,
    async handler(ctx, payload) {
      const scope = await resolveScope(ctx.db, ctx.auth!, { sysid: payload.sysid });
      return { data: { items: merchantInfo(scope.sysid, await loadMerchant(ctx.db, scope.sysid)) } };
    },
  });

  registry.add({
    path: "adminapiv2",
    method: "paymerchantset",
    needsToken: true,
    roles: MERCHANT_ROLES,
    effect: "write",
    schema: merchantSetPayload,
    async handler(ctx, payload) {
      const auth = ctx.auth!;
      const scope = await resolveScope(ctx.db, auth, { sysid: payload.sysid });
      const apiBase = (payload.api_base ?? "").replace(/\/$/, "");
      // the platform decides where the server sends signed requests; a provider keeps WeChat Pay's own address
      if (auth.userType !== "system" && apiBase !== "" && apiBase !== WECHATPAY_API_BASE) throw new ApiFailure("api.no_permission");
      const secrets = ctx.services.paymentSecrets;
      const row = await ctx.db.transaction(async (tx) => {
        // one change of merchant credentials at a time: the mchid check below must see every committed row
        await tx.execute(sql`select pg_advisory_xact_lock(${MERCHANT_LOCK_KEY})`);
        const existing = await loadMerchant(tx, scope.sysid);
        const holder = await wechatPayMerchantById(tx, payload.merchant_id);
        if (holder && holder.id !== existing?.id) {
          // an operator sees the whole platform; anyone else learns nothing about other accounts' merchants
          if (auth.userType === "system") throw new ApiFailure("api.merchant_taken");
          throw new ApiFailure("api.merchant_not_accepted");
        }
        if (!existing?.privateKeyEnc && !payload.private_key) throw new ApiFailure("api.merchant_secret_required", { field: "private_key" });
        if (!existing?.apiV3KeyEnc && !payload.api_v3_key) throw new ApiFailure("api.merchant_secret_required", { field: "api_v3_key" });
        const values = {
          merchantId: payload.merchant_id,
          appid: payload.appid,
          merchantSerialNo: payload.merchant_serial_no.toUpperCase(),
          platformKeyId: payload.platform_key_id,
          platformPublicKey: payload.platform_public_key.trim(),
          apiBase: apiBase === WECHATPAY_API_BASE ? "" : apiBase,
          enabled: payload.enabled,
          updatedAt: ctx.now,
          ...(payload.private_key ? { privateKeyEnc: encryptOrFail(secrets, payload.private_key.trim(), PRIVATE_KEY_PURPOSE) } : {}),
          ...(payload.api_v3_key ? { apiV3KeyEnc: encryptOrFail(secrets, payload.api_v3_key, API_V3_KEY_PURPOSE) } : {}),
          // an AppSecret is its app's: another appid without a new secret leaves none
          ...(payload.app_secret
            ? { appSecretEnc: encryptOrFail(secrets, payload.app_secret, APP_SECRET_PURPOSE) }
            : existing && existing.appid !== payload.appid
              ? { appSecretEnc: "" }
              : {}),
        };
        const [saved] = existing
          ? await tx.update(paymentMerchants).set(values).where(eq(paymentMerchants.id, existing.id)).returning()
          : await tx
              .insert(paymentMerchants)
              .values({ ...values, sysid: scope.sysid, gateway: "wechatpay" })
              .returning();
        await auditCall(tx, ctx, {
          action: "paymerchantset",
          entity: "payment_merchants",
          entityId: saved!.id,
          detail: {
            sysid: scope.sysid,
            gateway: "wechatpay",
            merchant_id: payload.merchant_id,
            enabled: payload.enabled,
            private_key_changed: Boolean(payload.private_key),
            api_v3_key_changed: Boolean(payload.api_v3_key),
            app_secret_changed: Boolean(payload.app_secret),
          },
          // the provider whose merchant it is (null: the platform's own)
          sysid: scope.sysid,
          schId: null,
        });
        return saved!;
      });
      return { data: { items: merchantInfo(scope.sysid, row) } };
    },
  });
}

function encryptOrFail(secrets: PaymentSecrets, plain: string, purpose: string): string {
  try {
    return secrets.encrypt(plain, purpose);
  } catch (err) {
    if (err instanceof PaymentKeyMissingError) throw new ApiFailure("api.payment_key_missing");
    throw err;
  }
}
