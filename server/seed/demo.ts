/**
 * The demo data of DESIGN 11: ten accounts (password demo1234) with their providers, schools (each with its
 * grades, classes and students: schoolWorld.ts), assignments, pickup points, activation codes and the site
 * settings. Dates are relative to today in Asia/Shanghai.
 */
import { seedCollection } from "./collection";
import { seedFormsAndActions } from "./forms";
import { createHash } from "node:crypto";
import { and, asc, count, eq, isNotNull } from "drizzle-orm";
import type { PasswordHasher } from "../auth/passwords";
import type { Db, DbOrTx } from "../db/client";
import { activationCodes, devices, feeOrders, goods, goodsCategories, mealPackages, pickupPoints, printJobs, providers, saleAddresses, schools, shopBanners, shopHelp, users, userSchools } from "../db/schema";
import { addDays, businessDay } from "../../common/term";
import { generateCode } from "../domains/renewals/codes";
import { saveSiteSettings } from "../domains/site/siteSettings";
import { seedFees } from "./fees";
import { seedDemoFeeOrders } from "./feeOrders";
import { seedDemoReconciliation } from "./reconciliation";
import { seedDemoRefunds } from "./refunds";
import { seedDemoSpecTemplates } from "./specTemplates";
import { seedDemoGoods } from "./goods";
import { demoPictureUrls } from "./goodsImages";
import { seedHarbourShopOrder } from "./harbourShop";
import { seedDemoShopOrders } from "./shopOrders";
import { seedDemoUniformOrders } from "./uniformOrders";
import { seedDemoTraceSources } from "./traceSources";
import { seedDemoShopFace } from "./shopFace";
import { seedDemoNotices } from "./notices";
import { seedDemoHelpCentre } from "./help";
import { seedDemoWebsite } from "./website";
import { seedDemoRegistrations } from "./registrations";
import { seedDemoApiClients } from "./apiClients";
import { seedDemoMiniPrograms } from "./miniPrograms";
import { rebuildFeeDaily } from "../domains/collection/feeDaily";
import { seedSchoolWorld, type WorldSchool } from "./schoolWorld";

export const DEMO_PASSWORD = "demo1234";

export interface DemoAccount {
  username: string;
  userType: string;
  name: string;
  /** where it works, for the printed table */
  place: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { username: "sysadmin", userType: "system", name: "Platform Administrator", place: "platform (v2), superadmin" },
  { username: "sysop", userType: "system", name: "Platform Operator", place: "platform (v2)" },
  { username: "sysv1", userType: "system", name: "Platform Administrator (v1)", place: "platform (v1), superadmin" },
  { username: "svc", userType: "service", name: "Sunrise Administrator", place: "Sunrise Campus Services (v2)" },
  { username: "staff", userType: "service_schadmin", name: "Sunrise School Staff", place: "Sunrise (v2), two schools" },
  { username: "pickup", userType: "pickup", name: "Sunrise Pickup Clerk", place: "Sunrise (v2), North Gate pickup point" },
  { username: "school", userType: "school", name: "Sunrise No.1 Primary Administrator", place: "Sunrise No.1 Primary School (v2)" },
  { username: "harbour", userType: "service", name: "Harbour Administrator", place: "Harbour Education Services (v2), expired" },
  { username: "svcv1", userType: "service", name: "Old Town Administrator", place: "Old Town Education (v1)" },
  { username: "schoolv1", userType: "school", name: "Old Town Middle School Administrator", place: "Old Town Middle School (v1)" },
];

export class SeedRefusedError extends Error {
  constructor() {
    super("The database already has user accounts: the demo data is only seeded into an empty database.");
    this.name = "SeedRefusedError";
  }
}

export async function userCount(db: DbOrTx): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(users);
  return Number(n);
}

/** Whether the demo accounts are present (to print their table at start). */
export async function hasDemoAccounts(db: DbOrTx): Promise<boolean> {
  const rows = await db.select({ username: users.username }).from(users);
  const names = new Set(rows.map((r) => r.username));
  return DEMO_ACCOUNTS.every((a) => names.has(a.username));
}

