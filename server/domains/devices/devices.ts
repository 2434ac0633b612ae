/**
 * Receipt printers as the provider keeps them (catalogue/devices.ts devicelist): a cloud printer needs its key and
 * its open platform account (both secrets kept encrypted in device_secrets, never answered) and is added at its
 * vendor when saved, a refusal naming why; the sandbox printer needs nothing. A print job that failed for good is
 * sent again as it was (printjobretry), under the same key.
 */
import { eq } from "drizzle-orm";
import { deviceEntity } from "../../../catalogue/devices";
import type { DbOrTx } from "../../db/client";
import { devices } from "../../db/schema";
import { actionFieldFailure, type ActionEffects } from "../../engine/actions";
import type { EntityHooks, Row } from "../../engine/hooks";
import { labelText } from "../../lib/i18n";
import type { OperationContext } from "../../protocol/registry";
import { PrinterError } from "./printers";
import { driverOf, enqueueSend, hasSecrets, printerOf, storeSecrets } from "./printing";

/** a secret sent with the save (a password field, never a column): the payload's text, empty when not sent */
function sentSecret(ctx: OperationContext, name: string): string {
  const value = ctx.payload[name];
  return typeof value === "string" ? value : "";
}

/**
 * The device as saved: its secrets stored, a cloud printer's account and secrets all there, and the printer added at
 * its vendor (which checks them); a refusal undoes the save.
 */
async function saved(ctx: OperationContext, tx: DbOrTx, row: Row): Promise<void> {
  const id = Number(row.id);
  await storeSecrets(tx, id, { printerKey: sentSecret(ctx, "printer_key"), accountSecret: sentSecret(ctx, "account_secret") }, ctx.services.paymentSecrets);
  if (row.vendor === "sandbox") return;
  const held = await hasSecrets(tx, id);
  for (const [name, present] of [
    ["account_user", typeof row.account_user === "string" && row.account_user !== ""],
    ["printer_key", held.printerKey],
    ["account_secret", held.accountSecret],
  ] as const) {
    if (present) continue;
    const label = labelText(ctx.t, deviceEntity.fields.find((f) => f.name === name)!.label, name);
    throw actionFieldFailure(ctx, name, "devices.errors.secret_required", { label });
  }
  const [device] = await tx.select().from(devices).where(eq(devices.id, id));
  try {
    await driverOf(device, ctx.services).addPrinter(await printerOf(tx, device, ctx.services.paymentSecrets));
  } catch (error) {
    if (!(error instanceof PrinterError)) throw error;
    throw actionFieldFailure(ctx, error.code === "auth" ? "printer_key" : "sn", "devices.errors.vendor_refused", { reason: ctx.t(`devices.print_error.${error.code}`) });
  }
}

export const deviceHooks: EntityHooks = {
  afterAdd: (ctx, tx, row) => saved(ctx, tx, row),
  afterEdit: (ctx, tx, _before, after) => saved(ctx, tx, after),
};

export const printJobEffects: ActionEffects = {
  // queued again under its key: the job queue sends it as a new run, its attempts counted on
  printjobretry: async ({ ctx, tx, row }) => {
    await enqueueSend(tx, Number(row.id), ctx.now);
    return { changes: { last_error: null }, wakeJobs: true };
  },
};
