/**
 * WeChat Pay API v3 in service-provider mode (the partner API, 服务商模式): the merchant acting as service provider
 * (sp_mchid, with its app sp_appid) orders, queries and closes on behalf of a sub-merchant (sub_mchid), which gets
 * the money. Requests go through the same client as direct mode's: signed with the service provider's key, answers
 * verified with its WeChat Pay public key.
 */
import { z } from "zod";
import type { Clock } from "../../lib/clock";
import { GatewayVerificationError, type JsapiOrder, type JsapiOrderRequest, type QrOrder, type QrOrderRequest, type SubMerchantPayee, type TradeQuery } from "../gateway";
import type { WechatPayClient } from "./client";
import { jsapiPaySign, newNonce, type RequestSigner } from "./signing";
import { DESCRIPTION_MAX_BYTES, parseAnswer, partnerTransactionSchema, rfc3339China, tradeQueryOf, truncateUtf8 } from "./transactions";

const nativeOrderSchema = z.object({ code_url: z.string().min(1) });
const jsapiOrderSchema = z.object({ prepay_id: z.string().min(1) });

/** The merchant acting as service provider: who signs, and the app its payers' sp_openid belong to. */
export interface ServiceProvider {
  merchantId: string;
  appid: string;
  signer: RequestSigner;
}

/** an order of the partner API, by our out_trade_no */
function orderPath(payNo: string): string {
  return `/v3/pay/partner/transactions/out-trade-no/${encodeURIComponent(payNo)}`;
}

export class WechatPayPartnerApi {
  constructor(
    private readonly client: WechatPayClient,
    private readonly provider: ServiceProvider,
    private readonly clock: Clock,
  ) {}

  /** The fields Native and JSAPI orders share. */
  private orderBody(request: QrOrderRequest & SubMerchantPayee, subAppid?: string) {
    return {
      sp_appid: this.provider.appid,
      sp_mchid: this.provider.merchantId,
      // JSON leaves it out when undefined: only an order whose payer is known by the sub-merchant's app names it
      sub_appid: subAppid,
      sub_mchid: request.subMchid,
      description: truncateUtf8(request.description, DESCRIPTION_MAX_BYTES),
      out_trade_no: request.payNo,
      time_expire: rfc3339China(request.expiresAt),
      notify_url: request.notifyUrl,
      amount: { total: request.amountFen, currency: "CNY" },
    };
  }

  async createNativeOrder(request: QrOrderRequest & SubMerchantPayee): Promise<QrOrder> {
    const { body } = await this.client.request("POST", "/v3/pay/partner/transactions/native", this.orderBody(request));
    return { codeUrl: parseAnswer(nativeOrderSchema, body, "order").code_url };
  }

  async createJsapiOrder(request: JsapiOrderRequest): Promise<JsapiOrder> {
    const { payer } = request;
    const bySubApp = "subOpenid" in payer;
    const { body } = await this.client.request("POST", "/v3/pay/partner/transactions/jsapi", {
      ...this.orderBody(request, bySubApp ? payer.subAppid : undefined),
      payer: bySubApp ? { sub_openid: payer.subOpenid } : { sp_openid: payer.spOpenid },
    });
    const prepayId = parseAnswer(jsapiOrderSchema, body, "order").prepay_id;
    // the bridge is called in the app the payer's openid belongs to
    const appId = bySubApp ? payer.subAppid : this.provider.appid;
    const timeStamp = String(Math.floor(this.clock.now().getTime() / 1000));
    const nonceStr = newNonce();
    const prepayPackage = `prepay_id=${prepayId}`;
    return {
      prepayId,
      payParams: {
        appId,
        timeStamp,
        nonceStr,
        package: prepayPackage,
        signType: "RSA",
        paySign: jsapiPaySign(this.provider.signer, appId, timeStamp, nonceStr, prepayPackage),
      },
    };
  }

  async query(payNo: string, payee: SubMerchantPayee): Promise<TradeQuery> {
    const query = new URLSearchParams({ sp_mchid: this.provider.merchantId, sub_mchid: payee.subMchid });
    const { body } = await this.client.request("GET", `${orderPath(payNo)}?${query.toString()}`);
    const transaction = parseAnswer(partnerTransactionSchema, body, "query");
    if (transaction.out_trade_no !== payNo || transaction.sp_mchid !== this.provider.merchantId || transaction.sub_mchid !== payee.subMchid) {
      throw new GatewayVerificationError("query answer names another order, service provider or sub-merchant");
    }
    return tradeQueryOf(transaction);
  }

  async close(payNo: string, payee: SubMerchantPayee): Promise<void> {
    await this.client.request("POST", `${orderPath(payNo)}/close`, { sp_mchid: this.provider.merchantId, sub_mchid: payee.subMchid });
  }
}
