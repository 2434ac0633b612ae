/**
 * POST /pay/notify/wechatpay/:merchantId: WeChat Pay's payment notifications (API v3). The raw body is verified
 * with the merchant's WeChat Pay public key (by serial or PUB_KEY_ID, timestamp within five minutes), its
 * AEAD_AES_256_GCM resource decrypted with the APIv3 key, and the paid order applied once (amount and merchant
 * checked against it). WeChat Pay reads any 2xx as received and retries otherwise. POST .../:merchantId/refund
 * takes refunds' notifications the same way, applied to the refund of that number (./refunds.ts).
 */
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { gatewayActor, writeAudit } from "../auth/audit";
import { paymentOrders } from "../db/schema";
import type { AppServices } from "../protocol/registry";
import { applyPaidOrder, PaymentMismatchError } from "./apply";
import { applyRefundResult } from "./refunds";
import { GatewayVerificationError } from "./gateway";
import { wechatPayGatewayOf, wechatPayMerchantById } from "./merchants";

const NOTIFY_BODY_LIMIT = 64 * 1024;

function refuse(reply: FastifyReply, status: number, message: string) {
  return reply.status(status).send({ code: "FAIL", message });
}

export function registerNotifyRoutes(app: FastifyInstance, services: AppServices): void {
  void app.register(async (scope) => {
    // the signature covers the body exactly as sent: keep it as a string
    scope.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: NOTIFY_BODY_LIMIT }, (_request, body, done) => done(null, body));

    scope.post<{ Params: { merchantId: string }; Body: string }>("/pay/notify/wechatpay/:merchantId", async (request, reply) => {
      const merchantId = request.params.merchantId;
      const merchant = /^\d{1,32}$/.test(merchantId) ? await wechatPayMerchantById(services.db, merchantId) : undefined;
      if (!merchant) return refuse(reply, 404, "unknown merchant");
      const headers = lowerCaseHeaders(request.headers);
      const rawBody = typeof request.body === "string" ? request.body : "";
      try {
        const notice = await wechatPayGatewayOf(services, merchant).verifyNotification(headers, rawBody);
        // the merchant notified is the one that took the order: itself in direct mode, the service provider of a
        // school's sub-merchant in service-provider mode (applyPaidOrder then checks the sub-merchant against the order)
        if ((notice.spMchid ?? notice.merchantId) !== merchant.merchantId) {
          // authentic for this merchant, but about another's order: someone holding one merchant's keys tries to pay
          // another's orders; the entry concerns the order named (else the merchant's provider)
          const [order] = await services.db
            .select({ sysid: paymentOrders.sysid, schId: paymentOrders.schId })
            .from(paymentOrders)
            .where(eq(paymentOrders.payNo, notice.payNo));
          await writeAudit(services.db, gatewayActor(request.ip), {
            action: "payment_mismatch",
            entity: "payment_order",
            entityId: notice.payNo,
            detail: { gateway: "wechatpay", merchant_id: notice.merchantId, sp_merchant_id: notice.spMchid ?? null, notified_merchant_id: merchant.merchantId },
            sysid: order ? order.sysid : merchant.sysid,
            schId: order ? order.schId : null,
          });
          throw new PaymentMismatchError("notification names another merchant");
        }
        // only a paid transaction changes anything; other states are acknowledged
        if (notice.state !== "SUCCESS") return reply.status(204).send();
        const applied = await applyPaidOrder(services.db, { ...notice, gateway: "wechatpay", ip: request.ip }, services.clock.now());
        if (!applied) {
          request.log.warn({ payNo: notice.payNo }, "payment notification for an unknown order");
          return refuse(reply, 404, "unknown order");
        }
        return reply.status(204).send();
      } catch (err) {
        return refuseNotification(err, "payment", request, reply);
      }
    });

    // a refund's end (REFUND.SUCCESS, REFUND.ABNORMAL, REFUND.CLOSED), for a refund sent with this address
    scope.post<{ Params: { merchantId: string }; Body: string }>("/pay/notify/wechatpay/:merchantId/refund", async (request, reply) => {
      const merchantId = request.params.merchantId;
      const merchant = /^\d{1,32}$/.test(merchantId) ? await wechatPayMerchantById(services.db, merchantId) : undefined;
      if (!merchant) return refuse(reply, 404, "unknown merchant");
      try {
        const notice = await wechatPayGatewayOf(services, merchant).verifyRefundNotification(lowerCaseHeaders(request.headers), typeof request.body === "string" ? request.body : "");
        // the refund named must be one this merchant made for the payee it names, as for a payment
        const [order] = await services.db
          .select({ merchantId: paymentOrders.merchantId, spMerchantId: paymentOrders.spMerchantId })
          .from(paymentOrders)
          .where(eq(paymentOrders.payNo, notice.payNo));
        if (!order || order.merchantId !== notice.merchantId || (order.spMerchantId || order.merchantId) !== (notice.spMchid ?? notice.merchantId) || merchant.merchantId !== (notice.spMchid ?? notice.merchantId)) {
          throw new PaymentMismatchError("refund notification names another merchant or order");
        }
        const applied = await applyRefundResult(services.db, notice, services.clock.now(), "notification");
        if (!applied) {
          request.log.warn({ refundNo: notice.refundNo }, "refund notification for an unknown refund");
          return refuse(reply, 404, "unknown refund");
        }
        return reply.status(204).send();
      } catch (err) {
        return refuseNotification(err, "refund", request, reply);
      }
    });
  });
}

/**
 * The answer to a notification that is not authentic (401) or does not match its order (400), logged; WeChat Pay
 * tries again later. Any other fault goes on.
 */
function refuseNotification(err: unknown, what: "payment" | "refund", request: FastifyRequest<{ Params: { merchantId: string } }>, reply: FastifyReply) {
  const merchantId = request.params.merchantId;
  if (err instanceof GatewayVerificationError) {
    request.log.warn({ err, merchantId }, `${what} notification refused: not authentic`);
    return refuse(reply, 401, "verification failed");
  }
  if (err instanceof PaymentMismatchError) {
    request.log.error({ err, merchantId }, `${what} notification refused: it does not match its order`);
    return refuse(reply, 400, "order mismatch");
  }
  throw err;
}

/** Header names in lower case, one value each, as the gateways read them. */
function lowerCaseHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(raw)) headers[name.toLowerCase()] = Array.isArray(value) ? value[0] : value;
  return headers;
}
