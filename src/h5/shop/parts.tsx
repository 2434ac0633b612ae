/** Small pieces the shop's pages share: a goods picture, a SKU's specs, an order's state, a quantity stepper. */
import { useState } from "react";
import type { ShopOrder } from "../api";
import type { ShopTranslate } from "./text";

/** the path of an image the server keeps (server/uploads/keys.ts) */
const UPLOADED_IMAGE_PATH = /^\/files\/img\/[0-9a-f]{64}_[1-9][0-9]{0,3}\.webp$/;

/**
 * An image the server keeps is shown from the page's own address, whichever address its URL names (PUBLIC_URL may
 * not be the address the page was opened at, and the page's CSP loads images from itself).
 */
export function shownImageUrl(url: string): string {
  try {
    const parsed = new URL(url, window.location.href);
    return UPLOADED_IMAGE_PATH.test(parsed.pathname) && parsed.search === "" ? parsed.pathname : url;
  } catch {
    return url;
  }
}

/** A goods picture, or in its place the title's first character on a soft tile (no picture, or one that fails). */
export function Picture({ url, title, className, label }: { url: string | null | undefined; title: string; className: string; label?: string }) {
  const [failed, setFailed] = useState<string>();
  if (!url || failed === url) {
    return (
      <div className={`${className} picture-none`} {...(label === "" ? { "aria-hidden": true } : { role: "img", "aria-label": label ?? title })}>
        <span aria-hidden="true">{[...title.trim()][0] ?? "?"}</span>
      </div>
    );
  }
  return <img className={className} src={shownImageUrl(url)} alt={label ?? title} loading="lazy" decoding="async" onError={() => setFailed(url)} />;
}

/** "尺码 130 · 颜色 藏青" */
export function specsText(specs: Record<string, string> | null | undefined): string {
  return Object.entries(specs ?? {})
    .map(([name, value]) => `${name} ${value}`)
    .join(" · ");
}

/** An order's state as the payer reads it: a pickup order waits to be collected, an express one to be sent. */
export function orderStatusText(order: Pick<ShopOrder, "status" | "delivery">, s: ShopTranslate): string {
  switch (order.status) {
    case "unpaid":
      return s("status_unpaid");
    case "undelivered":
      return order.delivery === "pickup" ? s("status_to_collect") : s("status_to_send");
    case "delivered":
      return s("status_sent");
    case "completed":
      return s("status_completed");
    default:
      return s("status_cancelled");
  }
}

export function orderStatusTone(status: ShopOrder["status"]): string {
  if (status === "unpaid") return "warn";
  if (status === "undelivered" || status === "delivered") return "info";
  if (status === "completed") return "ok";
  return "";
}

export function Stepper({ value, min = 1, max, onChange, label, fewer, more, testId }: { value: number; min?: number; max: number; onChange: (value: number) => void; label: string; fewer: string; more: string; testId: string }) {
  return (
    <div className="stepper" role="group" aria-label={label}>
      <button type="button" aria-label={fewer} disabled={value <= min} data-testid={`${testId}-less`} onClick={() => onChange(Math.max(min, value - 1))}>
        −
      </button>
      <output aria-live="polite" data-testid={`${testId}-value`}>
        {value}
      </output>
      <button type="button" aria-label={more} disabled={value >= max} data-testid={`${testId}-more`} onClick={() => onChange(Math.min(max, value + 1))}>
        +
      </button>
    </div>
  );
}

/** The courier's name for an order's express company code (the console's codes); an unknown code as it is. */
const COURIERS: Record<string, [zh: string, other: string]> = {
  SF: ["顺丰速运", "SF Express"],
  EMS: ["中国邮政 EMS", "China Post EMS"],
  JD: ["京东物流", "JD Logistics"],
  YTO: ["圆通速递", "YTO Express"],
  ZTO: ["中通快递", "ZTO Express"],
  STO: ["申通快递", "STO Express"],
  YD: ["韵达快递", "Yunda Express"],
  JTSD: ["极兔速递", "J&T Express"],
  DBL: ["德邦快递", "Deppon Express"],
  YZPY: ["邮政快递包裹", "China Post"],
};

/** the couriers a payer may send goods back with, as the console's codes */
export const COURIER_CODES: readonly string[] = Object.keys(COURIERS);

export function courierName(code: string, language: string): string {
  const names = COURIERS[code.toUpperCase()];
  return names ? names[language === "zh" ? 0 : 1] : code;
}
