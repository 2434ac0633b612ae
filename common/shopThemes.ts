/**
 * The looks a provider may give its shop on the payer page (shopthemeset): a main colour, each but the page's own
 * blue dark enough for white text on it (4.5:1 or more), with the shade it takes when pressed, and a style of corners. Names in
 * locales/<lang>/retail.json `theme`; no imports, so the payer page reads it as the console does.
 */
export interface ShopColor {
  code: string;
  main: string;
  dark: string;
}

export const SHOP_COLORS: readonly ShopColor[] = [
  // the payer page's own
  { code: "blue", main: "#1677ff", dark: "#0958d9" },
  { code: "green", main: "#0f7b3f", dark: "#0b5e30" },
  { code: "red", main: "#c62828", dark: "#a21f1f" },
  { code: "orange", main: "#c2570c", dark: "#9a4409" },
  { code: "purple", main: "#6d28d9", dark: "#5b21b6" },
  { code: "navy", main: "#1e3a8a", dark: "#172c6b" },
];

/** rounded: the payer page's own; square: small corners, a plainer look */
export const SHOP_STYLES = ["rounded", "square"] as const;

export type ShopStyle = (typeof SHOP_STYLES)[number];

export function shopColor(code: string | null | undefined): ShopColor | undefined {
  return SHOP_COLORS.find((c) => c.code === code);
}
