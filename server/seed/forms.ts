/**
 * Demo activity forms and after-payment actions: Sunrise's form of two questions (how the pupil goes home, a
 * choice; allergies or notes, a text) bound to Sunrise No.1's open term activity, and a link to the parents' group
 * offered on that activity's result page once paid. Both questions are optional, so that a payer of the demo (and
 * every demo payment the tests make) may pay without answering; a school's own form marks what it must know.
 */
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { activities, activityForms, formQuestions, payEndActions } from "../db/schema";

export async function seedFormsAndActions(tx: DbOrTx, school: { id: number; sysid: number }): Promise<void> {
  const [open] = await tx
    .select({ id: activities.id })
    .from(activities)
    .where(and(eq(activities.sch_id, school.id), eq(activities.status, "open")))
    .limit(1);
  if (!open) return;
  const [form] = await tx
    .insert(activityForms)
    .values({ sysid: school.sysid, title: "春季学期信息 Spring term details", intro: "请在缴费前填写 Please answer before paying", activity_ids: [open.id], status: "1" })
    .returning({ id: activityForms.id });
  await tx.insert(formQuestions).values([
    { sysid: school.sysid, form_id: form.id, sort: 0, label: "放学方式 Going home", kind: "choice", options: "家长接送 Picked up\n校车 School bus\n自行回家 Walks home", required: "N" },
    { sysid: school.sysid, form_id: form.id, sort: 1, label: "过敏或特别说明 Allergies or notes", kind: "text", options: null, required: "N" },
  ]);
  await tx.insert(payEndActions).values({
    sysid: school.sysid,
    title: "加入家长群 Parents' group",
    kind: "link",
    url: "https://sunrise.example.com/parents-group",
    text: "缴费后加入班级家长群 Join your class's parents' group",
    activity_ids: [open.id],
    status: "1",
  });
}