async function insertProvider(tx: DbOrTx, values: typeof providers.$inferInsert): Promise<number> {
  const [row] = await tx.insert(providers).values(values).returning({ id: providers.id });
  return row.id;
}

async function insertSchool(tx: DbOrTx, values: typeof schools.$inferInsert): Promise<number> {
  const [row] = await tx.insert(schools).values(values).returning({ id: schools.id });
  return row.id;
}

/** Seeds the demo data into an empty database; refuses (SeedRefusedError) when any user exists. */
export async function seedDemo(db: Db, options: { hasher: PasswordHasher; now: Date }): Promise<void> {
  const today = businessDay(options.now);
  const hashes = new Map<string, string>();
  // the goods' pictures, rendered beside the passwords' hashing: their addresses are written with the goods, the
  // pictures stored by the server starting on the demo (server/start.ts), in its own upload store
  const pictures = demoPictureUrls(process.env.PUBLIC_URL?.replace(/\/+$/, "") ?? "http://localhost:8080");
  void pictures.catch(() => undefined);
  for (const account of DEMO_ACCOUNTS) hashes.set(account.username, await options.hasher.hash(DEMO_PASSWORD));

  await db.transaction(async (tx) => {
    if ((await userCount(tx)) > 0) throw new SeedRefusedError();

    // no icon of its own: the console shows its built-in one
    await saveSiteSettings(tx, {
      title: "Campus Pay Console",
      keywords: "campus, school fees, payments",
      description: "Back office of the campus school-fee payment platform",
      kfurl: "https://support.example.com/chat",
      userManualUrl: "https://docs.example.com/campus-pay-console/manual",
    });

    const sunrise = await insertProvider(tx, {
      title: "Sunrise Campus Services", contact: "Li Wei", phone: "021-5550101", servicer_ver: "v2",
      end_time: addDays(today, 10), year_fee: 365000, xcx_upload: "Y", is_show_fee: "Y", open_activity_mode: "1", status: "1",
    });
    const harbour = await insertProvider(tx, {
      title: "Harbour Education Services", contact: "Chen Jing", phone: "0755-5550202", servicer_ver: "v2",
      end_time: addDays(today, -5), year_fee: 240000, xcx_upload: "N", is_show_fee: "N", open_activity_mode: "2", status: "1",
    });
    const oldTown = await insertProvider(tx, {
      title: "Old Town Education", contact: "Wang Fang", phone: "010-5550303", servicer_ver: "v1",
      end_time: addDays(today, 365), year_fee: 120000, xcx_upload: "N", is_show_fee: "N", open_activity_mode: "1", status: "1",
    });

    // renewal packages a school can buy (fees in fen)
    const [, oneYear] = await tx
      .insert(mealPackages)
      .values([
        { title: "Half year", term_months: 6, fee: 60000, sort: 1 },
        { title: "One year", term_months: 12, fee: 100000, sort: 2 },
        { title: "Two years", term_months: 24, fee: 180000, sort: 3 },
      ])
      .returning({ id: mealPackages.id, title: mealPackages.title, term_months: mealPackages.term_months });

    // activation codes of one year: Sunrise's schools may redeem four (one of them voided), Harbour, whose term
    // has run out, two
    const codeBatch = (batchNo: string, count: number, target: "school" | "service", sysid: number, boundTitle: string) =>
      Array.from({ length: count }, () => ({
        code: generateCode(), batch_no: batchNo, target, sysid, sch_id: null, bound_title: boundTitle, meal_id: oneYear.id,
        title: oneYear.title, term_months: oneYear.term_months, expires_on: addDays(today, 90), created_by: "sysadmin",
      }));
    const day = today.replace(/-/g, "");
    const sunriseCodes = codeBatch(`B${day}000001`, 4, "school", sunrise, "Sunrise Campus Services");
    await tx.insert(activationCodes).values([
      ...sunriseCodes.map((code, i) => (i === 0 ? { ...code, status: "void", remark: "Given to the wrong school" } : code)),
      ...codeBatch(`B${day}000002`, 2, "service", harbour, "Harbour Education Services"),
    ]);

    const school = (sysid: number, title: string, endDays: number, extra: Record<string, unknown> = {}) =>
      insertSchool(tx, { sysid, title, endtime: addDays(today, endDays), status: "1", select_paymode: "N", ...extra });
    const sunriseNo1 = await school(sunrise, "Sunrise No.1 Primary School", 12, { contact: "Zhao Min", phone: "021-5551001", address: "1 Sunrise Road" });
    const sunriseNo2 = await school(sunrise, "Sunrise No.2 Primary School", 90, { address: "2 Sunrise Road" });
    const sunriseMiddle = await school(sunrise, "Sunrise Middle School", 200, { address: "8 Dawn Avenue" });
    const harbourBay = await school(harbour, "Harbour Bay School", -5, { address: "10 Bay Street" });
    const harbourHill = await school(harbour, "Harbour Hill Academy", 30, { address: "22 Hill Road" });
    const oldTownMiddle = await school(oldTown, "Old Town Middle School", 365, { select_paymode: "Y", address: "5 Bell Tower Lane" });
    const oldTownPrimary = await school(oldTown, "Old Town Primary School", 180, { address: "9 Drum Tower Lane" });

    // every school's grades, classes and students (region: its pupils' identity cards)
    const world: WorldSchool[] = [
      { id: sunriseNo1, sysid: sunrise, title: "Sunrise No.1 Primary School", stage: "primary", region: "310101" },
      { id: sunriseNo2, sysid: sunrise, title: "Sunrise No.2 Primary School", stage: "primary", region: "310104" },
      { id: sunriseMiddle, sysid: sunrise, title: "Sunrise Middle School", stage: "middle", region: "310115" },
      { id: harbourBay, sysid: harbour, title: "Harbour Bay School", stage: "nineYear", region: "440305" },
      { id: harbourHill, sysid: harbour, title: "Harbour Hill Academy", stage: "high", region: "440304" },
      { id: oldTownMiddle, sysid: oldTown, title: "Old Town Middle School", stage: "middle", region: "110101" },
      { id: oldTownPrimary, sysid: oldTown, title: "Old Town Primary School", stage: "primary", region: "110102" },
    ];
    await seedSchoolWorld(tx, world, today);
    // each provider's payment channels, its schools bound to one, fee projects
    await seedFees(tx, options.now);
    // each school's fee collection activities and their bills
    await seedCollection(tx, world, today);
    // about 90 days of fee orders: most bills paid, some orders closed unpaid
    await seedDemoFeeOrders(tx, world.map((s) => s.id), options.now);
    // Sunrise's activity form and after-payment action, on Sunrise No.1's open activity
    await seedFormsAndActions(tx, { id: sunriseNo1, sysid: sunrise });

    const account = async (username: string, values: Partial<typeof users.$inferInsert>) => {
      const meta = DEMO_ACCOUNTS.find((a) => a.username === username)!;
      const [row] = await tx
        .insert(users)
        .values({ username, passwordHash: hashes.get(username)!, name: meta.name, userType: meta.userType, ...values })
        .returning({ id: users.id });
      return row.id;
    };
    await account("sysadmin", { servicerVer: "v2", isSuperadmin: "Y" });
    await account("sysop", { servicerVer: "v2" });
    await account("sysv1", { servicerVer: "v1", isSuperadmin: "Y" });
    const svc = await account("svc", { sysid: sunrise });
    const staff = await account("staff", { sysid: sunrise });
    // the clerk's mobile, kept on each pickup record it verifies
    const pickup = await account("pickup", { sysid: sunrise, phone: "13917265408" });
    await account("school", { sysid: sunrise, schid: sunriseNo1 });
    await account("harbour", { sysid: harbour });
    const svcv1 = await account("svcv1", { sysid: oldTown });
    await account("schoolv1", { sysid: oldTown, schid: oldTownMiddle });

    await tx.insert(userSchools).values([
      { userId: staff, schId: sunriseNo1 },
      { userId: staff, schId: sunriseNo2 },
    ]);
    // Sunrise's two pickup points, the pickup clerk verifying at the first only; Harbour's own
    await tx.insert(pickupPoints).values([
      { sysid: sunrise, title: "Sunrise North Gate Pickup", address: "North Gate, 1 Sunrise Road", phone: "021-5551010", opening_hours: "Mon-Fri 07:30-17:30", verifiers: [pickup], sch_ids: [sunriseNo1, sunriseNo2] },
      { sysid: sunrise, title: "Sunrise Middle School Shop", address: "8 Dawn Avenue", phone: "021-5551020", opening_hours: "Mon-Sat 08:00-18:00", verifiers: [], sch_ids: [sunriseMiddle] },
      { sysid: harbour, title: "Harbour Bay Front Desk", address: "10 Bay Street", opening_hours: "Mon-Fri 08:00-16:00", verifiers: [], sch_ids: [harbourBay, harbourHill] },
    ]);
    // where returned goods go: Sunrise's warehouse (the default) and its school office; Harbour's front desk
    await tx.insert(saleAddresses).values([
      { sysid: sunrise, name: "Sunrise 仓库 李师傅", phone: "021-5551030", address: "上海市浦东新区朝阳路 1 号 Sunrise 校服仓库", is_default: "Y" },
      { sysid: sunrise, name: "Sunrise 教务处", phone: "021-5551010", address: "上海市浦东新区朝阳路 1 号 北门", is_default: "N" },
      { sysid: harbour, name: "Harbour Front Desk", phone: "021-6662020", address: "10 Bay Street", is_default: "Y" },
    ]);
    // what Sunrise's parents ask of its shop
    await tx.insert(shopHelp).values([
      { sysid: sunrise, sort: 1, question: "校服尺码怎么选？", answer: "按孩子的身高选择：110 适合身高 105-115 cm，120 适合 115-125 cm，以此类推。\n两个尺码之间时选大一号。" },
      { sysid: sunrise, sort: 2, question: "尺码不合适可以换吗？", answer: "收到或取货后 7 天内，在“我的订单”里对该商品申请售后，选择“退货退款”，寄回后退款，再按合适的尺码重新下单。" },
      { sysid: sunrise, sort: 3, question: "什么时候可以到自提点取货？", answer: "付款后凭取货码到所选自提点领取，北门自提点周一至周五 07:30-17:30 开放。" },
    ]);
    // the shop's goods: uniforms in sizes and colours, an exercise book, a lunch card off sale; one of Harbour's
    await seedDemoGoods(tx, { sysid: sunrise, no1: sunriseNo1 }, { sysid: harbour }, await pictures);
    // Sunrise's banners: the summer uniform this term, the exercise books' category
    const [summerUniform] = await tx.select({ id: goods.id, images: goods.images }).from(goods).where(and(eq(goods.sysid, sunrise), eq(goods.title, "夏季校服短袖套装")));
    const [bookCategory] = await tx.select({ id: goodsCategories.id }).from(goodsCategories).where(and(eq(goodsCategories.sysid, sunrise), eq(goodsCategories.title, "教辅资料")));
    const [bookCover] = await tx.select({ images: goods.images }).from(goods).where(and(eq(goods.sysid, sunrise), eq(goods.title, "三年级数学同步练习")));
    await tx.insert(shopBanners).values([
      { sysid: sunrise, sort: 1, title: "夏季校服现已开售", image: summerUniform.images![0], link_type: "goods", goods_id: summerUniform.id },
      { sysid: sunrise, sort: 2, title: "新学期教辅资料", image: bookCover.images![0], link_type: "category", cate_id: bookCategory.id },
    ]);
    // Sunrise's home page and new-term page, the photo libraries, the customer-service accounts
    await seedDemoShopFace(tx, sunrise, harbour, options.now);
    // Old Town's spec templates, and the price and stock changes svcv1 and svc made lately
    await seedDemoSpecTemplates(tx, { sysid: oldTown, userId: svcv1, username: "svcv1" }, { sysid: sunrise, userId: svc, username: "svc" }, options.now);
    // shop orders of Sunrise No.1's payers: to collect, to send, unpaid, closed
    await seedDemoShopOrders(tx, { sysid: sunrise, schId: sunriseNo1 }, options.now);
    // Sunrise No.2's fee orders whose item is the summer uniform in a size: to collect at the North Gate (which serves
    // both Sunrise primaries), sent by express, to send
    await seedDemoUniformOrders(tx, { sysid: sunrise, schId: sunriseNo2 }, options.now);
    // receipt printers, added once the demo's orders were paid: each provider's sandbox printer prints the orders
    // paid from now on at its schools
    await tx.insert(devices).values([
      { sysid: sunrise, title: "北门收银台小票机", vendor: "sandbox", sn: "SANDBOX-NORTH", sch_ids: [sunriseNo1, sunriseNo2], copies: 1, auto_print: "Y" },
      { sysid: harbour, title: "Harbour Front Desk", vendor: "sandbox", sn: "SANDBOX-BAY", sch_ids: [harbourBay], copies: 1, auto_print: "Y" },
    ]);
    // and one of a Harbour Bay payer's, waiting to be sent
    await seedHarbourShopOrder(tx, { sysid: harbour, schId: harbourBay }, options.now);
    // the uniforms' trace-source codes: a batch of each provider's, some bound to those orders' items, one voided
    await seedDemoTraceSources(tx, { sysid: sunrise }, { sysid: harbour }, options.now);
    // refunds of every state, asked and decided by these accounts, and a few duplicate payments refunded by themselves
    await seedDemoRefunds(tx, world.map((s) => s.id), options.now);
    // the sandbox channels' last days reconciled, one with a payment whose notification was lost
    await seedDemoReconciliation(tx, sunriseNo1, options.now);
    // the seeds wrote payments and refunds directly: the statistics' daily figures are made from them
    await rebuildFeeDaily(tx);
    // Sunrise's daily report bound and sent, and reminders to guardians of its first school, in the sandbox outbox
    await seedDemoNotices(tx, { sysid: sunrise, schId: sunriseNo1 }, options.now);
    // the help centre every account reads
    await seedDemoHelpCentre(tx);
    // the public website's home page and articles
    await seedDemoWebsite(tx, await pictures, options.now);
    // providers' applications: waiting, rejected, and Harbour's, approved
    await seedDemoRegistrations(tx, await pictures, harbour, options.now);
    await seedDemoApiClients(tx, { sunrise, sunriseNo1, harbour }, options.now);
    await seedDemoMiniPrograms(tx, { sunrise, harbour }, await pictures, options.now);
    // Old Town's printer was offline all morning: a receipt printed by hand gave up after its tries, to be sent again
    const [oldTownPrinter] = await tx
      .insert(devices)
      .values({ sysid: oldTown, title: "Old Town 教务处小票机", vendor: "sandbox", sn: "SANDBOX-OLDTOWN", sch_ids: [oldTownMiddle, oldTownPrimary], auto_print: "N", sandbox_state: "offline", status: "offline", status_at: options.now })
      .returning({ id: devices.id });
    const [oldTownPaid] = await tx.select({ order_no: feeOrders.order_no, sch_id: feeOrders.sch_id }).from(feeOrders).where(and(eq(feeOrders.sysid, oldTown), isNotNull(feeOrders.paid_at))).orderBy(asc(feeOrders.id)).limit(1);
    if (oldTownPaid) {
      await tx.insert(printJobs).values({
        sysid: oldTown,
        sch_id: oldTownPaid.sch_id,
        device_id: oldTownPrinter.id,
        order_kind: "fee_order",
        order_no: oldTownPaid.order_no,
        kind: "manual",
        status: "failed",
        attempts: 6,
        last_error: "offline",
        dedupe_key: createHash("md5").update(`demo:${oldTownPaid.order_no}`).digest("hex"),
        created_at: new Date(options.now.getTime() - 3 * 3_600_000),
      });
    }
  });
}

/** The printed table of demo accounts. */
export function demoAccountsTable(): string {
  const rows = DEMO_ACCOUNTS.map((a) => [a.username, DEMO_PASSWORD, a.userType, a.place]);
  const header = ["username", "password", "user_type", "works in"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
