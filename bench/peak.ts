/**
 * A collection peak (npm run bench, BENCH_ONLY=peak): a school's 2,000 payers pay their term's bill within ten
 * minutes, on PostgreSQL, against one server process and then against three (server/main.ts, each a process of
 * its own, the payers' requests spread over them in turn). Each payer opens the page (h5entry), finds the pupil
 * (h5find), pays (h5pay), pays in the sandbox and is told (h5checkpay); for one pupil in five two guardians pay at
 * once, each on a phone of their own (two orders, both paid: the second is a duplicate the server refunds), and one
 * payer in twenty loses the payment's notification (the sandbox pays without telling the server, which learns it
 * when h5checkpay asks the gateway). Afterwards: every bill paid once, every duplicate
 * payment refunded, no failure answered to a payer; the p99 of each call beside its budget.
 *
 * BENCH_PEAK_PAYERS (default 2000) and BENCH_PEAK_MINUTES (default 10) scale it down for a quick look.
 */
import { randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { sql } from "drizzle-orm";
import { PasswordHasher } from "../server/auth/passwords";
import { openDatabase, queryRows } from "../server/db/client";
import { DEMO_PASSWORD, seedDemo } from "../server/seed/demo";
import { startServerProcess } from "../tests/helpers/server";
import { sheetBase64 } from "../tests/helpers/xlsxParts";
import { translator } from "../server/lib/i18n";
import { billClass, call, type Envelope, type Step } from "./weapi";

/** the budgets of DESIGN 10 the peak is held to, on PostgreSQL */
const CALL_BUDGET_MS: Record<string, number> = { h5find: 200, h5pay: 200 };
const CALLS = ["h5entry", "h5find", "h5pay", "confirm", "h5checkpay"] as const;
type CallName = (typeof CALLS)[number];

export interface PeakRow {
  measure: string;
  database: string;
  figure: string;
  budget: string;
  verdict: "ok" | "OVER" | "n/a" | "FAILED";
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function positiveSetting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${process.env[name]}"`);
  return value;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The school's term: a class of `payers` pupils imported, an activity billing them, its QR code. */
async function prepareTerm(url: string, payers: number): Promise<{ code: string; activityId: number; pupils: { name: string; student_no: string }[] }> {
  const login = await call(url, "adminapi", { method: "login", username: "svc", password: DEMO_PASSWORD });
  const token = login.data?.token;
  if (!token) throw new Error(`login as svc failed: ${login.return_msg}`);
  const step: Step = async (method, payload) => {
    const res = await call(url, "adminapiv2", { method, ...payload }, token);
    if (res.return_code !== "SUCCESS") throw new Error(`${method} failed: ${res.return_msg}`);
    return res.data?.items as Record<string, unknown>;
  };
  const [school] = (await call(url, "adminapiv2", { method: "schoollist", page: 1, limit: 1, title: "No.1" }, token)).data?.items as { id: number }[];
  const tag = randomBytes(3).toString("hex");
  const className = `Peak ${tag}`;
  const pupils = Array.from({ length: payers }, (_, i) => ({ name: `峰值${i}`, student_no: `PEAK-${tag}-${i}` }));
  const content = await sheetBase64(
    ["Student name", "Student number", "Gender", "Grade", "Class", "Guardian", "Guardian's phone", "ID card number"],
    pupils.map((pupil, i) => [pupil.name, pupil.student_no, i % 2 ? "Male" : "Female", "Grade Peak", className, null, null, null]),
  );
  await step("studentimport", { sch_id: school.id, filename: "peak.xlsx", content_base64: content });
  const classes = (await call(url, "adminapiv2", { method: "classeslist", page: 1, limit: 100, sch_id: school.id }, token)).data?.items as { id: number; title: string }[];
  const klass = classes.find((candidate) => candidate.title === className);
  if (!klass) throw new Error(`the imported class ${className} is not listed`);
  const { activityId, code } = await billClass(step, school.id, klass.id, `Peak term ${tag}`, "1200.00");
  return { code, activityId, pupils };
}

/** what h5pay answers while another order of the same pupil is being made: the page asks again a moment later */
const ORDER_IN_PROGRESS = translator("en")("api.payer_order_in_progress");
const SYSTEM_ERROR = translator("en")("api.system_error");

/**
 * One guardian's visit on a phone of its own (`phoneIndex` gives its address, passed on by the proxy in front of
 * the servers); the calls' latencies go to `latencies`, anything a payer would see as a failure to `failures`.
 */
async function payerVisit(
  server: () => string,
  code: string,
  pupil: { name: string; student_no: string },
  index: number,
  phoneIndex: number,
  /** one of two guardians paying for a pupil at once: told the bill is paid, or refused an order, is no failure */
  second: boolean,
  latencies: Map<CallName, number[]>,
  failures: string[],
): Promise<void> {
  const phone = {
    "x-forwarded-for": `10.${60 + Math.floor(phoneIndex / 62500)}.${Math.floor(phoneIndex / 250) % 250}.${(phoneIndex % 250) + 1}`,
    "accept-language": "en",
  };
  const timed = async <T>(name: CallName, work: () => Promise<T>): Promise<T> => {
    const begun = performance.now();
    const result = await work();
    latencies.get(name)!.push(performance.now() - begun);
    return result;
  };
  const h5 = (name: CallName, payload: Record<string, unknown>) => timed(name, () => call(server(), "h5api", { method: name, ...payload }, undefined, phone));
  const failed = (what: string, res: Envelope) => {
    if (!second || res.return_msg === SYSTEM_ERROR) failures.push(`${what}: ${res.return_msg}`);
  };

  const entry = await h5("h5entry", { code });
  if (entry.return_code !== "SUCCESS") return failed("h5entry", entry);
  const found = await h5("h5find", { code, ...pupil });
  const { ticket, bills } = (found.data?.items ?? {}) as { ticket?: string; bills?: { id: number }[] };
  if (found.return_code !== "SUCCESS" || !ticket) return failed("h5find", found);
  // the other guardian paid first: nothing left to pay
  if (!bills?.length) return second ? undefined : failed("h5find", found);
  const lost = index % 20 === 1;
  let order = await h5("h5pay", { ticket, bill_ids: bills.map((bill) => bill.id) });
  for (let retry = 0; order.return_msg === ORDER_IN_PROGRESS && retry < 10; retry++) {
    await sleep(300);
    order = await h5("h5pay", { ticket, bill_ids: bills.map((bill) => bill.id) });
  }
  const items = order.data?.items as { pay_no: string; payparam: { code_url: string } } | undefined;
  if (order.return_code !== "SUCCESS" || !items) return failed("h5pay", order);
  const confirmed = await timed("confirm", async () => {
    const res = await fetch(`${server()}${new URL(items.payparam.code_url).pathname}/confirm`, {
      method: "POST",
      headers: { "content-type": "application/json", ...phone },
      body: JSON.stringify(lost ? { notify: false } : {}),
    });
    return (await res.json()) as Envelope;
  });
  if (confirmed.return_code !== "SUCCESS") return failed("confirm", confirmed);
  // the page polls until the order is paid (a lost notification: until the server asks the gateway)
  for (let poll = 0; ; poll++) {
    const checked = await h5("h5checkpay", { ticket, pay_no: items.pay_no });
    if (checked.return_code !== "SUCCESS") return failed("h5checkpay", checked);
    if ((checked.data?.items as { status?: string }).status === "paid") return;
    if (poll >= 20) return void failures.push(`h5checkpay: ${items.pay_no} not paid after ${poll} polls`);
    await sleep(500);
  }
}

async function runPeak(databaseUrl: string, processCount: number, payers: number, seconds: number): Promise<PeakRow[]> {
  const env = { DATABASE_URL: databaseUrl, TRUST_PROXY: "true", PAYMENT_KEY: randomBytes(32).toString("base64") };
  const processes: { child: ChildProcess; url: string }[] = [];
  try {
    processes.push(...(await Promise.all(Array.from({ length: processCount }, () => startServerProcess(env)))));
    let next = 0;
    const server = () => processes[next++ % processes.length].url;
    const term = await prepareTerm(processes[0].url, payers);

    const latencies = new Map<CallName, number[]>(CALLS.map((name) => [name, []]));
    const failures: string[] = [];
    const started = performance.now();
    // the payers arrive evenly over the peak's length
    await Promise.all(
      term.pupils.map(async (pupil, index) => {
        await sleep((index * seconds * 1000) / payers);
        const visit = (phoneIndex: number, second: boolean) =>
          payerVisit(server, term.code, pupil, index, phoneIndex, second, latencies, failures).catch((err: unknown) => void failures.push(`visit: ${(err as Error).message}`));
        // one pupil in five: a second guardian pays at the same moment on another phone
        // (whichever comes second is told the bill is paid or cannot be paid any more: an answer, not a failure)
        await Promise.all(index % 5 === 0 ? [visit(index, true), visit(payers + index, true)] : [visit(index, false)]);
      }),
    );
    const tookSeconds = (performance.now() - started) / 1000;

    const database = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 2 });
    let outcome: { bills: number; paidOnce: number; duplicates: number; refunded: number };
    try {
      const figures = async () =>
        (
          await queryRows<{ bills: number; paid_once: number; duplicates: number; refunded: number }>(
            database.db,
            sql`select (select count(*)::int from bills where activity_id = ${term.activityId}) as bills,
                       (select count(*)::int from bills b where b.activity_id = ${term.activityId} and b.status = 'paid'
                          and (select count(*) from fee_order_lines l join fee_orders o on o.id = l.order_id
                               where l.bill_id = b.id and o.paid_at is not null and o.duplicate = 'N') = 1) as paid_once,
                       (select count(*)::int from fee_orders where activity_id = ${term.activityId} and duplicate = 'Y') as duplicates,
                       (select count(*)::int from fee_orders o where o.activity_id = ${term.activityId} and o.duplicate = 'Y'
                          and o.refunded_amount = o.amount) as refunded`,
          )
        )[0];
      // the duplicates' refunds are sent by the job workers: given a minute to end
      const deadline = Date.now() + 60_000;
      outcome = await figures().then((f) => ({ bills: f.bills, paidOnce: f.paid_once, duplicates: f.duplicates, refunded: f.refunded }));
      while (outcome.refunded < outcome.duplicates && Date.now() < deadline) {
        await sleep(1000);
        const f = await figures();
        outcome = { bills: f.bills, paidOnce: f.paid_once, duplicates: f.duplicates, refunded: f.refunded };
      }
    } finally {
      await database.close();
    }

    const label = `PostgreSQL, ${processCount} process${processCount > 1 ? "es" : ""}`;
    const rows: PeakRow[] = [];
    const whole = failures.length === 0 && outcome.bills === payers && outcome.paidOnce === payers && outcome.refunded === outcome.duplicates;
    rows.push({
      measure: `collection peak: ${payers} payers in ${Math.round(seconds / 60)} min (1 pupil in 5 paid twice at once, 1 payer in 20 losing the notification)`,
      database: label,
      figure: `${tookSeconds.toFixed(0)} s; ${outcome.paidOnce} of ${outcome.bills} bills paid once, ${outcome.refunded} of ${outcome.duplicates} duplicates refunded, ${failures.length} failures`,
      budget: "every bill paid once, every duplicate refunded, no failure",
      verdict: whole ? "ok" : "FAILED",
    });
    for (const name of CALLS) {
      const sorted = latencies.get(name)!.sort((a, b) => a - b);
      const budget = CALL_BUDGET_MS[name];
      const p99 = percentile(sorted, 99);
      rows.push({
        measure: `collection peak: ${name} (${sorted.length} calls)`,
        database: label,
        figure: `p50 ${percentile(sorted, 50).toFixed(1)} / p99 ${p99.toFixed(1)} ms`,
        budget: budget ? `p99 <= ${budget} ms` : "",
        verdict: budget ? (p99 <= budget ? "ok" : "OVER") : "n/a",
      });
    }
    if (failures.length) console.warn(`the peak on ${label}: ${failures.slice(0, 5).join("; ")}`);
    return rows;
  } finally {
    await Promise.all(
      processes.map(({ child }) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", () => resolve()), child.kill("SIGTERM"))))),
    );
  }
}

/**
 * The peak on a fresh database of the demo seeded at the real time (the processes keep the real clock), once with
 * one process and once with three; `freshDatabase` makes (and drops) a database for each run.
 */
export async function measurePeak(freshDatabase: <T>(body: (url: string) => Promise<T>) => Promise<T>): Promise<PeakRow[]> {
  const payers = Math.round(positiveSetting("BENCH_PEAK_PAYERS", 2000));
  const seconds = positiveSetting("BENCH_PEAK_MINUTES", 10) * 60;
  const rows: PeakRow[] = [];
  for (const processCount of [1, 3]) {
    rows.push(
      ...(await freshDatabase(async (url) => {
        const database = await openDatabase({ kind: "postgres", url });
        try {
          await seedDemo(database.db, { hasher: new PasswordHasher(), now: new Date() });
        } finally {
          await database.close();
        }
        return runPeak(url, processCount, payers, seconds);
      })),
    );
  }
  return rows;
}
