/**
 * Fee collection from end to end in the console, on the real server and the sandbox: the provider (svc) applies
 * for a payment channel and submits it in the same click as it saves it (a channel whose material is missing is
 * saved as a draft and the user told why it was not submitted); the platform's operator (sysadmin) reaches a waiting
 * channel in one click from the home page, then, switched into the provider, approves the new one; svc switches a
 * school to it, confirming the switch named from the old channel to the new, makes an activity for one class with two fee items, opens it, makes the activity's
 * payer QR code and its poster; a parent pays a pupil's bill from a phone (390 px, Chinese); the order shows paid
 * in svc's order list with its lines, and its voucher; the school and the provider's staff see only their own schools' orders;
 * svc reminds the guardians of two pupils still owing from the activity's board and reads the reminders sent.
 * The tests of this file run in order, each in a fresh browser context, and hand on what they made.
 */
import { randomBytes } from "node:crypto";
import type { Locator, Page } from "playwright-core";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { bills, classes, feeOrders, notices, paymentChannels, providers, schoolChannels, schools, students, users, userSchools } from "../../server/db/schema";
import { choose, clickClosing, clickSettled, describeInBrowser, dismissExpiryReminder, login } from "../helpers/browser";
import { en } from "../helpers/locales";

const NO1 = "Sunrise No.1 Primary School";
const tag = randomBytes(3).toString("hex");
const CHANNEL = `E2E channel ${tag}`;
const ACTIVITY = `E2E uniforms ${tag}`;
const QR_TITLE = `E2E gate ${tag}`;
const ITEMS = [
  { title: "Uniform", amount: "120.50" },
  { title: "Books", amount: "35.00" },
];
const DUE = "155.50";

/** What the tests hand on to each other. */
const made: { schoolId?: number; classId?: number; className?: string; payerUrl?: string; payNo?: string } = {};

/** Waits for a condition as a user would wait for the page (vitest's own poll gives up after a second). */
function poll<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: 15000 });
}

function day(offset: number): string {
  const d = new Date(Date.now() + offset * 86_400_000);
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(d);
}

/** The form item of a label, within `scope`. */
function itemOf(scope: Locator, label: string): Locator {
  return scope.locator(".ant-form-item").filter({ has: scope.page().locator(`label[title="${label}"]`) });
}

function inputOf(scope: Locator, label: string): Locator {
  return scope.getByPlaceholder(label, { exact: true });
}

/** Confirms the open pop-up confirmation. */
async function confirmPopup(page: Page): Promise<void> {
  await page.locator(".ant-popconfirm:not(.ant-popover-hidden)").getByRole("button", { name: en.common.confirm }).click();
}

function tableRows(page: Page): Locator {
  return page.locator(".ant-table-tbody tr.ant-table-row").filter({ visible: true });
}

async function filterList(page: Page, label: string, text: string): Promise<void> {
  const filters = page.getByTestId("list-filters").filter({ visible: true });
  await inputOf(filters, label).fill(text);
  await filters.getByRole("button", { name: en.crud.search }).click();
}

