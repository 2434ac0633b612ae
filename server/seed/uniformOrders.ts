/**
 * Demo fee orders whose items are goods: a Sunrise school's uniform order (a fee activity of a few named students whose
 * one item is the summer uniform set), paid through the payer's own path (createFeeOrder with the size chosen and the
 * delivery, the sandbox's payment): one to be collected at the North Gate, where the pickup account verifies (its
 * code given), one sent by express with the provider's import of tracking numbers this morning, and one waiting to be
 * sent.
 */
import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { accountActor, writeAudit } from "../auth/audit";
import { activities, activityItems, bills, deliveryImports, feeOrders, goods, goodsSkus, pickupPoints, students } from "../db/schema";
import { issueBills } from "../domains/collection/activities";
import { createFeeOrder } from "../domains/collection/feeOrders";
import { addOrderEvent } from "../domains/collection/orderEvents";
import { paidAtSandbox, seedContext } from "./feeOrders";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** the summer uniform set's price, the item's fixed amount */
const UNIFORM_FEN = 12_800;

export async function seedDemoUniformOrders(tx: DbOrTx, school: { sysid: number; schId: number }, now: Date): Promise<void> {
  // the school's last pupils: apart from those the demo's other orders and the payer tests take
  const pupils = await tx.select({ id: students.id }).from(students).where(and(eq(students.sch_id, school.schId), eq(students.status, "1"))).orderBy(desc(students.id)).limit(4);
  const [uniform] = await tx.select({ id: goods.id }).from(goods).where(and(eq(goods.sysid, school.sysid), eq(goods.title, "夏季校服短袖套装")));
  const [point] = await tx.select({ id: pickupPoints.id }).from(pickupPoints).where(and(eq(pickupPoints.sysid, school.sysid), eq(pickupPoints.title, "Sunrise North Gate Pickup")));
  if (pupils.length < 4 || !uniform || !point) return;
  const skus = await tx.select({ id: goodsSkus.id, specs: goodsSkus.spec_values }).from(goodsSkus).where(eq(goodsSkus.goods_id, uniform.id));
  const sku = (size: string) => skus.find((s) => s.specs["尺码"] === size && s.specs["颜色"] === "藏青")!.id;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR_MS);
  const day = (offset: number) => new Date(now.getTime() + offset * DAY_MS).toISOString().slice(0, 10);

  const [activity] = await tx
    .insert(activities)
    .values({
      sysid: school.sysid,
      sch_id: school.schId,
      title: "2027 校服征订 Uniform order",
      start_date: day(-5),
      end_date: day(25),
      target: "students",
      student_ids: pupils.map((p) => p.id),
      amount: UNIFORM_FEN,
      status: "draft",
    })
    .returning();
  const [item] = await tx
    .insert(activityItems)
    .values({ activity_id: activity.id, sort: 0, title: "夏季校服 Summer uniform", amount: UNIFORM_FEN, amount_mode: "fixed", required: "Y", goods_id: uniform.id, sysid: school.sysid, sch_id: school.schId })
    .returning();
  await issueBills(tx, activity as unknown as Record<string, unknown>, at(5 * 24));
  await tx.update(activities).set({ status: "open" }).where(eq(activities.id, activity.id));

  const order = async (hoursAgo: number, pupil: number, size: string, delivery: "pickup" | "express") => {
    const [bill] = await tx.select({ id: bills.id }).from(bills).where(and(eq(bills.activity_id, activity.id), eq(bills.student_id, pupils[pupil].id)));
    const made = await createFeeOrder(seedContext(tx, at(hoursAgo)), {
      studentId: pupils[pupil].id,
      schId: school.schId,
      billIds: [bill.id],
      goods: [{ item_id: item.id, sku_id: sku(size) }],
      delivery,
      ...(delivery === "pickup" ? { pickupPointId: point.id } : { address: { name: "李娜", phone: "13900139000", province: "31", detail: "上海市黄浦区南京东路 100 号 5 楼" } }),
    });
    await paidAtSandbox(tx, made.payment, at(hoursAgo - 0.2));
    return made;
  };

  // to be collected at the North Gate, where the pickup account verifies
  await order(40, 0, "130", "pickup");
  // sent by express with this morning's import of tracking numbers
  const sent = await order(60, 1, "140", "express");
  const [row] = await tx
    .update(feeOrders)
    .set({ fulfil_status: "delivered", express_code: "YTO", tracking_no: "YT7520938815206", delivered_at: at(5) })
    .where(eq(feeOrders.id, sent.orderId))
    .returning();
  await addOrderEvent(tx, row, "delivered", at(5), "YTO YT7520938815206");
  await writeAudit(tx, accountActor({ userId: null, username: "svc" }), {
    action: "zdorderdeliver",
    entity: "order",
    entityId: String(row.id),
    sysid: school.sysid,
    schId: school.schId,
    detail: { from: "paid", to: "paid", express_code: "YTO", tracking_no: "YT7520938815206" },
    at: at(5),
  });
  await tx.insert(deliveryImports).values({
    kind: "fee_order",
    sysid: school.sysid,
    filename: "校服发货单.xlsx",
    username: "svc",
    created_at: at(5),
    total: 1,
    delivered: 1,
    unchanged: 0,
    failed: 0,
    errors: "[]",
  });
  // waiting to be sent
  await order(20, 2, "150", "express");
}
