/**
 * The demo's mini-programs: Sunrise's WeChat app live at 1.2.0 with 1.3.0 in its experience version, its Alipay app
 * committed, Harbour's WeChat app in audit; the platform's templates set, publishing through the sandbox.
 */
import { miniAppSettings } from "../../catalogue/miniPrograms";
import type { DbOrTx } from "../db/client";
import { miniProgramCalls, miniPrograms } from "../db/schema";
import { PLATFORM_TENANT, writeSettings } from "../engine/settings";
import type { DemoPicture } from "./goodsImages";

const DAY_MS = 86_400_000;

export async function seedDemoMiniPrograms(tx: DbOrTx, tenants: { sunrise: number; harbour: number }, pictures: Record<DemoPicture, string>, now: Date): Promise<void> {
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  await writeSettings(tx, miniAppSettings, PLATFORM_TENANT, { component_appid: "wx3a7c9e1f5b2d4680", wx_template_id: 108, wx_template_desc: "Campus pay 1.3: fees, shop, pickup", alipay_template_id: "2021004100000001", alipay_template_version: "0.3.0" });
  const ext = (title: string) => JSON.stringify({ extEnable: true, ext: { title, theme: "#1677ff" } });
  const apps = await tx
    .insert(miniPrograms)
    .values([
      { nickname: "Sunrise 校园缴费", platform: "wechat", appid: "wx8f2b6c1d3e4a5970", sysid: tenants.sunrise, auth_status: "authorized", ext_json: ext("Sunrise 校园缴费"), publish_status: "committed", exp_version: "1.3.0", exp_qrcode: pictures["qr-sunrise-experience"], live_version: "1.2.0", previous_version: "1.1.4", released_at: ago(20), created_at: ago(300) },
      { nickname: "Sunrise 缴费（支付宝）", platform: "alipay", appid: "2021004123456789", sysid: tenants.sunrise, auth_status: "authorized", ext_json: ext("Sunrise 缴费"), publish_status: "committed", exp_version: "0.3.0", created_at: ago(40) },
      { nickname: "Harbour Pay", platform: "wechat", appid: "wx1c5e9a7b3d2f8046", sysid: tenants.harbour, auth_status: "authorized", ext_json: ext("Harbour Pay"), publish_status: "auditing", exp_version: "1.0.0", audit_id: "412345678", created_at: ago(10) },
    ])
    .returning({ id: miniPrograms.id });
  const [sunriseWechat, , harbourWechat] = [
    { id: apps[0].id, sysid: tenants.sunrise },
    { id: apps[1].id, sysid: tenants.sunrise },
    { id: apps[2].id, sysid: tenants.harbour },
  ];
  await tx.insert(miniProgramCalls).values([
    { app_id: sunriseWechat.id, sysid: sunriseWechat.sysid, call: "release", request: "{}", errcode: 0, answer: "{}", at: ago(20) },
    { app_id: sunriseWechat.id, sysid: sunriseWechat.sysid, call: "commit", request: JSON.stringify({ template_id: "108", user_version: "1.3.0" }), errcode: 0, answer: "{}", at: ago(1) },
    { app_id: harbourWechat.id, sysid: harbourWechat.sysid, call: "submit_audit", request: "{}", errcode: 61039, answer: JSON.stringify({ errmsg: "code detection task is not completed, please try again later" }), at: ago(0.2) },
    { app_id: harbourWechat.id, sysid: harbourWechat.sysid, call: "submit_audit", request: "{}", errcode: 0, answer: JSON.stringify({ auditId: "412345678" }), at: ago(0.1) },
  ]);
}