describeInBrowser("fee collection in the console", (suite) => {
  const db = () => suite.server.server.database.db;

  test("the provider applies for a payment channel and submits it for review in the same click", async () => {
    const { page } = suite;
    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);

    // the form says what comes next; material missing: saved as a draft, and the refused submission said
    const DRAFT = `E2E draft ${tag}`;
    await page.goto(`${suite.url}/sysadminv2/paychnladd`);
    const draftForm = page.locator("form").filter({ visible: true }).first();
    await draftForm.getByTestId("form-next-step").waitFor();
    await inputOf(draftForm, en.fees.field.channel_title).fill(DRAFT);
    await draftForm.getByTestId("form-save-and-paychnlsubmit").click();
    await page.waitForURL((url) => url.pathname === "/sysadminv2/paychnllist");
    await page.locator(".ant-message").getByText(en.fees.action.submit, { exact: false }).first().waitFor();
    const [draft] = await db().select({ status: paymentChannels.status }).from(paymentChannels).where(eq(paymentChannels.title, DRAFT));
    expect(draft.status).toBe("draft");

    await page.goto(`${suite.url}/sysadminv2/paychnladd`);
    const form = page.locator("form").filter({ visible: true }).first();
    await inputOf(form, en.fees.field.channel_title).fill(CHANNEL);
    await choose(page, itemOf(form, en.fees.field.gateway).locator(".ant-select"), en.fees.gateway.sandbox);
    await inputOf(form, en.fees.field.subject).fill("Sunrise Campus Services Ltd");
    await inputOf(form, en.fees.field.licence_no).fill("91310000MA1FL8XQ4D");
    await inputOf(form, en.fees.field.legal_person).fill("Li Ming");
    await inputOf(form, en.fees.field.contact_name).fill("Zhou Hua");
    await inputOf(form, en.fees.field.contact_phone).fill("13812345678");
    await inputOf(form, en.fees.field.bank_name).fill("Bank of Shanghai");
    await inputOf(form, en.fees.field.bank_account).fill("6222021234567890123");
    await form.getByTestId("form-save-and-paychnlsubmit").click();

    await page.waitForURL((url) => url.pathname === "/sysadminv2/paychnllist");
    await filterList(page, en.fees.field.channel_title, CHANNEL);
    await poll(() => tableRows(page).filter({ hasText: en.fees.channel_status.submitted }).count()).toBe(1);
    const row = tableRows(page).filter({ hasText: en.fees.channel_status.submitted }).first();
    // the settlement account is masked in the list
    expect(await row.innerText()).toContain("6222 **** **** 0123");
    const [channel] = await db().select({ status: paymentChannels.status }).from(paymentChannels).where(eq(paymentChannels.title, CHANNEL));
    expect(channel.status).toBe("submitted");
  });

  test("the platform's operator reaches a waiting channel in one click, and, switched into the provider, approves it", async () => {
    const { page } = suite;
    await login(page, suite.url, "sysadmin");
    // the home page counts every provider's channels waiting, and opens the one waiting longest, in its provider
    const waiting = await db().select({ id: paymentChannels.id, sysid: paymentChannels.sysid }).from(paymentChannels).where(eq(paymentChannels.status, "submitted")).orderBy(asc(paymentChannels.id));
    await poll(() => page.getByTestId("dashboard-waiting-channels-value").textContent()).toBe(String(waiting.length));
    await page.getByTestId("dashboard-waiting-channels").click();
    await page.waitForURL((url) => url.pathname === `/sysadminv2/paychnlinfo/${waiting[0].id}`);
    await page.getByTestId("channel-review").waitFor();
    const [oldestProvider] = await db().select({ title: providers.title }).from(providers).where(eq(providers.id, waiting[0].sysid));
    expect(await page.locator("body").innerText()).toContain(oldestProvider.title);

    // back to the operator console, then into the new channel's provider
    await page.goto(`${suite.url}/secservice`);
    await page.getByTestId("selection-console").click();
    await page.waitForURL((url) => url.pathname !== "/secservice");
    await page.goto(`${suite.url}/secservice`);
    await page.getByTestId("selection-search").fill("Sunrise");
    await page.locator('[data-testid^="selection-row-"]').filter({ hasText: "Sunrise Campus Services" }).first().click();
    await page.waitForURL((url) => url.pathname !== "/secservice");
    await page.goto(`${suite.url}/sysadminv2/paychnllist`);
    await filterList(page, en.fees.field.channel_title, CHANNEL);
    await poll(() => tableRows(page).count()).toBe(1);
    await tableRows(page).first().getByTestId("row-paychnlinfo").click();
    const review = page.getByTestId("channel-review");
    await review.getByTestId("review-result").getByText(en.fees.review_result.approve, { exact: true }).click();
    await review.getByTestId("review-submit").click();
    await page.getByTestId("channel-summary").getByText(en.fees.channel_status.approved).waitFor();
    const [channel] = await db().select({ status: paymentChannels.status, sub_mchid: paymentChannels.sub_mchid }).from(paymentChannels).where(eq(paymentChannels.title, CHANNEL));
    expect(channel.status).toBe("approved");
    // a sandbox channel gets a sub-merchant id made up
    expect(channel.sub_mchid).toMatch(/^99\d{8}$/);
  });

  test("the provider binds a school to it, opens an activity for one class with two items and makes its QR code and poster", async () => {
    const { page } = suite;
    const [school] = await db().select({ id: schools.id }).from(schools).where(eq(schools.title, NO1));
    const [klass] = await db().select({ id: classes.id, title: classes.title }).from(classes).where(eq(classes.sch_id, school.id)).orderBy(asc(classes.id)).limit(1);
    made.schoolId = school.id;
    made.classId = klass.id;
    made.className = klass.title;

    await login(page, suite.url, "svc", { to: `/schoolv2/school_paychnllist/${school.id}` });
    await dismissExpiryReminder(page);
    const [before] = await db().select({ channel: paymentChannels.title }).from(schoolChannels).innerJoin(paymentChannels, eq(paymentChannels.id, schoolChannels.paychnl_id)).where(eq(schoolChannels.sch_id, school.id));
    await choose(page, page.getByTestId("school-channel-choice"), CHANNEL);
    await page.getByTestId("school-channel-bind").click();
    // a switch is confirmed first, naming the channel the school leaves and the one it takes
    const switchText = await page.getByTestId("school-channel-switch-text").textContent();
    expect(switchText).toContain(before.channel);
    expect(switchText).toContain(CHANNEL);
    expect(switchText).toContain(NO1);
    await page.getByTestId("school-channel-switch-ok").click();
    await page.getByTestId("school-channel-current").getByText(CHANNEL).waitFor();
    const [binding] = await db().select({ channel: paymentChannels.title }).from(schoolChannels).innerJoin(paymentChannels, eq(paymentChannels.id, schoolChannels.paychnl_id)).where(eq(schoolChannels.sch_id, school.id));
    expect(binding.channel).toBe(CHANNEL);

    // the activity, added in place (v2 gives the provider no add route), for one class, with two items
    await page.goto(`${suite.url}/activity/activitylist`);
    await page.getByTestId("add-button").click();
    const dialog = page.locator(".ant-modal").filter({ visible: true });
    await choose(page, itemOf(dialog, en.field.school).locator(".ant-select"), "No.1", NO1);
    await inputOf(dialog, en.collection.field.activity_title).fill(ACTIVITY);
    for (const [label, value] of [
      [en.collection.field.start_date, day(0)],
      [en.collection.field.end_date, day(30)],
    ] as const) {
      const picker = itemOf(dialog, label).locator("input");
      await picker.click();
      await picker.fill(value);
      await picker.press("Enter");
    }
    await choose(page, itemOf(dialog, en.collection.field.target).locator(".ant-select"), en.collection.target.classes);
    await choose(page, itemOf(dialog, en.collection.field.class_ids).locator(".ant-select"), klass.title);
    await page.keyboard.press("Escape");
    for (const [index, item] of ITEMS.entries()) {
      await dialog.getByTestId("child-add-items").click();
      const row = dialog.getByTestId(`child-items-${index}`);
      await inputOf(row, en.collection.field.item_title).fill(item.title);
      await row.locator(`input[id$="items_${index}_amount"]`).fill(item.amount);
    }
    expect(await dialog.getByTestId("children-total-items").innerText()).toContain(`¥${DUE}`);
    await dialog.locator(".ant-modal-footer").getByRole("button", { name: en.crud.save }).click();
    await dialog.waitFor({ state: "hidden" });

    await filterList(page, en.collection.field.activity_title, ACTIVITY);
    await poll(() => tableRows(page).count()).toBe(1);
    const activityRow = tableRows(page).first();
    expect(await activityRow.innerText()).toContain(DUE);
    // the row's "Open" (the action; the board, a page of the same route name, has a button of its own)
    await activityRow.getByRole("button", { name: en.collection.act_open, exact: true }).click();
    await confirmPopup(page);
    await poll(() => activityRow.innerText()).toContain(en.collection.activity_status.open);
    // a bill for every active pupil of the class, for the two required items
    const active = await db().select({ n: sql<number>`count(*)::int` }).from(students).where(and(eq(students.class_id, klass.id), eq(students.status, "1")));
    const billed = await db()
      .select({ n: sql<number>`count(*)::int`, amount: sql<number>`min(${bills.amount})::int` })
      .from(bills)
      .innerJoin(sql`activities`, sql`activities.id = ${bills.activity_id}`)
      .where(sql`activities.title = ${ACTIVITY}`);
    expect(billed[0].n).toBe(active[0].n);
    expect(billed[0].amount).toBe(15550);

    // its payer QR code, and the code's A4 poster
    await page.goto(`${suite.url}/activity/qrchnladd`);
    const qrForm = page.locator("form").filter({ visible: true }).first();
    await inputOf(qrForm, en.collection.field.qrchnl_title).fill(QR_TITLE);
    await choose(page, itemOf(qrForm, en.field.school).locator(".ant-select"), "No.1", NO1);
    await choose(page, itemOf(qrForm, en.collection.field.qrchnl_activity).locator(".ant-select"), ACTIVITY);
    await qrForm.getByTestId("form-save").click();
    await page.waitForURL((url) => url.pathname === "/activity/qrchnllist");
    await filterList(page, en.collection.field.qrchnl_title, QR_TITLE);
    await poll(() => tableRows(page).count()).toBe(1);
    const qrRow = tableRows(page).first();
    made.payerUrl = (await qrRow.innerText()).match(/https?:\/\/\S+\/h5\/[\w-]+/)?.[0];
    expect(made.payerUrl).toBeDefined();
    await qrRow.getByRole("button", { name: en.collection.poster.open }).click();
    const poster = page.getByTestId("poster-image");
    await poster.waitFor();
    // an A4 page at 150 dpi
    expect(await poster.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([1240, 1754]);
    const download = page.waitForEvent("download");
    await page.getByTestId("poster-download").click();
    expect((await download).suggestedFilename()).toBe(`${NO1}-${QR_TITLE}.png`);
  });

  test("a parent pays a pupil's bill from a phone, in Chinese", async () => {
    expect(made.payerUrl && made.classId).toBeTruthy();
    const phone = await suite.newContext("zh-CN");
    const page = await phone.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const [pupil] = await db()
      .select({ name: students.name, studentNo: students.student_no, billId: bills.id })
      .from(bills)
      .innerJoin(students, eq(students.id, bills.student_id))
      .innerJoin(sql`activities`, sql`activities.id = ${bills.activity_id}`)
      .where(and(sql`activities.title = ${ACTIVITY}`, eq(bills.status, "unpaid")))
      .orderBy(asc(bills.id))
      .limit(1);

    await page.goto(made.payerUrl!);
    // the school's name replaces the page's own title once the code is read
    await poll(() => page.getByTestId("h5-school-title").innerText()).toBe(NO1);
    expect(await page.getByTestId("h5-activity").allInnerTexts()).toContainEqual(expect.stringContaining(ACTIVITY));
    await page.getByTestId("h5-find-name").fill(pupil.name);
    await page.getByTestId("h5-find-student-no").fill(String(pupil.studentNo));
    await page.getByTestId("h5-find-submit").click();
    const bill = page.getByTestId(`h5-bill-${pupil.billId}`);
    await bill.waitFor();
    expect(await bill.locator(".items li").allInnerTexts()).toEqual([expect.stringContaining(ITEMS[0].title), expect.stringContaining(ITEMS[1].title)]);
    expect(await page.getByTestId("h5-total").innerText()).toBe(`¥${DUE}`);
    await page.getByTestId("h5-pay").click();
    made.payNo = (await page.getByTestId("h5-pay-no").innerText()).trim();
    await page.getByTestId("h5-open-pay-page").click();
    await page.waitForURL((url) => url.pathname.startsWith("/pay/sandbox/"));
    await page.getByTestId("sandbox-pay").click();
    // paid, the payer is back on the payer page at once
    await page.waitForURL((url) => url.pathname.startsWith("/h5/"));
    await page.getByTestId("h5-paid").waitFor({ timeout: 20000 });
    expect(await page.getByTestId("h5-receipt-amount").innerText()).toBe(`¥${DUE}`);
  });

  test("the order shows paid in the provider's order list, with the bill it paid and its voucher", async () => {
    expect(made.payNo).toBeTruthy();
    const { page } = suite;
    const [order] = await db().select({ id: feeOrders.id, orderNo: feeOrders.order_no, status: feeOrders.status }).from(feeOrders).where(eq(feeOrders.pay_no, made.payNo!));
    expect(order.status).toBe("paid");
    await login(page, suite.url, "svc", { to: "/order/orderlistv2" });
    await dismissExpiryReminder(page);
    await filterList(page, en.collection.field.order_no, order.orderNo);
    await poll(() => tableRows(page).count()).toBe(1);
    const row = tableRows(page).first();
    expect(await row.innerText()).toContain(en.collection.order_status.paid);
    expect(await row.innerText()).toContain(DUE);
    await row.getByRole("button", { name: en.crud.detail }).click();
    const lines = page.getByTestId("children-lines");
    await lines.waitFor();
    // one line for the activity's bill, of the amount paid
    await poll(() => lines.innerText()).toContain(ACTIVITY);
    expect(await lines.innerText()).toContain(DUE);

    // its payment voucher, numbered and with the amount in capital numerals
    const [numbered] = await db().select({ receiptNo: feeOrders.receipt_no }).from(feeOrders).where(eq(feeOrders.pay_no, made.payNo!));
    expect(numbered.receiptNo).toMatch(/^\d{10,}$/);
    await page.getByTestId("page-active").getByTestId("show-orderprintsv2").click();
    const voucher = page.getByTestId("page-active").getByTestId("voucher");
    await voucher.waitFor();
    expect(await voucher.getByTestId("voucher-receipt-no").textContent()).toBe(numbered.receiptNo);
    expect(await voucher.getByTestId("voucher-amount-words").textContent()).toBe("壹佰伍拾伍元伍角");
    expect(await voucher.getByTestId("voucher-school").textContent()).toBe(NO1);
  });

  test("the school and the provider's staff see only their own schools' orders", async () => {
    const { page } = suite;
    // the school: its own orders only, as many as the database holds for it
    await login(page, suite.url, "school", { to: "/order/orderlistv2" });
    await dismissExpiryReminder(page);
    const [{ n: ownOrders }] = await db().select({ n: sql<number>`count(*)::int` }).from(feeOrders).where(eq(feeOrders.sch_id, made.schoolId!));
    await poll(() => page.locator(".ant-pagination-total-text").filter({ visible: true }).innerText()).toContain(`${ownOrders} `);
    // and the parent's payment among them
    const [paid] = await db().select({ orderNo: feeOrders.order_no }).from(feeOrders).where(eq(feeOrders.pay_no, made.payNo!));
    await filterList(page, en.collection.field.order_no, paid.orderNo);
    await poll(() => tableRows(page).count()).toBe(1);
    expect(await tableRows(page).first().innerText()).toContain(en.collection.order_status.paid);

    // the staff: only the schools assigned to it, whose names the school column shows
    const staff = await suite.newContext();
    const staffPage = await staff.newPage();
    await login(staffPage, suite.url, "staff", { to: "/order/orderlistv2" });
    const assigned = await db()
      .select({ title: schools.title })
      .from(userSchools)
      .innerJoin(users, eq(users.id, userSchools.userId))
      .innerJoin(schools, eq(schools.id, userSchools.schId))
      .where(eq(users.username, "staff"));
    const titles = assigned.map((s) => s.title);
    const rows = staffPage.locator(".ant-table-tbody tr.ant-table-row").filter({ visible: true });
    await poll(() => rows.count()).toBeGreaterThan(0);
    const texts = await rows.evaluateAll((all) => all.map((row) => (row as HTMLElement).innerText));
    for (const text of texts) expect(titles.some((title) => text.includes(title)), text).toBe(true);
    const [{ n: staffOrders }] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(feeOrders)
      .where(inArray(feeOrders.sch_id, db().select({ id: schools.id }).from(schools).where(inArray(schools.title, titles))));
    await poll(() => staffPage.locator(".ant-pagination-total-text").filter({ visible: true }).innerText()).toContain(`${new Intl.NumberFormat("en").format(staffOrders)} `);
  });
  test("the provider reminds the guardians of two pupils still owing from the activity's board, and reads what was sent", async () => {
    const { page } = suite;
    await login(page, suite.url, "svc");
    await dismissExpiryReminder(page);
    const [activity] = await db().select({ id: sql<number>`id` }).from(sql`activities`).where(sql`title = ${ACTIVITY}`);
    await page.goto(`${suite.url}/activity/activityact/${activity.id}`);
    const unpaid = page.getByTestId("board-unpaid").locator("tr.ant-table-row");
    await poll(() => unpaid.count()).toBeGreaterThan(2);
    // guardians the demo has not reminded (it reminded some of this school's a few hours ago)
    const reminded = (await db().select({ phone: notices.recipient }).from(notices).where(eq(notices.kind, "reminder"))).map((n) => n.phone);
    const names: string[] = [];
    for (let i = 0; names.length < 2; i++) {
      const row = unpaid.nth(i);
      const text = await row.innerText();
      if (reminded.some((phone) => text.includes(phone))) continue;
      names.push((await row.locator("td").nth(1).innerText()).trim());
      await row.locator(".ant-checkbox-input").check();
    }
    await clickSettled(page, page.getByTestId("bulk-billremind"));
    await confirmPopup(page);
    // each row's outcome
    const result = page.getByTestId("bulk-result");
    await poll(() => result.locator(".ant-list-item").filter({ hasText: en.notices.reminder_queued }).count()).toBe(2);
    await clickClosing(page, result.locator(".ant-modal-footer").getByRole("button", { name: en.common.close }));
    // each row says when its guardian was reminded
    for (const name of names) await poll(() => unpaid.filter({ hasText: name }).innerText()).toContain("1 time, last");

    // a second reminder the same day is refused with when the next may go
    await unpaid.filter({ hasText: names[0] }).getByRole("button", { name: en.notices.remind, exact: true }).click();
    await confirmPopup(page);
    await poll(() => page.locator(".ant-message").innerText()).toContain("the next reminder can go after");

    // the notices page: both reminders, sent through the sandbox, as the guardian reads them
    await page.getByTestId("board-notices").click();
    await page.waitForURL((url) => url.pathname === "/notice/noticelist");
    for (const name of names) {
      const sent = page.getByTestId("notice-list").locator("tr.ant-table-row", { hasText: `Dear parent of ${name}` });
      await poll(() => sent.count()).toBe(1);
      await poll(() => sent.getByTestId("notice-status").innerText()).toBe(en.notices.status.sent);
      expect(await sent.innerText()).toContain(ACTIVITY);
    }
  });
});
