/**
 * A list row as a phone shows it (under 992 px), compact: on its first line the title, the record's number and
 * the text field listed right after the title (a student's number, an account's name), the status at the right;
 * the other listed fields that hold a value in two dense columns, label beside value, a long one across both;
 * the row's buttons on one line, the pages that would not fit on it folded into a "more" menu.
 */
import { EllipsisOutlined } from "@ant-design/icons";
import { Button, Card, Dropdown, theme, Typography } from "antd";
import { Fragment, type ReactNode } from "react";
import type { FieldDecl } from "../../common/catalogue";
import { timeText } from "../../common/businessTime";
import { displayValue, type Translate } from "./fields";

/** A button of the card's row: shown as is, or, when it opens a page, folded into the "more" menu. */
export interface CardButton {
  key: string;
  /** the button itself (it may ask for a confirmation first) */
  node: ReactNode;
  /** its text (it has an icon too when `icon`) */
  label: string;
  icon?: boolean;
  /** the page the button opens: it may fold into the menu */
  page?: { open: () => void; testId?: string };
}

/** The width the buttons' line may fill (a 390 px phone's card), and a small button's padding and icon. */
const BUTTONS_WIDTH = 300;
const BUTTON_PADDING = 16;
const BUTTON_ICON = 20;
const BUTTON_GAP = 8;
/** A Latin letter's width at the buttons' size. */
const UNIT_WIDTH = 7;

/** Roughly how wide a text runs, in widths of a Latin letter (a Chinese character counts two). */
function textUnits(text: string): number {
  let units = 0;
  for (const char of text) units += char.codePointAt(0)! >= 0x2e80 ? 2 : 1;
  return units;
}

/** A label and value wider than this (in Latin letters) take both columns: about half a 390 px card. */
const HALF_WIDTH_UNITS = 19;
/** The title's companion joins the first line when both fit beside the status (in Latin letters). */
const TITLE_LINE_UNITS = 24;

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

export interface RecordCardProps {
  record: Record<string, unknown>;
  titleField?: FieldDecl;
  statusField?: FieldDecl;
  /** the listed fields in list order (the title and status among them or not) */
  fields: FieldDecl[];
  /** a field's value as the list shows it (a status switch for who may edit) */
  cell: (field: FieldDecl, value: unknown) => ReactNode;
  buttons: CardButton[];
  t: Translate;
}

export function RecordCard({ record, titleField, statusField, fields, cell, buttons, t }: RecordCardProps) {
  const { token } = theme.useToken();
  // the record's number and its key text stand beside its title, not on lines of their own
  const idField = fields.find((f) => f.name === "id");
  const titleIndex = titleField ? fields.indexOf(titleField) : -1;
  const next = titleIndex >= 0 ? fields.slice(titleIndex + 1).find((f) => f !== statusField && f !== idField && !isEmpty(record[f.name])) : undefined;
  const titleUnits = titleField ? textUnits(String(record[titleField.name] ?? "")) + (idField ? String(record.id).length + 2 : 0) : 0;
  const keyField = next?.type === "string" && titleUnits + textUnits(String(record[next.name])) <= TITLE_LINE_UNITS ? next : undefined;
  // a field without a value says nothing on a card: the record's page shows it
  const rest = fields.filter((f) => f !== titleField && f !== statusField && f !== idField && f !== keyField && !isEmpty(record[f.name]));
  const width = (f: FieldDecl): number => {
    const value = record[f.name];
    const shown = displayValue(f, value, t, record);
    const option = f.options?.find((o) => o.value === String(value));
    const text = typeof shown === "string" || typeof shown === "number" ? String(shown) : option ? t(option.label) : timeText(value);
    return textUnits(`${t(f.label)}: ${text}`);
  };
  // the half-width fields first, two to a line; the wide ones after them, a line each
  const half = rest.filter((f) => width(f) <= HALF_WIDTH_UNITS);
  const wide = rest.filter((f) => width(f) > HALF_WIDTH_UNITS);
  // the buttons that open a page fold into the menu, in order, once the line would run past the card
  const buttonWidth = (b: CardButton) => BUTTON_PADDING + (b.icon ? BUTTON_ICON : 0) + textUnits(b.label) * UNIT_WIDTH + BUTTON_GAP;
  const pages = buttons.filter((b) => b.page);
  const fits = (candidates: CardButton[]) => candidates.reduce((sum, b) => sum + buttonWidth(b), 0) <= BUTTONS_WIDTH;
  const keep = new Set(buttons.filter((b) => !b.page));
  if (fits(buttons)) pages.forEach((b) => keep.add(b));
  else {
    const more = { key: "more", node: null, label: "", icon: true } satisfies CardButton;
    for (const page of pages) if (fits([...keep, page, more])) keep.add(page);
  }
  const shown = buttons.filter((b) => keep.has(b));
  const folded = buttons.filter((b) => !keep.has(b));

  return (
    <Card size="small" style={{ width: "100%" }} styles={{ body: { padding: "8px 12px" } }} data-testid="record-card">
      {/* the status stays beside the title while both fit, else goes under it whole: a number is never cut for it */}
      <div style={{ display: "flex", flexWrap: "wrap", alignItems: "flex-start", justifyContent: "space-between", gap: "2px 8px" }}>
        <div style={{ flex: "1 1 auto", minWidth: 0, overflowWrap: "anywhere" }}>
          <Typography.Text strong data-testid="record-card-title">
            {titleField ? displayValue(titleField, record[titleField.name], t, record) : `#${String(record.id)}`}
          </Typography.Text>
          {keyField && (
            <Typography.Text type="secondary" data-testid="record-card-key" style={{ marginInlineStart: 8 }}>
              {cell(keyField, record[keyField.name])}
            </Typography.Text>
          )}
          {idField && titleField && (
            <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontSize: 12 }}>
              #{String(record.id)}
            </Typography.Text>
          )}
        </div>
        {statusField && (
          <span data-testid="record-card-status" style={{ flex: "none" }}>
            {cell(statusField, record[statusField.name])}
          </span>
        )}
      </div>
      {rest.length > 0 && (
        <div
          data-testid="record-card-fields"
          style={{ display: "grid", gridTemplateColumns: "repeat(2, minmax(0, 1fr))", columnGap: 12, rowGap: 2, marginTop: 4, fontSize: 13, lineHeight: "20px" }}
        >
          {[...half, ...wide].map((f) => (
            <div key={f.name} style={{ minWidth: 0, overflowWrap: "anywhere", gridColumn: wide.includes(f) ? "1 / -1" : undefined }}>
              <span style={{ color: token.colorTextSecondary }}>{t(f.label)}: </span>
              {cell(f, record[f.name])}
            </div>
          ))}
        </div>
      )}
      {buttons.length > 0 && (
        <div data-testid="record-card-buttons" style={{ display: "flex", flexWrap: "nowrap", gap: 8, marginTop: 8, overflowX: "auto" }}>
          {shown.map((b) => (
            <Fragment key={b.key}>{b.node}</Fragment>
          ))}
          {folded.length > 0 && (
            <Dropdown
              trigger={["click"]}
              menu={{
                items: folded.map((b) => ({ key: b.key, label: <span data-testid={b.page!.testId}>{b.label}</span> })),
                onClick: ({ key }) => folded.find((b) => b.key === key)?.page!.open(),
              }}
            >
              <Button size="small" icon={<EllipsisOutlined />} aria-label={t("common.more")} data-testid="record-card-more" />
            </Dropdown>
          )}
        </div>
      )}
    </Card>
  );
}
