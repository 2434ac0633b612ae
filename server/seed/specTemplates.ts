/**
 * Demo spec templates and price and stock log: Old Town's (the v1 provider's) templates of school uniform sizes and
 * colours and of book editions, and one Sunrise kept from its first-generation years; its fee projects' prices as svcv1 changed them in the last weeks; and a stock of
 * Sunrise's summer uniform topped up by svc.
 */
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { goods, goodsLogs, goodsSkus, providerFeeProjects, specTemplates } from "../db/schema";
import { specsText } from "../domains/retail/traceSources";

const DAY_MS = 86_400_000;

export interface LogAuthor {
  sysid: number;
  userId: number;
  username: string;
}

export async function seedDemoSpecTemplates(tx: DbOrTx, oldTown: LogAuthor, sunrise: LogAuthor, now: Date): Promise<void> {
  await tx.insert(specTemplates).values([
    {
      sysid: oldTown.sysid,
      title: "校服尺码与颜色",
      specs: [
        { name: "尺码", values: ["110", "120", "130", "140", "150", "160", "170"] },
        { name: "颜色", values: ["藏青", "白色"] },
      ],
      sort: 1,
      created_at: new Date(now.getTime() - 30 * DAY_MS),
    },
    {
      sysid: oldTown.sysid,
      title: "教材版本",
      specs: [{ name: "版本", values: ["人教版", "北师大版", "苏教版"] }],
      sort: 2,
      created_at: new Date(now.getTime() - 20 * DAY_MS),
    },
    // Sunrise's, kept from its first-generation years: its goods form starts from it
    {
      sysid: sunrise.sysid,
      title: "运动服尺码",
      specs: [
        { name: "尺码", values: ["120", "130", "140", "150", "160"] },
        { name: "颜色", values: ["藏青", "红色"] },
      ],
      sort: 1,
      created_at: new Date(now.getTime() - 400 * DAY_MS),
    },
  ]);

  // the fee projects' amounts as they were raised: the log rows that raising wrote
  const projectOf = async (title: string) => {
    const [row] = await tx
      .select({ id: providerFeeProjects.id })
      .from(providerFeeProjects)
      .where(and(eq(providerFeeProjects.sysid, oldTown.sysid), eq(providerFeeProjects.title, title)));
    return row.id;
  };
  const byOldTown = { sysid: oldTown.sysid, user_id: oldTown.userId, username: oldTown.username, kind: "serviceproject", field: "price" } as const;
  await tx.insert(goodsLogs).values([
    { ...byOldTown, record_id: await projectOf("Student accident insurance"), title: "Student accident insurance", before_value: "80.00", after_value: "100.00", created_at: new Date(now.getTime() - 12 * DAY_MS) },
    { ...byOldTown, record_id: await projectOf("Winter uniform"), title: "Winter uniform", before_value: "320.00", after_value: "360.00", created_at: new Date(now.getTime() - 7 * DAY_MS) },
  ]);

  // Sunrise's summer uniform, its 130 navy set restocked by 20
  const [sku] = await tx
    .select({ goodsId: goods.id, title: goods.title, specs: goodsSkus.spec_values, stock: goodsSkus.stock, price: goodsSkus.price })
    .from(goodsSkus)
    .innerJoin(goods, eq(goods.id, goodsSkus.goods_id))
    .where(and(eq(goods.sysid, sunrise.sysid), eq(goods.title, "夏季校服短袖套装"), eq(goodsSkus.spec_values, { 尺码: "130", 颜色: "藏青" })));
  if (sku) {
    await tx.insert(goodsLogs).values({
      sysid: sunrise.sysid,
      kind: "goodssku",
      record_id: sku.goodsId,
      title: sku.title,
      specs: specsText(sku.specs),
      field: "stock",
      before_value: String(Math.max(0, sku.stock - 20)),
      after_value: String(sku.stock),
      user_id: sunrise.userId,
      username: sunrise.username,
      created_at: new Date(now.getTime() - 3 * DAY_MS),
    });
  }
}
