/**
 * The contract of a cloud receipt printer's driver (Feie 飞鹅 ./feie.ts, Yilianyun 易联云 ./yilianyun.ts, the
 * sandbox printer of the devices domain), its typed error, and the form POST both cloud vendors are spoken to
 * through. A driver holds no state about jobs: the caller's job table is what makes a receipt print once.
 */
import { AnswerTooLargeError, boundedText } from "../../../lib/boundedText";

export type CloudPrinterVendor = "feie" | "yilianyun";
/** "sandbox": the stand-in printer shown in the console, whose driver the devices domain makes */
export type PrinterVendor = CloudPrinterVendor | "sandbox";

/** What every printer has, whatever its vendor. */
interface PrinterBase {
  /** Feie's SN (打印机编号), Yilianyun's machine_code (终端号) */
  sn: string;
  /** Feie: the printer's key (识别码); Yilianyun: its msign (终端密钥). A secret: never in a message or a log. */
  key: string;
  /** the name the vendor's console shows (Feie's remark, Yilianyun's print_name) */
  title: string;
  /** receipts printed per job unless the job says otherwise */
  copies: number;
}

/** The Feie account the printer is added to: its user (the account's e-mail or phone) and UKEY (a secret). */
export interface FeieAccount {
  user: string;
  ukey: string;
}

/** The Yilianyun application (自有应用) the printer is authorised to; client_secret is a secret. */
export interface YilianyunAccount {
  client_id: string;
  client_secret: string;
}

export type FeiePrinter = PrinterBase & { vendor: "feie"; account: FeieAccount };
export type YilianyunPrinter = PrinterBase & { vendor: "yilianyun"; account: YilianyunAccount };
/** the sandbox printer has no account at a vendor */
export type SandboxPrinter = PrinterBase & { vendor: "sandbox" };
export type Printer = FeiePrinter | YilianyunPrinter | SandboxPrinter;

/** One receipt to print. */
export interface PrintJob {
  /**
   * The job's own key, 1 to 32 letters and digits (Yilianyun's origin_id rule): Yilianyun refuses a second print
   * with it; Feie has no such key, so there only the caller's job table keeps a job from being sent twice.
   */
  dedupeKey: string;
  /** the vendor's markup (../receipt.ts renders it) */
  content: string;
  /** 1 to MAX_COPIES */
  copies: number;
}

export type JobStatus = "printed" | "waiting" | "unknown";
/** "no_paper": the vendor says the printer is out of paper (Feie: online but not working normally, most often that) */
export type PrinterStatus = "online" | "offline" | "no_paper";

/** A vendor's signed report that a job printed (Feie's callback to the print's backurl). */
export interface PrintCallback {
  providerJobId: string;
  printed: boolean;
}

export interface PrinterDriver<P extends Printer = Printer> {
  readonly vendor: P["vendor"];
  /** binds the printer to the account; adding one already bound to the same account succeeds */
  addPrinter(printer: P): Promise<void>;
  /** unbinds it; removing one no longer bound succeeds */
  removePrinter(printer: P): Promise<void>;
  /** hands the job to the vendor, which prints it now or once the printer is back (both vendors queue) */
  print(printer: P, job: PrintJob): Promise<{ providerJobId: string }>;
  /** "unknown": the vendor does not know the job (another account, or forgotten) */
  jobStatus(printer: P, providerJobId: string): Promise<JobStatus>;
  printerStatus(printer: P): Promise<PrinterStatus>;
  /** checks a vendor's signed callback (the fields of its form POST); throws PrinterError "auth" when forged */
  verifyCallback?(fields: Readonly<Record<string, unknown>>): PrintCallback;
}

/**
 * Why a vendor call failed; the caller translates the code for the provider and decides what to do:
 * network and offline are worth trying again later, no_paper once paper is in, auth and rejected need a person,
 * duplicate means the vendor already has this job (Yilianyun's origin_id): the receipt was sent, not lost.
 */
export type PrinterErrorCode = "auth" | "offline" | "no_paper" | "rejected" | "network" | "duplicate";

/** A failed vendor call. Its message is for logs and never holds a key, UKEY, client_secret, msign or token. */
export class PrinterError extends Error {
  override readonly name = "PrinterError";

  constructor(
    readonly code: PrinterErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The most copies one job prints (Yilianyun's <MN> takes one digit). */
export const MAX_COPIES = 9;
const DEDUPE_KEY = /^[A-Za-z0-9]{1,32}$/;

/** A job either vendor takes; anything else is the caller's mistake, refused before a call. */
export function checkJob(job: PrintJob): void {
  if (!DEDUPE_KEY.test(job.dedupeKey)) throw new PrinterError("rejected", "a job's dedupe key is 1 to 32 letters and digits");
  if (!Number.isInteger(job.copies) || job.copies < 1 || job.copies > MAX_COPIES) throw new PrinterError("rejected", `a job prints 1 to ${MAX_COPIES} copies`);
  if (job.content.trim() === "") throw new PrinterError("rejected", "a job has no content");
}

/** `text` with every secret in it masked: vendors echo what they were sent (Feie's refused `sn#key#title` lines). */
export function redacted(text: string, secrets: readonly string[]): string {
  return secrets.filter((secret) => secret.length > 0).reduce((out, secret) => out.split(secret).join("***"), text);
}

const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * POSTs a form and answers its JSON. Whatever keeps an answer from arriving whole (unreachable, timed out, not
 * HTTP 200, not JSON, too large) is a "network" failure naming no more than the vendor and the HTTP status: the
 * request's fields hold the secrets' signatures and the tokens, so they are never repeated.
 */
export async function postForm(vendor: string, url: URL, fields: Record<string, string>): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", body: new URLSearchParams(fields), redirect: "error", signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new PrinterError("network", `${vendor} did not answer (${error instanceof Error ? error.name : "error"})`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new PrinterError("network", `${vendor} answered HTTP ${response.status}`);
  }
  try {
    return JSON.parse(await boundedText(response, MAX_ANSWER_BYTES));
  } catch (error) {
    throw new PrinterError("network", `${vendor}'s answer ${error instanceof AnswerTooLargeError ? "is too large" : "was cut off or is not JSON"}`);
  }
}
