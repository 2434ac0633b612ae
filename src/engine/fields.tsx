/**
 * How a FieldDecl appears in the generic pages, by its kind (./fieldKinds): its form control and client
 * validation (the same limits the server checks), its list and detail cell and its filter control.
 */
import type { CSSProperties, ReactNode } from "react";
import type { Rule } from "antd/es/form";
import type { FieldDecl } from "../../common/catalogue";
import { brokenRelation, requiredNow } from "../../common/fieldExtras";
import { uiKindOf, type Translate, type ValueProps } from "./fieldKinds";
import { NO_BREAK, WRAPS } from "./fieldKinds/kind";

export type { Translate } from "./fieldKinds";
export { DATE_FORMAT, fieldOptions } from "./fieldKinds";

/** Whether the field is in the form of this action; virtual fields (e.g. the first account) only where declared. */
export function inForm(field: FieldDecl, action: "add" | "edit"): boolean {
  return field.form === true || field.form === action;
}

/** Client-side rules from the declaration; messages name the field. */
export function fieldRules(field: FieldDecl, t: Translate): Rule[] {
  const kind = uiKindOf(field);
  const rules: Rule[] = [];
  if (field.required) {
    const message = t(kind.picked ? "validation.select_required" : "validation.required", { label: t(field.label) });
    rules.push({
      required: true,
      message,
      // a number or a picked id is not a string: a plain `required` would refuse it, and blank text is empty
      validator: async (_rule, value: unknown) => {
        const empty = value === undefined || value === null || (typeof value === "string" && value.trim() === "") || (Array.isArray(value) && value.length === 0);
        if (empty) throw new Error(message);
      },
    });
  }
  return [...rules, ...relationRules(field, t), ...(kind.rules?.(field, t) ?? [])];
}

/**
 * Rules between fields of one record (common/fieldExtras.ts): required while another field holds a value (and
 * marked so), a number not below another field. The server checks the same (server/engine/fieldRelations.ts).
 */
function relationRules(field: FieldDecl, t: Translate): Rule[] {
  const rules: Rule[] = [];
  if (field.requiredWhen) {
    const uiKind = uiKindOf(field);
    const message = t(uiKind.picked ? "validation.select_required" : "validation.required", { label: t(field.label) });
    rules.push(({ getFieldValue }) => ({
      required: requiredNow(field, getFieldValue),
      message,
      validator: async (_rule, value: unknown) => {
        if (brokenRelation([{ ...field, atLeast: undefined }], (name) => (name === field.name ? value : getFieldValue(name)))) throw new Error(message);
      },
    }));
  }
  const atLeast = field.atLeast;
  if (atLeast) {
    rules.push(({ getFieldValue }) => ({
      validator: async (_rule, value: unknown) => {
        if (brokenRelation([{ ...field, requiredWhen: undefined }], (name) => (name === field.name ? value : getFieldValue(name)))) throw new Error(t(atLeast.message));
      },
    }));
  }
  return rules;
}

/** Value conversions between the API form of a field and its control. */
export function valueProps(field: FieldDecl): ValueProps {
  return uiKindOf(field).valueProps?.(field) ?? {};
}

/** The form control of a field. */
export function FieldControl({ field, ...rest }: { field: FieldDecl; t: Translate; id?: string; "data-testid"?: string; value?: unknown; onChange?: (value: unknown) => void }): ReactNode {
  const { Control } = uiKindOf(field);
  return <Control field={field} {...rest} />;
}

/** A value as the list and detail pages show it; `record` carries the names of its references. */
export function displayValue(field: FieldDecl, value: unknown, t: Translate, record?: Record<string, unknown>): ReactNode {
  if (value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0)) return "-";
  return uiKindOf(field).display(field, value, t, record);
}

/** The layout of a value in a list cell (set on the value: browsers ignore widths on table cells). */
export function cellStyle(field: FieldDecl): CSSProperties {
  // a masked account reads as one number
  if (field.mask) return NO_BREAK;
  return uiKindOf(field).cellStyle ?? WRAPS;
}

/** The filter control of a list filter field; `block` fills the width (the folded filters of a phone). */
export function FilterControl({ field, block, ...rest }: { field: FieldDecl; t: Translate; block?: boolean; id?: string; value?: unknown; onChange?: (value: unknown) => void }): ReactNode {
  const kind = uiKindOf(field);
  const Filter = kind.Filter ?? kind.Control;
  return <Filter field={field} block={block ?? false} {...rest} />;
}

/** Filter form values in the form the URL keeps (day ranges as [start, end] strings, references as ids). */
export function filterValueProps(field: FieldDecl): ValueProps {
  const kind = uiKindOf(field);
  return kind.filterValueProps?.(field) ?? (field.type === "ref" ? valueProps(field) : {});
}
