/**
 * Fee collection's server side: the effects of its declared actions, the bills of students joining a targeted
 * class, the activity board and the job opening and closing activities at their dates.
 */
import { activityAct, billAdjust, billWaive } from "../../../catalogue/collection";
import type { ActionEffects } from "../../engine/actions";
import type { EntityHooksByName } from "../../engine/hooks";
import { jobKinds, registerJobKind } from "../../jobs/registry";
import type { OperationRegistry } from "../../protocol/registry";
import { activityActEffect, billAdjustEffect, billWaiveEffect, studentBillingHooks, type SchoolChannelLookup } from "./activities";
import { registerActivityBoard } from "./board";
import { ACTIVITY_DATES, ACTIVITY_DATES_EVERY_SECONDS, activityDatesJob } from "./jobs";

export function collectionEffects(schoolChannel: SchoolChannelLookup): ActionEffects {
  return {
    [activityAct.name]: activityActEffect(schoolChannel),
    [billWaive.name]: billWaiveEffect,
    [billAdjust.name]: billAdjustEffect,
  };
}

export const collectionHooks: EntityHooksByName = { student: studentBillingHooks };

export function registerCollectionOperations(registry: OperationRegistry, schoolChannel: SchoolChannelLookup): void {
  registerActivityBoard(registry);
  if (!jobKinds.get(ACTIVITY_DATES)) registerJobKind(ACTIVITY_DATES, activityDatesJob(schoolChannel), { everySeconds: ACTIVITY_DATES_EVERY_SECONDS });
}
