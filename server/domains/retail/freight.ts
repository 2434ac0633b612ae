/**
 * Freight from express templates (catalogue/expressTemplates.ts): an order's goods are grouped by the template each
 * names (none: sent free); each group is charged by the rule covering the receiver's province (the rule naming it,
 * else the template's rule naming none), free once the group's goods reach the rule's amount or count, else the
 * first units' price and each further units' price begun. The checkout's quote (h5shopfreight) and the order
 * (h5shoporder) charge alike; a template's rules are checked when saved: a province in one rule at most, one rule at
 * most naming none.
 */
import { asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { expressRules, expressTemplates } from "../../db/schema";
import type { EntityHooks, Row } from "../../engine/hooks";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationContext } from "../../protocol/registry";

export interface FreightRule {
  regions: readonly string[] | null;
  first_units: number;
  /** fen */
  first_price: number;
  extra_units: number;
  extra_price: number;
  free_amount: number | null;
  free_count: number | null;
}

export interface FreightTemplate {
  id: number;
  charge_by: string;
  rules: readonly FreightRule[];
}

/** A line of an order as its freight sees it. */
export interface FreightLine {
  title: string;
  templateId: number | null;
  qty: number;
  /** grams a piece */
  weight: number;
  /** fen, the line's price times its quantity */
  amount: number;
}

/** The freight of the lines sent to `province` (fen), or the first line whose template covers no rule there. */
export function freightOf(lines: readonly FreightLine[], templates: ReadonlyMap<number, FreightTemplate>, province: string): { freight: number } | { uncovered: FreightLine } {
  const groups = new Map<number, FreightLine[]>();
  for (const line of lines) {
    if (line.templateId === null) continue;
    groups.set(line.templateId, [...(groups.get(line.templateId) ?? []), line]);
  }
  let freight = 0;
  for (const [templateId, group] of groups) {
    const template = templates.get(templateId);
    const rule = template?.rules.find((r) => r.regions?.includes(province)) ?? template?.rules.find((r) => !r.regions || r.regions.length === 0);
    if (!template || !rule) return { uncovered: group[0] };
    const count = group.reduce((sum, l) => sum + l.qty, 0);
    const amount = group.reduce((sum, l) => sum + l.amount, 0);
    if ((rule.free_amount !== null && amount >= rule.free_amount) || (rule.free_count !== null && count >= rule.free_count)) continue;
    const units = template.charge_by === "weight" ? group.reduce((sum, l) => sum + l.weight * l.qty, 0) : count;
    const extra = units > rule.first_units ? Math.ceil((units - rule.first_units) / rule.extra_units) : 0;
    freight += rule.first_price + extra * rule.extra_price;
  }
  return { freight };
}

/** The templates of these ids with their rules, in two reads. */
export async function loadFreightTemplates(db: DbOrTx, ids: readonly number[]): Promise<Map<number, FreightTemplate>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const [templates, rules] = await Promise.all([
    db.select({ id: expressTemplates.id, charge_by: expressTemplates.charge_by }).from(expressTemplates).where(inArray(expressTemplates.id, unique)),
    db.select().from(expressRules).where(inArray(expressRules.template_id, unique)).orderBy(asc(expressRules.sort), asc(expressRules.id)),
  ]);
  return new Map(templates.map((t) => [t.id, { ...t, rules: rules.filter((r) => r.template_id === t.id) }]));
}

/** A template's rules as saved: each province in one rule at most, and one rule at most for every other province. */
async function checkRules(ctx: OperationContext, tx: DbOrTx, row: Row): Promise<void> {
  const rules = await tx.select({ regions: expressRules.regions }).from(expressRules).where(eq(expressRules.template_id, Number(row.id))).orderBy(asc(expressRules.sort), asc(expressRules.id));
  const ruleOf = new Map<string, number>();
  let elsewhere: number | undefined;
  rules.forEach((rule, i) => {
    const refuse = (key: string, params: Record<string, string | number>) => new ApiFailure(key, params, { errors: [{ field: `rules.${i}.regions`, message: ctx.t(key, params) }] });
    if (!rule.regions || rule.regions.length === 0) {
      if (elsewhere !== undefined) throw refuse("retail.express_tpl.elsewhere_twice", { row: i + 1, other: elsewhere + 1 });
      elsewhere = i;
      return;
    }
    for (const code of rule.regions) {
      const other = ruleOf.get(code);
      if (other !== undefined) throw refuse("retail.express_tpl.region_twice", { row: i + 1, other: other + 1, province: ctx.t(`retail.province.${code}`) });
      ruleOf.set(code, i);
    }
  });
}

export const expressTemplateHooks: EntityHooks = {
  afterAdd: (ctx, tx, row) => checkRules(ctx, tx, row),
  afterEdit: (ctx, tx, _before, after) => checkRules(ctx, tx, after),
};
