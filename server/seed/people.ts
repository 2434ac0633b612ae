/**
 * Deterministic people for the demo and bench data: Chinese names, mainland mobile numbers and identity card
 * numbers (GB 11643, the sex in the 17th digit, a valid check character), drawn from a seeded generator so that
 * every seed of the same day writes the same rows.
 */

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export type Random = () => number;

export function seededRandom(seed: string | number): Random {
  let a = typeof seed === "number" ? seed >>> 0 : hashString(seed);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string, as a generator's seed. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** Common surnames, the most frequent first. */
export const SURNAMES: readonly string[] = [
  ..."王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤",
];

/** Characters of children's given names, by sex ("1" boys, "2" girls). */
export const CHILD_GIVEN: Readonly<Record<"1" | "2", readonly string[]>> = {
  "1": [..."浩宇轩然子涵博文俊杰晨睿泽一鹏明航天昊哲磊嘉瑞铭凯思远宸逸锦晟梓辰峻熙骏楷煜宁阳毅诚乐安皓"],
  "2": [..."欣怡梓涵雨诗萱琪佳悦思可馨语彤婷晓雪芸瑶妍若琳嘉静梦茜依蕾颖菲璐露清月心雅沐紫柔"],
};

/** Characters of adults' given names (the guardians), by sex. */
export const ADULT_GIVEN: Readonly<Record<"1" | "2", readonly string[]>> = {
  "1": [..."伟强军勇杰涛斌超明刚平辉健峰华建国志新海波宏东林鹏飞俊"],
  "2": [..."芳娜敏静丽艳霞燕玲红梅莉英萍娟琴云洁秀慧晶倩兰凤婷"],
};

/** A surname, the common ones more often (as in a real class). */
export function surname(random: Random): string {
  const r = random();
  return SURNAMES[Math.floor(r * r * SURNAMES.length)];
}

/** A given name of one or (mostly) two characters. */
export function givenName(random: Random, chars: readonly string[]): string {
  const first = pick(random, chars);
  return random() < 0.25 ? first : first + pick(random, chars);
}

/** Mobile prefixes in use on the mainland (1[3-9]x). */
export const MOBILE_PREFIXES: readonly string[] = [
  "130", "131", "132", "133", "134", "135", "136", "137", "138", "139", "150", "151", "152", "153", "155", "156",
  "157", "158", "159", "166", "173", "175", "176", "177", "178", "180", "181", "182", "183", "185", "186", "187",
  "188", "189", "191", "198", "199",
];

export function mobile(random: Random): string {
  return pick(random, MOBILE_PREFIXES) + String(Math.floor(random() * 1e8)).padStart(8, "0");
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = "10X98765432";

/**
 * An 18-character identity card number: region (6 digits), birth date (yyyymmdd), a sequence whose last digit
 * is odd for a man and even for a woman, and the GB 11643 check character.
 */
export function idCard(region: string, birth: string, sex: "1" | "2", sequence: number): string {
  const seq = Math.floor(sequence / 10) % 100;
  const last = (sequence % 5) * 2 + (sex === "1" ? 1 : 0);
  const body = `${region}${birth.replaceAll("-", "")}${String(seq).padStart(2, "0")}${last}`;
  const sum = ID_WEIGHTS.reduce((acc, w, i) => acc + w * Number(body[i]), 0);
  return body + ID_CHECK[sum % 11];
}
