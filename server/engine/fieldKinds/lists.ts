/**
 * Kinds holding several values: images in order (a goods item's pictures), short texts (a goods item's spec names:
 * 尺码, 颜色) and a record of a value per name (a SKU's spec values: {"尺码": "130", "颜色": "藏青"}). None is a list
 * filter; lists and details carry them as JSON.
 */
import { z } from "zod";
import type { FieldDecl } from "../../../common/catalogue";
import { isImageUrl } from "../../../common/fieldRules";
import { diyBlocks, MAX_DIY_BLOCKS } from "../../../common/shopDiy";
import { homeSections, MAX_HOME_SECTIONS } from "../../../common/siteHome";
import { MAX_SPEC_NAMES, specGroupsProblem, specGroupsText, type SpecGroup } from "../../../common/specs";
import type { ServerFieldKind } from "./kind";

/** the most images a field holds unless it says (`max`: a count for this kind) */
export const DEFAULT_MAX_IMAGES = 9;
/** the most texts a `strings` field holds, and the most names a `specs` value has */
export const MAX_LIST_TEXTS = 5;
/** a spec's name or value, at most this many characters unless the field says (`max`) */
export const DEFAULT_SHORT_TEXT = 20;

const shortText = (field: FieldDecl) =>
  z
    .string({ error: "text" })
    .trim()
    .min(1, { error: "required" })
    .max(field.max ?? DEFAULT_SHORT_TEXT, { error: "too_long" });

export const imagesKind: ServerFieldKind = {
  value: (field) =>
    z
      .array(z.string({ error: "image" }).trim().refine(isImageUrl, { error: "image" }), { error: "image" })
      .max(field.max ?? DEFAULT_MAX_IMAGES, { error: "over_count" })
      // each image once, in the order given
      .transform((urls) => [...new Set(urls)]),
  column: (field) => `varchar(${JSON.stringify(field.name)}, { length: 500 }).array()`,
  filterValue: () => undefined,
  exportCell: (_field, value) => (Array.isArray(value) ? value.join("\n") : null),
  maxItems: (field) => field.max ?? DEFAULT_MAX_IMAGES,
};

export const stringsKind: ServerFieldKind = {
  value: (field) =>
    z
      .array(shortText(field), { error: "text" })
      .max(MAX_LIST_TEXTS, { error: "over_count" })
      .refine((texts) => new Set(texts).size === texts.length, { error: "duplicate" }),
  column: (field) => `varchar(${JSON.stringify(field.name)}, { length: ${field.max ?? DEFAULT_SHORT_TEXT} }).array()`,
  filterValue: () => undefined,
  exportCell: (_field, value) => (Array.isArray(value) ? value.join(" / ") : null),
  maxItems: () => MAX_LIST_TEXTS,
};

export const specsKind: ServerFieldKind = {
  value: (field) =>
    z
      .record(shortText(field), shortText(field), { error: "text" })
      .refine((specs) => Object.keys(specs).length >= 1 && Object.keys(specs).length <= MAX_LIST_TEXTS, { error: "over_count" }),
  column: (field) => `jsonb(${JSON.stringify(field.name)}).$type<Record<string, string>>()`,
  filterValue: () => undefined,
  maxItems: () => MAX_LIST_TEXTS,
  exportCell: (_field, value) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.entries(value as Record<string, string>)
          .map(([name, v]) => `${name}: ${v}`)
          .join(" / ")
      : null,
};

/**
 * Spec names, each with the values offered for it (a spec template): 1 to MAX_SPEC_NAMES names, each once, each
 * with 1 to MAX_SPEC_VALUES values, each once (common/specs.ts); names and values trimmed, at most `max` characters.
 */
export const specgroupsKind: ServerFieldKind = {
  value: (field) =>
    z
      .array(
        z.object(
          {
            name: z.string({ error: "text" }).trim(),
            values: z.array(z.string({ error: "text" }).trim(), { error: "text" }),
          },
          { error: "text" },
        ),
        { error: "text" },
      )
      .superRefine((groups, ctx) => {
        const problem = specGroupsProblem(groups, field.max ?? DEFAULT_SHORT_TEXT);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      // stored with exactly these keys, whatever else was sent
      .transform((groups): SpecGroup[] => groups.map((g) => ({ name: g.name, values: g.values }))),
  column: (field) => `jsonb(${JSON.stringify(field.name)}).$type<{ name: string; values: string[] }[]>()`,
  filterValue: () => undefined,
  maxItems: () => MAX_SPEC_NAMES,
  exportCell: (_field, value) => (Array.isArray(value) ? specGroupsText(value as SpecGroup[]) : null),
};

/**
 * A DIY page's blocks (common/shopDiy.ts): at most MAX_DIY_BLOCKS, each complete for its kind, stored with exactly its
 * kind's keys; a block at fault is named by its number (the issue's `index`).
 */
export const blocksKind: ServerFieldKind = {
  value: () =>
    z.unknown().transform((value, ctx) => {
      const checked = diyBlocks(value);
      if ("blocks" in checked) return checked.blocks;
      ctx.addIssue({ code: "custom", message: checked.problem === "over_count" ? "over_count" : "blocks", params: checked.problem === "block" ? { index: checked.index } : undefined });
      return z.NEVER;
    }),
  column: (field) => `jsonb(${JSON.stringify(field.name)}).$type<Record<string, unknown>[]>()`,
  filterValue: () => undefined,
  maxItems: () => MAX_DIY_BLOCKS,
  exportCell: (_field, value) => (Array.isArray(value) ? value.length : null),
};

/**
 * The public home page's sections (common/siteHome.ts): at most MAX_HOME_SECTIONS, each with its heading, stored with
 * exactly its three keys; a section at fault is named by its number (the issue's `index`).
 */
export const sectionsKind: ServerFieldKind = {
  value: () =>
    z.unknown().transform((value, ctx) => {
      const checked = homeSections(value);
      if ("sections" in checked) return checked.sections;
      ctx.addIssue({ code: "custom", message: checked.problem === "over_count" ? "over_count" : "sections", params: checked.problem === "section" ? { index: checked.index } : undefined });
      return z.NEVER;
    }),
  column: (field) => `jsonb(${JSON.stringify(field.name)}).$type<{ title: string; text: string; image: string }[]>()`,
  filterValue: () => undefined,
  maxItems: () => MAX_HOME_SECTIONS,
  exportCell: (_field, value) => (Array.isArray(value) ? value.length : null),
};

/**
 * A document only the server writes (an audit entry's change): never taken from a caller, answered as it is,
 * written into a spreadsheet cell as its JSON.
 */
export const jsonKind: ServerFieldKind = {
  value: () => z.never({ error: "text" }),
  column: (field) => `jsonb(${JSON.stringify(field.name)}).$type<Record<string, unknown>>()`,
  filterValue: () => undefined,
  exportCell: (_field, value) => (value === null || value === undefined ? null : JSON.stringify(value)),
};
