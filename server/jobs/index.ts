/**
 * The background jobs the server runs (docs/architecture.md, "Background jobs"): the built-in kinds are
 * registered here, in the registry the server's worker reads.
 */
import { CLOSE_EXPIRED_ORDERS, CLOSE_EXPIRED_ORDERS_EVERY_SECONDS, closeExpiredOrders } from "./closeExpiredOrders";
import { COMPACT_STATE_TOTALS, COMPACT_STATE_TOTALS_EVERY_SECONDS, compactAllStateTotals } from "./compactStateTotals";
import { PRUNE_FINISHED_JOBS, PRUNE_FINISHED_JOBS_EVERY_SECONDS, pruneFinishedJobs } from "./pruneFinishedJobs";
import { jobKinds, registerJobKind } from "./registry";
import { SEND_REFUND, sendRefundJob, SYNC_REFUNDS, SYNC_REFUNDS_EVERY_SECONDS, syncRefundsJob } from "../payments/refunds";
import { DELIVER_WEBHOOK, deliverWebhook, WEBHOOK_ATTEMPTS } from "../domains/openapi/webhooks";
import { PRUNE_API_TOKENS, PRUNE_API_TOKENS_EVERY_SECONDS, pruneApiTokens } from "../domains/openapi/access";
import { CHECK_PRINT_JOBS, CHECK_PRINT_JOBS_EVERY_SECONDS, checkPrintJobs, PRINT_JOB_ATTEMPTS, SEND_PRINT_JOB, sendPrintJob } from "../domains/devices/printing";

if (!jobKinds.get(CLOSE_EXPIRED_ORDERS)) {
  registerJobKind(CLOSE_EXPIRED_ORDERS, closeExpiredOrders, { everySeconds: CLOSE_EXPIRED_ORDERS_EVERY_SECONDS });
}
if (!jobKinds.get(PRUNE_FINISHED_JOBS)) {
  registerJobKind(PRUNE_FINISHED_JOBS, pruneFinishedJobs, { everySeconds: PRUNE_FINISHED_JOBS_EVERY_SECONDS });
}
// refunds of every payment kind: sent once accepted, then asked after until they end
if (!jobKinds.get(SEND_REFUND)) registerJobKind(SEND_REFUND, sendRefundJob, { maxAttempts: 1 });
if (!jobKinds.get(SYNC_REFUNDS)) registerJobKind(SYNC_REFUNDS, syncRefundsJob, { everySeconds: SYNC_REFUNDS_EVERY_SECONDS });
// receipts: each sent by a run of its own, retried with backoff; those sent asked after until they printed
if (!jobKinds.get(SEND_PRINT_JOB)) registerJobKind(SEND_PRINT_JOB, sendPrintJob, { maxAttempts: PRINT_JOB_ATTEMPTS, leaseSeconds: 60 });
if (!jobKinds.get(CHECK_PRINT_JOBS)) registerJobKind(CHECK_PRINT_JOBS, checkPrintJobs, { everySeconds: CHECK_PRINT_JOBS_EVERY_SECONDS });
// webhooks of the open API: each event retried until its client takes it
if (!jobKinds.get(DELIVER_WEBHOOK)) registerJobKind(DELIVER_WEBHOOK, deliverWebhook, { maxAttempts: WEBHOOK_ATTEMPTS, leaseSeconds: 60 });
if (!jobKinds.get(PRUNE_API_TOKENS)) registerJobKind(PRUNE_API_TOKENS, pruneApiTokens, { everySeconds: PRUNE_API_TOKENS_EVERY_SECONDS });
if (!jobKinds.get(COMPACT_STATE_TOTALS)) {
  registerJobKind(COMPACT_STATE_TOTALS, compactAllStateTotals, { everySeconds: COMPACT_STATE_TOTALS_EVERY_SECONDS });
}

export { jobKinds, registerJobKind, JobKinds } from "./registry";
export type { JobContext, JobHandler, JobKindOptions, JobServices } from "./registry";
export { enqueueJob, JobWorker, type JobWorkerOptions } from "./worker";
