/**
 * Fee collection's server side: the effects of its declared actions, the bills of students joining a targeted
 * class, the activity board, the job opening and closing activities at their dates, refunds and reconciliation.
 */
import { activityAct, billAdjust, billWaive } from "../../../catalogue/collection";
import { refundAdd } from "../../../catalogue/collectionOrders";
import { refundReview } from "../../../catalogue/collectionRefunds";
import type { ActionEffects } from "../../engine/actions";
import type { EntityHooksByName } from "../../engine/hooks";
import { jobKinds, registerJobKind } from "../../jobs/registry";
import type { OperationRegistry } from "../../protocol/registry";
import { activityActEffect, billAdjustEffect, billWaiveEffect, studentBillingHooks, type SchoolChannelLookup } from "./activities";
import { registerActivityBoard } from "./board";
import { registerBillImport } from "./billImport";
import { ACTIVITY_DATES, ACTIVITY_DATES_EVERY_SECONDS, activityDatesJob } from "./jobs";
import { CLOSE_SIBLING_ORDERS, closeSiblingOrders, feeOrderHooks, feePaymentHooks } from "./feeOrders";
import { activityFormHooks, registerPayEndActionBind } from "./forms";
import { registerPayerApi } from "./payerApi";
import { PRUNE_PAYER_TICKETS, PRUNE_PAYER_TICKETS_EVERY_SECONDS, prunePayerTickets } from "./payerTickets";
import { qrChannelHooks } from "./qrChannels";
import { RECON_DAILY, RECON_DAILY_EVERY_SECONDS, reconDailyJob, registerReconciliation } from "./reconciliation";
import { refundAddEffect, refundReviewEffect } from "./refunds";
import { registerSettleSummary } from "./settlements";
import { registerVoucherOperations } from "./vouchers";

export function collectionEffects(schoolChannel: SchoolChannelLookup): ActionEffects {
  return {
    [activityAct.name]: activityActEffect(schoolChannel),
    [billWaive.name]: billWaiveEffect,
    [billAdjust.name]: billAdjustEffect,
    [refundAdd.name]: refundAddEffect,
    [refundReview.name]: refundReviewEffect,
  };
}

export const collectionHooks: EntityHooksByName = {
  student: studentBillingHooks,
  qrchnl: qrChannelHooks,
  // activity forms (forms.ts)
  activityform: activityFormHooks,
  // an order's activity filter finds it by any of its lines' (feeOrders.ts)
  order: feeOrderHooks,
  payment: feePaymentHooks,
};

export function registerCollectionOperations(registry: OperationRegistry, schoolChannel: SchoolChannelLookup): void {
  registerActivityBoard(registry);
  registerPayEndActionBind(registry);
  // an activity's bills from a spreadsheet, on the engine's import
  registerBillImport(registry);
  if (!jobKinds.get(ACTIVITY_DATES)) registerJobKind(ACTIVITY_DATES, activityDatesJob(schoolChannel), { everySeconds: ACTIVITY_DATES_EVERY_SECONDS });
  // fee payments: the payer page's calls, the orders left open for bills another order paid, expired tickets
  registerPayerApi(registry);
  registerVoucherOperations(registry);
  if (!jobKinds.get(CLOSE_SIBLING_ORDERS)) registerJobKind(CLOSE_SIBLING_ORDERS, closeSiblingOrders, { maxAttempts: 10, retryDelaySeconds: 30 });
  // reconciliation: a day's trade bill against our records, now or every day
  registerReconciliation(registry);
  registerSettleSummary(registry);
  if (!jobKinds.get(RECON_DAILY)) registerJobKind(RECON_DAILY, reconDailyJob, { everySeconds: RECON_DAILY_EVERY_SECONDS });
  if (!jobKinds.get(PRUNE_PAYER_TICKETS)) registerJobKind(PRUNE_PAYER_TICKETS, prunePayerTickets, { everySeconds: PRUNE_PAYER_TICKETS_EVERY_SECONDS });
}
