/**
 * An activity's board (`activityboard`): for each class (named with its grade) its bills, how many are paid, how many
 * were paid an amount other than they owe now (flagged, to settle by hand), the amounts due and collected and the
 * collection rate, and the same for the whole activity, in one grouped query.
 */
import { and, eq, sql } from "drizzle-orm";
import { activityBoardOperation, activityEntity } from "../../../catalogue/collection";
import { classesEntity, gradeEntity } from "../../../catalogue/schools";
import type { ActivityBoard, BoardRow } from "../../../common/activityBoard";
import { fenToYuan } from "../../../common/money";
import { resolveScope } from "../../auth/scope";
import { activities, bills, classes, grades } from "../../db/schema";
import { entityTenantConditions } from "../../engine/crud";
import { registerDeclared } from "../../engine/declared";
import { recordTitleSql } from "../../engine/references";
import { notFound } from "../../protocol/envelope";
import type { OperationRegistry } from "../../protocol/registry";

/** bills that count as collected: paid, whatever was refunded later (refunds are reported on their own) */
const PAID_STATES = ["paid", "part_refunded", "refunded"];
/** bills no one owes any more: waived, or closed unpaid with their activity */
const SETTLED_OTHERWISE = ["waived", "closed"];
/** bills paid an amount other than they owe now: neither paid nor unpaid, counted apart */
const DIFFERS = "amount_differs";


type Figures = { bills: number; paid: number; unpaid: number; differs: number; owed: number; due: number; collected: number };

function boardRow(classId: number | null, title: string, figures: Figures): BoardRow {
  return {
    class_id: classId,
    class_title: title,
    bills: figures.bills,
    paid: figures.paid,
    unpaid: figures.unpaid,
    differs: figures.differs,
    rate: figures.owed === 0 ? 0 : Math.round((figures.paid / figures.owed) * 1000) / 10,
    due: fenToYuan(figures.due),
    collected: fenToYuan(figures.collected),
  };
}

export function registerActivityBoard(registry: OperationRegistry): void {
  registerDeclared<{ id: number }>(registry, activityBoardOperation, async (ctx, { id }) => {
    const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
    const [activity] = await ctx.db
      .select({ id: activities.id, title: activities.title, status: activities.status })
      .from(activities)
      .where(and(eq(activities.id, id), ...entityTenantConditions(activityEntity, activities, ctx, scope)));
    if (!activity) throw notFound();
    const paidList = sql.join(PAID_STATES.map((s) => sql`${s}`), sql`, `);
    const settledList = sql.join(SETTLED_OTHERWISE.map((s) => sql`${s}`), sql`, `);
    const rows = await ctx.db
      .select({
        classId: bills.class_id,
        title: sql<string>`${recordTitleSql(classesEntity, classes, { entity: gradeEntity, table: grades })}`,
        bills: sql<number>`count(*)::int`,
        paid: sql<number>`(count(*) filter (where ${bills.status} in (${paidList})))::int`,
        unpaid: sql<number>`(count(*) filter (where ${bills.status} = 'unpaid'))::int`,
        differs: sql<number>`(count(*) filter (where ${bills.status} = ${DIFFERS}))::int`,
        owed: sql<number>`(count(*) filter (where ${bills.status} not in (${settledList})))::int`,
        due: sql<string>`coalesce(sum(${bills.amount}) filter (where ${bills.status} not in (${settledList})), 0)`,
        collected: sql<string>`coalesce(sum(${bills.paid_amount}), 0)`,
      })
      .from(bills)
      .leftJoin(classes, eq(classes.id, bills.class_id))
      .leftJoin(grades, eq(grades.id, classes.grade_id))
      .where(eq(bills.activity_id, id))
      .groupBy(bills.class_id, classes.title, grades.title, grades.sort)
      .orderBy(grades.sort, classes.title);
    const figures: Figures[] = rows.map((r) => ({ bills: Number(r.bills), paid: Number(r.paid), unpaid: Number(r.unpaid), differs: Number(r.differs), owed: Number(r.owed), due: Number(r.due), collected: Number(r.collected) }));
    const none: Figures = { bills: 0, paid: 0, unpaid: 0, differs: 0, owed: 0, due: 0, collected: 0 };
    const total = figures.reduce((sum, f) => Object.fromEntries(Object.entries(sum).map(([k, v]) => [k, v + f[k as keyof Figures]])) as Figures, none);
    const board: ActivityBoard = {
      activity: { id: activity.id, title: activity.title, status: activity.status },
      classes: rows.map((r, i) => boardRow(r.classId, r.title ?? "", figures[i])),
      total: boardRow(null, "", total),
    };
    return { data: { items: board } };
  });
}
