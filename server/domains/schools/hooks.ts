/** The behaviour of a provider's schools and of their classes beyond CRUD. */
import { and, eq } from "drizzle-orm";
import { revokeSchoolSessions } from "../../auth/sessions";
import { students } from "../../db/schema";
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
  // a disabled school's accounts are logged out at once, in every server process, and stay so when it is enabled again
  async afterEdit(ctx, tx, before, after) {
    if (before.status !== "0" && after.status === "0") await revokeSchoolSessions(tx, Number(after.id), ctx.now);
  },
};

export const classesHooks: EntityHooks = {
  // a class moved to another grade takes its students with it, in the same transaction: a student's grade is
  // always its class's, so lists filtered by grade and the reports agree with the class
  async afterEdit(_ctx, tx, before, after) {
    if (before.grade_id === after.grade_id) return;
    await tx
      .update(students)
      .set({ grade_id: Number(after.grade_id) })
      .where(and(eq(students.class_id, Number(after.id)), eq(students.sch_id, Number(after.sch_id))));
  },
};
