/** The school entity's behaviour beyond CRUD. */
import { ApiFailure } from "../../protocol/envelope";
import type { EntityHooks } from "../../engine/hooks";

export const schoolHooks: EntityHooks = {
  // a provider cannot hand a school more time than it has itself
  beforeAdd(ctx, scope, record) {
    const providerEnd = scope.provider?.endTime.slice(0, 10);
    if (ctx.auth?.userType === "system" || !providerEnd || typeof record.endtime !== "string" || record.endtime <= providerEnd) return;
    const message = ctx.t("api.endtime_beyond_provider", { end: providerEnd });
    throw new ApiFailure("api.endtime_beyond_provider", { end: providerEnd }, { errors: [{ field: "endtime", message }] });
  },
};
