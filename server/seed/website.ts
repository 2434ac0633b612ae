/**
 * The demo's public website: the home page's words, sections and contact, and articles of the last weeks (some
 * with a cover from the demo goods' pictures), one a draft and one to be published next week.
 */
import type { DbOrTx } from "../db/client";
import { siteArticles } from "../db/schema";
import { homeSettings } from "../../catalogue/website";
import { PLATFORM_TENANT, writeSettings } from "../engine/settings";
import { sanitizeRichText } from "../engine/fieldKinds/text";
import type { DemoPicture } from "./goodsImages";

const DAY_MS = 86_400_000;

export async function seedDemoWebsite(tx: DbOrTx, pictures: Record<DemoPicture, string>, now: Date): Promise<void> {
  await writeSettings(tx, homeSettings, PLATFORM_TENANT, {
    title: "校园缴费平台",
    slogan: "学费、餐费、校服，一个二维码收齐，家校两省心",
    hero_image: pictures["polo-navy"],
    sections: [
      { title: "在线收费", text: "学校发起收费活动，家长扫码即可缴纳学费、餐费、活动费，缴费进度实时可查，自动催缴。", image: pictures["book-blue"] },
      { title: "校园商城", text: "校服、教辅、餐卡在线选购，支持按尺码选择、到校自提或快递到家，核销扫码即可完成。", image: pictures["jacket-navy"] },
      { title: "对账与结算", text: "每日自动与支付通道对账，退款原路退回，结算金额与订单一一对应，数字只有一个真相。", image: pictures["card-orange"] },
    ],
    contact_phone: "400-820-1234",
    contact_email: "service@campuspay.example.com",
    contact_address: "上海市浦东新区张江路 88 号",
    footer: "© 校园缴费平台 · 为学校与服务商提供收费与商城服务",
    icp: "沪ICP备00000000号-1",
    seo_title: "校园缴费平台 - 学校收费与校园商城",
    seo_keywords: "校园缴费,学费收缴,校服征订,家校缴费",
    seo_description: "为学校和教育服务商提供在线收费、校园商城、对账结算的一站式平台。",
  });
  const articles: { title: string; summary: string; content: string; cover?: string; days: number; status?: "draft" | "published"; sort?: number }[] = [
    {
      title: "秋季校服征订开始，支持按尺码在线选购",
      summary: "家长可在缴费页面选择尺码，到校自提或快递到家。",
      content: "<p>新学期校服征订已开始。家长扫描学校的收费二维码，进入<strong>校园商城</strong>，按孩子身高选择尺码即可下单。</p><ul><li>到校自提：凭取货码或二维码到自提点领取</li><li>快递到家：填写收货地址，发货后可查看快递单号</li></ul>",
      cover: pictures["polo-white"],
      days: 2,
    },
    { title: "平台新增自动对账功能", summary: "每日与支付通道核对交易，差异一目了然。", content: "<p>平台每天自动下载支付通道的交易账单，与订单逐笔核对，发现差异时提醒处理。</p>", cover: pictures["card-red"], days: 9 },
    { title: "如何为学生批量导入账单", summary: "使用 Excel 模板，一次导入全班账单。", content: "<p>在活动管理中下载导入模板，填写学生与金额后上传，系统会先预览再导入，出错的行会单独列出原因。</p>", days: 20 },
    { title: "寒假托管报名说明", summary: "草稿：待确认收费标准。", content: "<p>寒假托管报名即将开始，收费标准待定。</p>", days: 0, status: "draft" },
    { title: "新学期收费指南（下周发布）", summary: "开学前的收费准备清单。", content: "<p>开学前请确认收费项目、导入学生名单并测试支付通道。</p>", days: -7 },
  ];
  await tx.insert(siteArticles).values(
    articles.map((a) => {
      const status = a.status ?? "published";
      const at = new Date(now.getTime() - a.days * DAY_MS);
      return {
        title: a.title,
        summary: a.summary,
        content: sanitizeRichText(a.content),
        cover: a.cover ?? null,
        status,
        published_at: status === "published" ? at : null,
        sort: a.sort ?? 0,
        created_at: at,
        updated_at: at,
      };
    }),
  );
}
