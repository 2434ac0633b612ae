/**
 * Demo trace-source codes: a batch of Sunrise's summer and winter uniforms with the maker's facts, some codes bound to
 * the demo orders' uniforms (the one collected at the North Gate when it was handed over, the winter jacket of the one
 * waiting there when it was packed; its two summer sets are left for the user to bind), the rest free, one voided
 * (a misprinted label); and Harbour's sports uniforms, its payer's two bound when they were sent.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { accountActor, writeAudit, type AuditFacts } from "../auth/audit";
import type { DbOrTx } from "../db/client";
import { goods, goodsSkus, shopOrderItems, shopOrders, traceSources } from "../db/schema";

const HOUR_MS = 3_600_000;

const SUNRISE_BATCH = {
  manufacturer: "江苏晨光服饰有限公司",
  standard: "GB/T 31888-2015 中小学生校服",
  fabric: "面料：65% 聚酯纤维 35% 棉；里料：100% 棉",
};

interface Sku {
  id: number;
  goods_id: number;
  spec_values: Record<string, string>;
}

async function skusOf(tx: DbOrTx, sysid: number, title: string): Promise<Sku[]> {
  return tx
    .select({ id: goodsSkus.id, goods_id: goodsSkus.goods_id, spec_values: goodsSkus.spec_values })
    .from(goodsSkus)
    .innerJoin(goods, eq(goods.id, goodsSkus.goods_id))
    .where(and(eq(goods.sysid, sysid), eq(goods.title, title)))
    .orderBy(asc(goodsSkus.sort), asc(goodsSkus.id));
}

const matches = (sku: Sku, specs: Record<string, string>) => Object.entries(specs).every(([k, v]) => sku.spec_values[k] === v);

/** The paid demo orders' items of these SKUs, oldest order first. */
async function paidItems(tx: DbOrTx, sysid: number, skuIds: number[]) {
  if (skuIds.length === 0) return [];
  return tx
    .select({ id: shopOrderItems.id, order_id: shopOrderItems.order_id, sku_id: shopOrderItems.sku_id, qty: shopOrderItems.qty, title: shopOrderItems.title, sch_id: shopOrders.sch_id, status: shopOrders.status, completed_at: shopOrders.completed_at })
    .from(shopOrderItems)
    .innerJoin(shopOrders, eq(shopOrders.id, shopOrderItems.order_id))
    .where(and(eq(shopOrders.sysid, sysid), inArray(shopOrderItems.sku_id, skuIds), inArray(shopOrders.status, ["undelivered", "delivered", "completed"])))
    .orderBy(asc(shopOrders.id), asc(shopOrderItems.sort));
}

export async function seedDemoTraceSources(tx: DbOrTx, sunrise: { sysid: number }, harbour: { sysid: number }, now: Date): Promise<void> {
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR_MS);
  type NewCode = typeof traceSources.$inferInsert;
  const rows: NewCode[] = [];
  const code = (sysid: number, sku: Sku, value: string, batch: Omit<NewCode, "sysid" | "code" | "goods_id" | "sku_id">) =>
    rows.push({ sysid, code: value, goods_id: sku.goods_id, sku_id: sku.id, spec_values: sku.spec_values, status: "free", created_at: at(24 * 12), ...batch });

  const summer = await skusOf(tx, sunrise.sysid, "夏季校服短袖套装");
  const winter = await skusOf(tx, sunrise.sysid, "冬季校服冲锋衣");
  const summerBatch = { ...SUNRISE_BATCH, batch_no: "CG2409-S01", report_url: "https://www.example.com/reports/CG2409-S01.pdf" };
  const winterBatch = { ...SUNRISE_BATCH, batch_no: "CG2410-W01", fabric: "面料：100% 聚酯纤维（防泼水）；填充：100% 聚酯纤维", report_url: "https://www.example.com/reports/CG2410-W01.pdf" };
  let serial = 1;
  for (const sku of summer.filter((s) => ["130", "140", "150"].includes(s.spec_values["尺码"] ?? ""))) {
    for (let i = 0; i < 3; i++) code(sunrise.sysid, sku, `CG2409S${String(serial++).padStart(5, "0")}`, summerBatch);
  }
  serial = 1;
  for (const sku of winter.filter((s) => ["140", "150"].includes(s.spec_values["尺码"] ?? ""))) {
    for (let i = 0; i < 3; i++) code(sunrise.sysid, sku, `CG2410W${String(serial++).padStart(5, "0")}`, winterBatch);
  }
  const harbourSkus = await skusOf(tx, harbour.sysid, "Harbour 运动校服");
  const harbourBatch = { batch_no: "HB-2408-01", manufacturer: "Harbour Garments Ltd.", standard: "GB/T 31888-2015", fabric: "100% cotton", report_url: "https://www.example.com/reports/HB-2408-01.pdf" };
  serial = 1;
  for (const sku of harbourSkus) {
    for (let i = 0; i < 3; i++) code(harbour.sysid, sku, `HB2408${String(serial++).padStart(4, "0")}`, harbourBatch);
  }

  // bound: each paid demo item of a coded SKU takes free codes of its SKU, but for the summer sets still to be packed
  // each bound as tracesourcebind does, on its order's timeline too
  const events: { username: string; facts: AuditFacts }[] = [];
  const bind = (item: { id: number; order_id: number; sku_id: number; title: string; sch_id: number }, count: number, when: Date) => {
    for (const row of rows.filter((r) => r.sku_id === item.sku_id && r.status === "free").slice(0, count)) {
      const username = row.sysid === sunrise.sysid ? "svc" : "harbour";
      Object.assign(row, { status: "bound", order_id: item.order_id, order_item_id: item.id, bound_at: when, bound_by: username });
      events.push({ username, facts: { action: "tracesourcebind", entity: "shoporder", entityId: String(item.order_id), sysid: row.sysid, schId: item.sch_id, detail: { code: row.code, title: item.title }, at: when } });
    }
  };
  const sunriseItems = await paidItems(tx, sunrise.sysid, [...summer, ...winter].map((s) => s.id));
  const winterIds = new Set(winter.map((s) => s.id));
  for (const item of sunriseItems) {
    if (item.status === "completed") bind(item, item.qty, item.completed_at ?? at(52));
    else if (winterIds.has(item.sku_id)) bind(item, item.qty, at(28));
  }
  for (const item of await paidItems(tx, harbour.sysid, harbourSkus.map((s) => s.id))) bind(item, item.qty, at(40));

  // a misprinted label, voided
  const misprinted = rows.find((r) => r.sysid === sunrise.sysid && r.status === "free" && summer.some((s) => s.id === r.sku_id && matches(s, { 尺码: "150" })));
  if (misprinted) misprinted.status = "voided";
  if (rows.length > 0) await tx.insert(traceSources).values(rows);
  for (const event of events) await writeAudit(tx, accountActor({ userId: null, username: event.username }), event.facts);
}
