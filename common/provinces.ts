/**
 * Mainland China's province-level divisions with Hong Kong, Macao and Taiwan, by their GB/T 2260 codes: the regions an
 * express template charges by, and the province of an address. Their names are here for the payer page, and in
 * locales/<lang>/retail.json `province.<code>` for the console (tests/unit/provinces.test.ts holds them alike).
 */
export interface Province {
  code: string;
  zh: string;
  en: string;
  es: string;
}

export const PROVINCES: readonly Province[] = [
  { code: "11", zh: "北京", en: "Beijing", es: "Pekín" },
  { code: "12", zh: "天津", en: "Tianjin", es: "Tianjin" },
  { code: "13", zh: "河北", en: "Hebei", es: "Hebei" },
  { code: "14", zh: "山西", en: "Shanxi", es: "Shanxi" },
  { code: "15", zh: "内蒙古", en: "Inner Mongolia", es: "Mongolia Interior" },
  { code: "21", zh: "辽宁", en: "Liaoning", es: "Liaoning" },
  { code: "22", zh: "吉林", en: "Jilin", es: "Jilin" },
  { code: "23", zh: "黑龙江", en: "Heilongjiang", es: "Heilongjiang" },
  { code: "31", zh: "上海", en: "Shanghai", es: "Shanghái" },
  { code: "32", zh: "江苏", en: "Jiangsu", es: "Jiangsu" },
  { code: "33", zh: "浙江", en: "Zhejiang", es: "Zhejiang" },
  { code: "34", zh: "安徽", en: "Anhui", es: "Anhui" },
  { code: "35", zh: "福建", en: "Fujian", es: "Fujian" },
  { code: "36", zh: "江西", en: "Jiangxi", es: "Jiangxi" },
  { code: "37", zh: "山东", en: "Shandong", es: "Shandong" },
  { code: "41", zh: "河南", en: "Henan", es: "Henan" },
  { code: "42", zh: "湖北", en: "Hubei", es: "Hubei" },
  { code: "43", zh: "湖南", en: "Hunan", es: "Hunan" },
  { code: "44", zh: "广东", en: "Guangdong", es: "Cantón" },
  { code: "45", zh: "广西", en: "Guangxi", es: "Guangxi" },
  { code: "46", zh: "海南", en: "Hainan", es: "Hainan" },
  { code: "50", zh: "重庆", en: "Chongqing", es: "Chongqing" },
  { code: "51", zh: "四川", en: "Sichuan", es: "Sichuan" },
  { code: "52", zh: "贵州", en: "Guizhou", es: "Guizhou" },
  { code: "53", zh: "云南", en: "Yunnan", es: "Yunnan" },
  { code: "54", zh: "西藏", en: "Tibet", es: "Tíbet" },
  { code: "61", zh: "陕西", en: "Shaanxi", es: "Shaanxi" },
  { code: "62", zh: "甘肃", en: "Gansu", es: "Gansu" },
  { code: "63", zh: "青海", en: "Qinghai", es: "Qinghai" },
  { code: "64", zh: "宁夏", en: "Ningxia", es: "Ningxia" },
  { code: "65", zh: "新疆", en: "Xinjiang", es: "Xinjiang" },
  { code: "71", zh: "台湾", en: "Taiwan", es: "Taiwán" },
  { code: "81", zh: "香港", en: "Hong Kong", es: "Hong Kong" },
  { code: "82", zh: "澳门", en: "Macao", es: "Macao" },
];

export const PROVINCE_CODES = PROVINCES.map((p) => p.code) as [string, ...string[]];

/** the translation key of a province's name */
export function provinceNameKey(code: string): string {
  return `retail.province.${code}`;
}
