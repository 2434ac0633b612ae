/**
 * The shop's cart, per school code in localStorage (a parent who closes the page finds it again): the SKUs chosen
 * with what the page showed of them when they were added (title, specs, price, picture, stock, how they may be
 * delivered), refreshed from h5goodsinfo when the cart is opened. The server prices the order itself.
 */
import type { Delivery, GoodsDelivery, GoodsInfo } from "../api";
import { toFen } from "../session";

/** the most of one SKU in an order (the server's limit) and the most lines */
export const MAX_QTY = 99;
export const MAX_LINES = 20;

export interface CartLine {
  sku_id: number;
  goods_id: number;
  title: string;
  specs: Record<string, string>;
  price: string;
  image: string | null;
  qty: number;
  stock: number;
  delivery: GoodsDelivery;
  /** taken off sale (or the SKU removed) since it was added */
  gone?: boolean;
}

const key = (code: string) => `h5cart:${code}`;

function isLine(value: unknown): value is CartLine {
  const line = value as CartLine;
  return (
    typeof line === "object" &&
    line !== null &&
    Number.isInteger(line.sku_id) &&
    Number.isInteger(line.goods_id) &&
    Number.isInteger(line.qty) &&
    line.qty > 0 &&
    typeof line.title === "string" &&
    typeof line.price === "string"
  );
}

export function loadCart(code: string): CartLine[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(key(code)) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isLine).slice(0, MAX_LINES) : [];
  } catch {
    // storage off or unreadable: an empty cart
    return [];
  }
}

export function saveCart(code: string, lines: readonly CartLine[]): void {
  try {
    if (lines.length === 0) window.localStorage.removeItem(key(code));
    else window.localStorage.setItem(key(code), JSON.stringify(lines));
  } catch {
    // storage full or off: the cart lasts as long as the page
  }
}

/** The lines with `qty` more of this SKU, never beyond its stock nor the order's limits. */
export function addToCart(lines: readonly CartLine[], line: Omit<CartLine, "qty">, qty: number): CartLine[] {
  const cap = Math.min(MAX_QTY, line.stock);
  const found = lines.find((l) => l.sku_id === line.sku_id);
  if (found) return lines.map((l) => (l.sku_id === line.sku_id ? { ...l, ...line, gone: false, qty: Math.max(1, Math.min(cap, l.qty + qty)) } : l));
  if (lines.length >= MAX_LINES) return [...lines];
  return [...lines, { ...line, qty: Math.max(1, Math.min(cap, qty)) }];
}

export function cartCount(lines: readonly CartLine[]): number {
  return lines.reduce((sum, l) => sum + l.qty, 0);
}

export function cartTotalFen(lines: readonly CartLine[]): number {
  return lines.filter((l) => !l.gone).reduce((sum, l) => sum + toFen(l.price) * l.qty, 0);
}

/** The ways every line may be delivered (an empty list: no one way suits them all). */
export function commonDeliveries(lines: readonly CartLine[]): Delivery[] {
  return (["pickup", "express"] as const).filter((way) => lines.every((l) => l.delivery === "both" || l.delivery === way));
}

/** The lines as the goods stand now: price, stock and delivery refreshed; a goods item or SKU no longer sold is gone. */
export function refreshCart(lines: readonly CartLine[], infos: ReadonlyMap<number, GoodsInfo | null>): CartLine[] {
  return lines.map((line) => {
    if (!infos.has(line.goods_id)) return line;
    const info = infos.get(line.goods_id);
    const sku = info?.skus.find((s) => s.id === line.sku_id);
    if (!info || !sku) return { ...line, gone: true };
    return { ...line, title: info.title, price: sku.price, stock: sku.stock, delivery: info.delivery, specs: sku.spec_values, gone: false };
  });
}
