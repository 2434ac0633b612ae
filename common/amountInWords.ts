/**
 * An amount in Chinese capital numerals (人民币大写), as a receipt, a cheque or a voucher writes it, following the
 * People's Bank of China's rules for written amounts (《支付结算办法》 附件一): the capital digits 壹贰叁…, 拾佰仟 within
 * a group of four and 万, 亿 between groups; one 零 for one or more zeros inside the figure (a zero group between
 * two others, or a group under a thousand after a higher one); 整 after an amount that ends at 元, none after 角
 * or 分; 零 between 元 and 分 when the 角 is zero. Where the rules allow either form (a zero in the 元 place before
 * 角: 壹仟陆佰捌拾元叁角贰分 or …元零叁角贰分) the shorter one is written.
 */

const DIGITS = ["零", "壹", "贰", "叁", "肆", "伍", "陆", "柒", "捌", "玖"];
/** the places within a group of four, from the ones */
const PLACES = ["", "拾", "佰", "仟"];
/** the groups of four, from the ones: up to 9999 万亿 */
const GROUPS = ["", "万", "亿", "万亿"];

/** A group of four digits (1..9999) without leading zeros; a zero inside it is one 零. */
function groupWords(group: number): string {
  let words = "";
  let zero = false;
  for (let place = 3; place >= 0; place--) {
    const digit = Math.floor(group / 10 ** place) % 10;
    if (digit === 0) {
      if (words) zero = true;
      continue;
    }
    if (zero) words += "零";
    zero = false;
    words += DIGITS[digit] + PLACES[place];
  }
  return words;
}

/** Whole yuan in capital numerals ("" for none). */
function yuanWords(yuan: bigint): string {
  const groups: number[] = [];
  for (let rest = yuan; rest > 0n; rest /= 10_000n) groups.push(Number(rest % 10_000n));
  if (groups.length > GROUPS.length) throw new RangeError("amount too large to write in words");
  let words = "";
  let zeroBetween = false;
  for (let i = groups.length - 1; i >= 0; i--) {
    const group = groups[i];
    if (group === 0) {
      if (words) zeroBetween = true;
      continue;
    }
    // zeros between this group and the higher one: a whole zero group, or this group's own leading zeros
    if (words && (zeroBetween || group < 1000)) words += "零";
    words += groupWords(group) + GROUPS[i];
    zeroBetween = false;
  }
  return words;
}

/** An amount in fen in capital numerals: 15550 → 壹佰伍拾伍元伍角, 0 → 零元整, 1005 → 壹拾元零伍分. */
export function amountInWords(fen: number | bigint): string {
  let amount = BigInt(fen);
  const negative = amount < 0n;
  if (negative) amount = -amount;
  const yuan = amount / 100n;
  const jiao = Number((amount / 10n) % 10n);
  const cents = Number(amount % 10n);
  let words = yuanWords(yuan);
  if (words) words += "元";
  if (jiao === 0 && cents === 0) words = `${words || "零元"}整`;
  else if (jiao > 0) words += `${DIGITS[jiao]}角${cents > 0 ? `${DIGITS[cents]}分` : ""}`;
  else words += `${words ? "零" : ""}${DIGITS[cents]}分`;
  return negative ? `负${words}` : words;
}
