/**
 * A field kind as the SPA shows it: its form control and client rules (the limits the server checks), its list
 * and detail cell, its filter input and the conversions between the API value and the control. One module per
 * kind (./*.tsx); ./index.ts is the registry and ../fields.tsx the helpers the pages call.
 */
import type { CSSProperties, ReactNode } from "react";
import type { FormItemProps } from "antd";
import type { Rule } from "antd/es/form";
import type { FieldDecl } from "../../../common/catalogue";
import { hasAnyRole } from "../../../common/roleKeys";

export type Translate = (key: string, options?: Record<string, unknown>) => string;

export type ValueProps = Pick<FormItemProps, "getValueProps" | "normalize">;

/** What a control gets from its Form.Item (value, onChange, id) and from the page. */
export interface ControlProps {
  field: FieldDecl;
  t: Translate;
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
  "data-testid"?: string;
  /** fills the width (folded filters on a phone) */
  block?: boolean;
}

export interface UiFieldKind {
  /** the form control */
  Control(props: ControlProps): ReactNode;
  /** client rules beyond "required", with messages naming the field */
  rules?(field: FieldDecl, t: Translate): Rule[];
  /** conversions between the API value and the control's value */
  valueProps?(field: FieldDecl): ValueProps;
  /** a value as lists and detail pages show it; `record` holds the names of references */
  display(field: FieldDecl, value: unknown, t: Translate, record?: Record<string, unknown>): ReactNode;
  /** the layout of a list cell: short values never break, free text wraps within a readable width */
  cellStyle?: CSSProperties;
  /** the list filter input (default: the form control for "eq" choices, a text box otherwise) */
  Filter?(props: ControlProps): ReactNode;
  filterValueProps?(field: FieldDecl): ValueProps;
  /** "choose" for pickers, whose required message asks to choose rather than to enter */
  picked?: boolean;
  /** a control laid out over the form's whole width, its label above it (a DIY page's editor beside its preview) */
  wide?: boolean;
}

export const NO_BREAK: CSSProperties = { whiteSpace: "nowrap" };
export const WRAPS: CSSProperties = { minWidth: 64, maxWidth: 280 };
/**
 * A record's name (a school, a student, an activity): as wide as it is up to a few words, then wrapping between
 * words, so that a wide list's figures and states stay in view (in Spanish too) rather than behind its scroll.
 */
export const NAMES: CSSProperties = { width: "max-content", maxWidth: "8em" };

/** The label a field's options give in the user's language. */
export function fieldOptions(field: FieldDecl, t: Translate): { value: string; label: string }[] {
  return (field.options ?? []).map((o) => ({ value: o.value, label: t(o.label) }));
}

/**
 * The options a user holding `roles` is offered in a form or a filter: those the declaration gives to any of them
 * (an option without roles is everyone's), so that nobody is offered a value the server would refuse them.
 */
export function offeredOptions(field: FieldDecl, t: Translate, roles: readonly string[]): { value: string; label: string }[] {
  return (field.options ?? []).filter((o) => !o.roles || hasAnyRole(roles, o.roles)).map((o) => ({ value: o.value, label: t(o.label) }));
}
