/**
 * What the payer has done so far, per school code, in sessionStorage: the ticket, the student and bills found,
 * the bills chosen, the order being paid and where the payer was. Going back, reloading or returning from the
 * payment page finds it again; closing the tab forgets it (the ticket expires on the server anyway).
 */
import type { AnswerValue, Bill, PayResult, Receipt, Student } from "./api";

export type Step = "find" | "bills" | "pay" | "done" | "shop";

/** Where the payer is in the school shop (shop/): one history entry each. */
export type ShopRoute =
  | { view: "list"; cate?: number }
  | { view: "goods"; id: number }
  /** a page of the shop's (shopdiylist) other than its home */
  | { view: "page"; id: number }
  | { view: "cart" }
  /** the student the order is for, found before checking out or reading the orders */
  | { view: "find"; next: "checkout" | "orders" }
  | { view: "checkout" }
  | { view: "pay" }
  | { view: "orders" }
  | { view: "order"; id: number };

/** A shop order being paid: its payment as h5shoporder answered it. */
export interface ShopPayment {
  id: number;
  order_no: string;
  order: PayResult;
  orderAt: number;
}

/** What the checkout form holds (the address kept while the payer goes back and forth). */
export interface CheckoutForm {
  delivery?: "pickup" | "express";
  pointId?: number;
  name: string;
  phone: string;
  /** GB/T 2260 code, "" until chosen */
  province: string;
  detail: string;
}

export interface PayerState {
  step: Step;
  ticket?: string;
  student?: Student;
  bills?: Bill[];
  selected?: string[];
  /** the answers to the chosen bills' forms, by question id */
  answers?: Record<string, AnswerValue>;
  order?: PayResult;
  /** when the order was made (ms): polling stops 10 minutes after */
  orderAt?: number;
  receipt?: Receipt;
  /** the fee step the payer left for the shop: the fees tab goes back to it */
  feeStep?: Step;
  shop?: ShopRoute;
  shopPay?: ShopPayment;
  checkout?: CheckoutForm;
  /** the sizes chosen of the chosen bills' goods (by activity item) and how they reach the payer */
  goodsChoice?: GoodsChoice;
}

export interface GoodsChoice {
  sizes: Record<string, number>;
  delivery?: "pickup" | "express";
  pointId?: number;
  name?: string;
  phone?: string;
  detail?: string;
}

/** Moves the payer to another step (or place in the shop): a new history entry, or this one replaced. */
export type Go = (next: PayerState, history?: "push" | "replace") => void;

const key = (code: string) => `h5:${code}`;

export function loadState(code: string): PayerState {
  try {
    const raw = window.sessionStorage.getItem(key(code));
    const parsed = raw ? (JSON.parse(raw) as PayerState) : null;
    if (parsed && typeof parsed === "object" && typeof parsed.step === "string") return sane(parsed);
  } catch {
    // storage off (a private window) or unreadable: start afresh
  }
  return { step: "find" };
}

/** A step whose data is missing falls back to the last one it has; the shop needs no student until checkout. */
function sane(state: PayerState): PayerState {
  const shop = { shop: state.shop, shopPay: state.shopPay, checkout: state.checkout, feeStep: state.feeStep };
  if (!state.ticket || !state.bills || !state.student) return state.step === "shop" ? { ...shop, step: "shop", shop: state.shop ?? { view: "list" } } : { ...shop, step: "find" };
  if (state.step === "shop") return { ...state, shop: state.shop ?? { view: "list" } };
  if ((state.step === "pay" || state.step === "done") && !state.order) return { ...state, step: "bills" };
  return state;
}

export function saveState(code: string, state: PayerState): void {
  try {
    window.sessionStorage.setItem(key(code), JSON.stringify(state));
  } catch {
    // storage full or off: the page still works, it just forgets on reload
  }
}

export function clearState(code: string): void {
  try {
    window.sessionStorage.removeItem(key(code));
  } catch {
    // nothing to forget
  }
}

/** "155.50" -> 15550 (fen); anything unreadable counts 0. */
export function toFen(yuan: string | number): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(String(yuan).trim());
  if (!match) return 0;
  const fen = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return match[1] ? -fen : fen;
}

/**
 * An amount in fen as the page's language writes it, thousands grouped as the console groups them: 123450 ->
 * "1,234.50" (zh, en), "1.234,50" (es).
 */
export function moneyText(fen: number, language: string): string {
  return (Math.round(fen) / 100).toLocaleString(language, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "always" });
}

