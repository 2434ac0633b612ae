/** A goods item's specs: its SKUs are the combinations of one value per spec name (尺码 130 · 颜色 藏青). */
export type Specs = Record<string, string>;

/** Every combination of one value per name, in the order of the names and of their values. */
export function combinations(names: readonly string[], valuesByName: Readonly<Record<string, readonly string[]>>): Specs[] {
  return names.reduce<Specs[]>((partial, name) => partial.flatMap((specs) => (valuesByName[name] ?? []).map((value) => ({ ...specs, [name]: value }))), [{}]);
}
