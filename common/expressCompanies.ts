/**
 * The express companies an order may be sent with: our own stable codes, each with the codes the tracking services
 * know it by beside it (they differ: KdNiao's SF is Kuaidi100's shunfeng), so that a tracking service can be chosen
 * later without touching stored orders. Names in locales/<lang>/retail.json `express.<code>`; a delivery import
 * accepts the code or the name in any language.
 */
export interface ExpressCompany {
  /** our code, stored on the order */
  code: string;
  /** KdNiao's ShipperCode */
  kdniao: string;
  /** Kuaidi100's `com` */
  kuaidi100: string;
}

export const EXPRESS_COMPANIES: readonly ExpressCompany[] = [
  { code: "SF", kdniao: "SF", kuaidi100: "shunfeng" },
  { code: "EMS", kdniao: "EMS", kuaidi100: "ems" },
  { code: "JD", kdniao: "JD", kuaidi100: "jd" },
  { code: "YTO", kdniao: "YTO", kuaidi100: "yuantong" },
  { code: "ZTO", kdniao: "ZTO", kuaidi100: "zhongtong" },
  { code: "STO", kdniao: "STO", kuaidi100: "shentong" },
  { code: "YD", kdniao: "YD", kuaidi100: "yunda" },
  { code: "JTSD", kdniao: "JTSD", kuaidi100: "jtexpress" },
  { code: "DBL", kdniao: "DBL", kuaidi100: "debangwuliu" },
  { code: "YZPY", kdniao: "YZPY", kuaidi100: "youzhengguonei" },
];

/** the translation key of a company's name */
export function expressNameKey(code: string): string {
  return `retail.express.${code}`;
}

/** A tracking number: letters, digits and dashes, as the companies print them. */
export const TRACKING_NO_PATTERN = "^[A-Za-z0-9-]{6,40}$";
