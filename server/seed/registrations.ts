/**
 * The demo's provider applications: two waiting for the operators, one rejected with its reason, and Harbour's own,
 * approved when it joined (its provider and administrator made then).
 */
import { createHash, randomBytes } from "node:crypto";
import type { DbOrTx } from "../db/client";
import { providerRegistrations } from "../db/schema";
import type { DemoPicture } from "./goodsImages";

const DAY_MS = 86_400_000;

export async function seedDemoRegistrations(tx: DbOrTx, pictures: Record<DemoPicture, string>, harbour: number, now: Date): Promise<void> {
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  // nobody follows a demo application: its link is a random one, kept hashed as any other
  const followHash = () => createHash("sha256").update(randomBytes(32)).digest("hex");
  const licence = [pictures["book-green"]];
  await tx.insert(providerRegistrations).values([
    { org: "Harbour Education Services", contact: "Chen Jing", mobile: "13760001234", email: "chen.jing@harbour.example.com", region: "44", licence_images: licence, message: "深圳湾片区学校的收费与校服服务", status: "approved", reviewed_by: "sysadmin", reviewed_at: ago(400), provider_id: harbour, username: "harbour", password_set_at: ago(399), follow_hash: followHash(), ip: "203.0.113.20", created_at: ago(401) },
    { org: "青禾教育服务有限公司", contact: "刘洋", mobile: "13951234567", email: "liuyang@qinghe.example.com", region: "32", licence_images: licence, message: "南京市鼓楼区 6 所小学的餐费收缴", status: "pending", follow_hash: followHash(), ip: "203.0.113.21", created_at: ago(1) },
    { org: "Bright Path Learning", contact: "Maria Lopez", mobile: "13812345678", email: "maria@brightpath.example.com", region: "31", licence_images: licence, message: "International school services in Pudong", status: "pending", follow_hash: followHash(), ip: "203.0.113.22", created_at: ago(0.2) },
    { org: "速达校园科技", contact: "王强", mobile: "13698765432", email: "wq@suda.example.com", region: "37", licence_images: licence, status: "rejected", reject_reason: "营业执照照片模糊，无法辨认统一社会信用代码，请重新上传清晰照片", reviewed_by: "sysop", reviewed_at: ago(3), follow_hash: followHash(), ip: "203.0.113.23", created_at: ago(5) },
  ]);
}
