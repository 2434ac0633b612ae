/**
 * A payment channel's money of a day, as reconciliation (./reconciliation.ts) matches it against the trade bill and
 * settlement (./settlements.ts) pays it to the schools: one definition for both, so that a day's settlement is the
 * day reconciliation checked.
 *
 * The channel's payments are the payment orders of every kind paid to a school's channel (payee "school_channel",
 * server/payments/kinds.ts: fees, the shop's orders) that were made with the channel's sub-merchant and gateway:
 * a payment order records the merchant it was made for (`merchant_id`, the channel's `sub_mchid`), and a channel's
 * sub-merchant is given once, when it is approved, and is never another channel's (a unique index; an approved
 * channel is never edited again), so a payment belongs to the channel its order was made on, whichever channel its
 * school is bound to now. The day's payments are those paid (SUCCESS, by `paid_at`) within it; its refunds are the
 * refunds of the channel's payments the gateway took within it (`submitted_at`), of any state.
 */
import { and, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { paymentOrders, refunds } from "../../db/schema";
import { paymentKindsPaying } from "../../payments/kinds";

/** What identifies a channel's payments: its gateway and the sub-merchant it was approved with (none: no payments). */
export interface ChannelMerchant {
  gateway: string;
  sub_mchid: string | null;
}

/** The payment orders of the kinds paid to a school's channel, whichever channel. */
export function paidToSchoolChannels(): SQL {
  const kinds = paymentKindsPaying("school_channel");
  return kinds.length === 0 ? sql`false` : inArray(paymentOrders.kind, kinds);
}

/** The payment orders made for the channel, of the kinds paid to a school's channel, whatever their state. */
export function channelOrders(channel: ChannelMerchant): SQL {
  if (!channel.sub_mchid) return sql`false`;
  return and(eq(paymentOrders.merchantId, channel.sub_mchid), eq(paymentOrders.gateway, channel.gateway), paidToSchoolChannels())!;
}

/** The channel's payments of a day: its orders paid within [from, to). */
export function dayPayments(channel: ChannelMerchant, from: Date, to: Date): SQL {
  return and(channelOrders(channel), eq(paymentOrders.status, "SUCCESS"), gte(paymentOrders.paidAt, from), lt(paymentOrders.paidAt, to))!;
}

/** The refunds of the channel's payments the gateway took within [from, to): a condition on refunds joined to their payment orders by pay_no. */
export function dayRefunds(channel: ChannelMerchant, from: Date, to: Date): SQL {
  return and(channelOrders(channel), gte(refunds.submitted_at, from), lt(refunds.submitted_at, to))!;
}
