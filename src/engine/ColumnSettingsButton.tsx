/**
 * The table's column settings: a button opening the list's columns, each with a box that shows or hides it and
 * buttons that move it up or down, and a reset to the declared columns. What the user chooses is saved per user
 * and list (listColumns.ts) at once.
 */
import { Button, Checkbox, Popover, Space, Tooltip, Typography } from "antd";
import { ArrowDownOutlined, ArrowUpOutlined, SettingOutlined } from "@ant-design/icons";
import { useState } from "react";
import type { FieldDecl } from "../../common/catalogue";
import type { Translate } from "./fields";
import { arrangeColumns, type ColumnSettings } from "./listColumns";

interface Props {
  fields: readonly FieldDecl[];
  settings: ColumnSettings | undefined;
  onChange: (settings: ColumnSettings | undefined) => void;
  t: Translate;
}

export function ColumnSettingsButton({ fields, settings, onChange, t }: Props) {
  const [open, setOpen] = useState(false);
  const columns = arrangeColumns(fields, settings);
  const shownCount = columns.filter((column) => column.shown).length;
  const save = (next: { field: FieldDecl; shown: boolean }[]) =>
    onChange({ order: next.map((column) => column.field.name), hidden: next.filter((column) => !column.shown).map((column) => column.field.name) });
  const move = (from: number, to: number) => {
    const next = [...columns];
    const [column] = next.splice(from, 1);
    next.splice(to, 0, column);
    save(next);
  };
  const content = (
    <div data-testid="column-settings-panel" style={{ minWidth: 220, maxHeight: 360, overflowY: "auto" }}>
      {columns.map(({ field, shown }, i) => {
        const label = t(field.label);
        return (
          <div key={field.name} data-testid={`column-setting-${field.name}`} style={{ display: "flex", alignItems: "center", gap: 8, padding: "2px 0" }}>
            <Checkbox
              checked={shown}
              // the last column shown stays: a table needs one
              disabled={shown && shownCount === 1}
              onChange={(e) => save(columns.map((column, j) => (j === i ? { ...column, shown: e.target.checked } : column)))}
              style={{ flex: 1 }}
            >
              {label}
            </Checkbox>
            <Button size="small" type="text" icon={<ArrowUpOutlined />} aria-label={t("crud.column_up", { column: label })} disabled={i === 0} onClick={() => move(i, i - 1)} />
            <Button
              size="small"
              type="text"
              icon={<ArrowDownOutlined />}
              aria-label={t("crud.column_down", { column: label })}
              disabled={i === columns.length - 1}
              onClick={() => move(i, i + 1)}
            />
          </div>
        );
      })}
    </div>
  );
  const title = (
    <Space style={{ display: "flex", justifyContent: "space-between" }}>
      <Typography.Text strong>{t("crud.columns")}</Typography.Text>
      <Button size="small" type="link" disabled={!settings} onClick={() => onChange(undefined)} data-testid="column-settings-reset">
        {t("crud.columns_reset")}
      </Button>
    </Space>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title={title} content={content} open={open} onOpenChange={setOpen}>
      {/* the button's name while the panel, which says it, is closed */}
      <Tooltip title={t("crud.columns")} {...(open ? { open: false } : {})}>
        <Button icon={<SettingOutlined />} aria-label={t("crud.columns")} data-testid="column-settings" />
      </Tooltip>
    </Popover>
  );
}
