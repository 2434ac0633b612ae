/**
 * The demo's help centre: four categories of questions with their answers, some meant for every account, some for
 * one kind (a school's renewal, a clerk's verification), one category switched off.
 */
import type { DbOrTx } from "../db/client";
import { helpCategories, helpProblems } from "../db/schema";
import { sanitizeRichText } from "../engine/fieldKinds/text";

interface DemoQuestion {
  title: string;
  content: string;
  /** the kinds of account it is meant for; none, every one */
  roles?: string[];
  status?: "0" | "1";
}

const DEMO_HELP: { title: string; status?: "0" | "1"; questions: DemoQuestion[] }[] = [
  {
    title: "账号与登录",
    questions: [
      { title: "忘记密码怎么办？", content: "<p>请联系您的服务商或平台运营人员重置密码。重置后请尽快登录，在右上角头像菜单中选择<strong>修改密码</strong>。</p>" },
      { title: "为什么连续输错密码后无法登录？", content: "<p>为保护账号安全，同一账号连续输错 5 次密码后会被暂时锁定，请稍后再试，页面会提示剩余等待时间。</p>" },
      { title: "如何切换管理的学校？", content: "<p>点击右上角头像，选择<strong>切换学校</strong>，在选择页中挑选要管理的学校即可。</p>", roles: ["system", "service", "service_schadmin"] },
    ],
  },
  {
    title: "收费与缴费",
    questions: [
      { title: "如何发起一个收费活动？", content: "<p>在<strong>活动管理</strong>中新建活动，填写收费项目和金额，导入学生名单后开启活动。家长扫描学校的收费二维码即可缴费。</p><ol><li>新建活动并设置收费项目</li><li>导入或选择学生</li><li>开启活动并分享二维码</li></ol>", roles: ["service", "service_schadmin", "school"] },
      { title: "家长缴费后多久到账？", content: "<p>家长支付成功后订单立即变为已支付，资金按支付通道的结算周期进入学校账户，可在<strong>结算记录</strong>中查看每日结算金额。</p>" },
      { title: "如何续费学校的使用期限？", content: "<p>在顶部点击<strong>续费</strong>，可选择套餐扫码支付，或输入激活码续期。</p>", roles: ["school"] },
    ],
  },
  {
    title: "退款",
    questions: [
      { title: "如何退款？", content: "<p>在订单详情中点击<strong>退款</strong>，填写退款金额与原因。学校提交的退款申请需服务商审核，审核通过后原路退回。</p><p>退款失败的订单可在退款记录中<strong>重试</strong>，退款单号不变，不会重复退款。</p>" },
      { title: "部分退款后还能再次退款吗？", content: "<p>可以。同一订单可多次部分退款，累计金额不超过实付金额。</p>" },
    ],
  },
  {
    title: "商城与核销",
    questions: [
      { title: "核销员如何核销自提订单？", content: "<p>打开<strong>核销</strong>页面，扫描家长出示的二维码或输入 8 位取货码，确认商品无误后点击核销。</p>", roles: ["service", "pickup"] },
      { title: "商品如何设置多个尺码？", content: "<p>在商品编辑页添加规格（如尺码、颜色），系统会按规格组合生成 SKU，可分别设置价格和库存。</p>", roles: ["service"] },
    ],
  },
  {
    title: "旧版功能说明",
    status: "0",
    questions: [{ title: "旧版收费二维码还能使用吗？", content: "<p>旧版二维码已停止使用，请在渠道二维码中重新生成。</p>" }],
  },
];

export async function seedDemoHelpCentre(tx: DbOrTx): Promise<void> {
  for (const [index, category] of DEMO_HELP.entries()) {
    const [cate] = await tx
      .insert(helpCategories)
      .values({ title: category.title, sort: index + 1, status: category.status ?? "1" })
      .returning({ id: helpCategories.id });
    await tx.insert(helpProblems).values(
      category.questions.map((q, sort) => ({
        title: q.title,
        cate_id: cate.id,
        content: sanitizeRichText(q.content),
        roles: q.roles ?? [],
        sort: sort + 1,
        status: q.status ?? "1",
      })),
    );
  }
}
