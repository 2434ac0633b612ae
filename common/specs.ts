/** A goods item's specs: its SKUs are the combinations of one value per spec name (尺码 130 · 颜色 藏青). */
export type Specs = Record<string, string>;

/** Every combination of one value per name, in the order of the names and of their values. */
export function combinations(names: readonly string[], valuesByName: Readonly<Record<string, readonly string[]>>): Specs[] {
  return names.reduce<Specs[]>((partial, name) => partial.flatMap((specs) => (valuesByName[name] ?? []).map((value) => ({ ...specs, [name]: value }))), [{}]);
}

/** A spec name and the values offered for it: a spec template's line ({"name": "尺码", "values": ["120", "130"]}). */
export interface SpecGroup {
  name: string;
  values: string[];
}

/** the most spec names a template holds */
export const MAX_SPEC_NAMES = 10;
/** the most values a spec name of a template offers */
export const MAX_SPEC_VALUES = 50;

/**
 * What is wrong with a template's specs, as a field message code (api.validation.{code}), or null: 1 to
 * MAX_SPEC_NAMES names, each once; each with 1 to MAX_SPEC_VALUES values, each once. Names and values are trimmed
 * texts of 1 to `maxLength` characters.
 */
export function specGroupsProblem(groups: readonly SpecGroup[], maxLength: number): "required" | "too_long" | "over_count" | "duplicate" | "spec_values" | null {
  if (groups.length === 0) return "required";
  if (groups.length > MAX_SPEC_NAMES) return "over_count";
  const texts = groups.flatMap((g) => [g.name, ...g.values]);
  if (texts.some((text) => text.length === 0)) return "required";
  if (texts.some((text) => text.length > maxLength)) return "too_long";
  if (new Set(groups.map((g) => g.name)).size !== groups.length) return "duplicate";
  if (groups.some((g) => g.values.length === 0 || g.values.length > MAX_SPEC_VALUES || new Set(g.values).size !== g.values.length)) return "spec_values";
  return null;
}

/** A template's specs as one line of text: 尺码: 120 / 130 · 颜色: 藏青 / 白色. */
export function specGroupsText(groups: readonly SpecGroup[]): string {
  return groups.map((g) => `${g.name}: ${g.values.join(" / ")}`).join(" · ");
}
