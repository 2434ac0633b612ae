/**
 * Harbour's demo shop order: a Harbour Bay payer's two sports uniforms, sent by express and paid two days before the
 * seed, so that the provider's goods statistics and retail orders show something of its own on first start, as
 * Sunrise's do (server/seed/shopOrders.ts).
 */
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { goods, goodsSkus, students } from "../db/schema";
import { createShopOrder } from "../domains/retail/shop";
import { paidAtSandbox, seedContext } from "./feeOrders";

const HOUR_MS = 3_600_000;

export async function seedHarbourShopOrder(tx: DbOrTx, school: { sysid: number; schId: number }, now: Date): Promise<void> {
  const [pupil] = await tx.select({ id: students.id }).from(students).where(and(eq(students.sch_id, school.schId), eq(students.status, "1"))).orderBy(asc(students.id)).limit(1);
  const [sku] = await tx
    .select({ id: goodsSkus.id })
    .from(goodsSkus)
    .innerJoin(goods, eq(goods.id, goodsSkus.goods_id))
    .where(and(eq(goods.sysid, school.sysid), eq(goods.title, "Harbour 运动校服")))
    .orderBy(asc(goodsSkus.sort))
    .limit(1);
  if (!pupil || !sku) return;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR_MS);
  const order = await createShopOrder(seedContext(tx, at(48)), {
    ...school,
    studentId: pupil.id,
    items: [{ sku_id: sku.id, qty: 2 }],
    delivery: "express",
    address: { name: "Chen Jing", phone: "13900139000", detail: "10 Bay Street, Flat 5" },
  });
  await paidAtSandbox(tx, order.payment, at(47.5));
}
