/**
 * Folding the state totals (server/db/stateTotals.ts): every write of an order appends its difference as a row of
 * its own; this job sums each tenant's and state's rows into one, so that the rows a list reads stay few.
 */
import { entities } from "../../resources.config";
import { compactStateTotals } from "../db/stateTotals";
import type { JobContext } from "./registry";

export const COMPACT_STATE_TOTALS = "state_totals.compact";
export const COMPACT_STATE_TOTALS_EVERY_SECONDS = 60;

export function compactAllStateTotals({ db }: JobContext): Promise<{ folded: number }> {
  return compactStateTotals(db, entities);
}
