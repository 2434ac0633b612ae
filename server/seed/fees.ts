/**
 * The fee domain's demo data: every demo provider has an approved sandbox channel that all its schools take
 * payments through; Sunrise has also applied for a WeChat Pay channel that awaits the platform's review; the v1
 * school that collects fees itself (paymode) has its fee projects, and its provider a few of its own.
 */
import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { feeProjects, paymentChannels, providerFeeProjects, providers, schoolChannels, schools } from "../db/schema";
import { sandboxSubMchid } from "../domains/fees/channels";

/** The onboarding material of a provider's channel, distinct per provider and channel (numbers made from both). */
function material(provider: { id: number; title: string }, contactName: string, channel: number) {
  const n = String(provider.id).padStart(3, "0");
  return {
    subject: `${provider.title} Co., Ltd.`,
    // a unified social credit code's shape: 18 characters
    licence_no: `91310115MA1K${n}7Q${channel}`,
    legal_person: LEGAL_PERSONS[provider.title] ?? contactName,
    contact_name: contactName,
    contact_phone: `1391620${n}${channel}`,
    bank_name: channel === 1 ? "Industrial and Commercial Bank of China" : "Bank of Shanghai",
    bank_account: `622202${n}1008${n}6${channel}55`,
  };
}

const LEGAL_PERSONS: Readonly<Record<string, string>> = {
  "Sunrise Campus Services": "Zhang Hui",
  "Harbour Education Services": "Lin Tao",
  "Old Town Education": "Sun Lei",
};

const CONTACTS: Readonly<Record<string, string>> = {
  "Sunrise Campus Services": "Li Wei",
  "Harbour Education Services": "Chen Jing",
  "Old Town Education": "Wang Fang",
};

/** Fee projects in fen: fixed ones, and an open one the payer chooses between its bounds. */
const SCHOOL_PROJECTS = [
  { title: "Tuition", amount_mode: "fixed", amount: 150000, required: "Y" },
  { title: "Textbooks", amount_mode: "fixed", amount: 32050, required: "Y" },
  { title: "School uniform", amount_mode: "fixed", amount: 26800, required: "N" },
  { title: "Class fund donation", amount_mode: "open", min_amount: 1000, max_amount: 50000, required: "N", remark: "Voluntary" },
];

const PROVIDER_PROJECTS = [
  { title: "Student accident insurance", amount_mode: "fixed", amount: 10000, required: "Y" },
  { title: "Winter uniform", amount_mode: "fixed", amount: 36000, required: "N" },
];

export async function seedFees(tx: DbOrTx, now: Date): Promise<void> {
  for (const provider of await tx.select({ id: providers.id, title: providers.title, ver: providers.servicer_ver }).from(providers).orderBy(asc(providers.id))) {
    const contact = CONTACTS[provider.title] ?? "Demo Contact";
    const [sandbox] = await tx
      .insert(paymentChannels)
      .values({ sysid: provider.id, title: `${provider.title} sandbox`, gateway: "sandbox", status: "approved", reviewed_at: now, ...material(provider, contact, 1) })
      .returning({ id: paymentChannels.id });
    await tx.update(paymentChannels).set({ sub_mchid: sandboxSubMchid(sandbox.id) }).where(eq(paymentChannels.id, sandbox.id));
    const own = await tx.select({ id: schools.id }).from(schools).where(eq(schools.sysid, provider.id));
    if (own.length > 0) {
      await tx.insert(schoolChannels).values(own.map((school) => ({ sch_id: school.id, sysid: provider.id, paychnl_id: sandbox.id, bound_at: now, bound_by: "demo" })));
    }

    if (provider.title === "Sunrise Campus Services") {
      // the real merchant applied for, awaiting the platform's review
      await tx.insert(paymentChannels).values({ sysid: provider.id, title: "Sunrise WeChat Pay", gateway: "wechatpay", status: "submitted", ...material(provider, contact, 2) });
    }
    if (provider.ver === "v1") await tx.insert(providerFeeProjects).values(PROVIDER_PROJECTS.map((p) => ({ ...p, sysid: provider.id })));
  }

  // the v1 schools that collect fees themselves
  for (const school of await tx.select({ id: schools.id, sysid: schools.sysid }).from(schools).where(eq(schools.select_paymode, "Y"))) {
    await tx.insert(feeProjects).values(SCHOOL_PROJECTS.map((p) => ({ ...p, sysid: school.sysid, sch_id: school.id })));
  }
}
