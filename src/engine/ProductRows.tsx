/**
 * Child rows built as combinations (ChildDecl.product): the values typed for each of the parent's names (a goods
 * item's 尺码: 120, 130, 140; 颜色: 藏青, 白色) give one row per combination, each row's values field holding its own
 * (a SKU's {"尺码": "130", "颜色": "藏青"}). Rows already there for a combination keep what they had (price, stock,
 * barcode); the values start from the rows the record has.
 */
import { Alert, Button, Form, Select, Space, Table, Typography, type FormListFieldData } from "antd";
import { AppstoreAddOutlined, DeleteOutlined } from "@ant-design/icons";
import { useTranslation } from "@refinedev/core";
import { useEffect, useState } from "react";
import type { ChildDecl, FieldDecl } from "../../common/catalogue";
import { FieldControl, fieldRules, valueProps, type Translate } from "./fields";
import { combinations, type Specs } from "../../common/specs";

type RowValues = Record<string, unknown>;

const sameSpecs = (a: Specs, b: Specs) => Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/** The values each name has among the rows, in the order they first appear. */
function valuesOfRows(names: readonly string[], rows: readonly RowValues[], field: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const name of names) out[name] = [];
  for (const row of rows) {
    const specs = (row?.[field] ?? {}) as Specs;
    for (const name of names) if (specs[name] && !out[name].includes(specs[name])) out[name].push(specs[name]);
  }
  return out;
}

export function ProductRowsBuilder({ decl, defaults, max }: { decl: ChildDecl; defaults: RowValues; max: number }) {
  const { translate } = useTranslation();
  const form = Form.useFormInstance();
  const product = decl.product!;
  const names = ((Form.useWatch(product.names, form) as string[] | undefined) ?? []).filter(Boolean);
  const rows = (Form.useWatch(decl.name, form) as RowValues[] | undefined) ?? [];
  const [values, setValues] = useState<Record<string, string[]>>({});
  // the values start from the record's rows once they are loaded, and follow the names as they change
  const namesKey = names.join("\u0000");
  useEffect(() => {
    setValues((current) => {
      const fromRows = valuesOfRows(names, rows, product.values);
      return Object.fromEntries(names.map((name) => [name, current[name]?.length ? current[name] : fromRows[name]]));
    });
  }, [namesKey, rows.length]);
  const built = combinations(names, values);
  const build = () => {
    const next = built.slice(0, max).map((specs) => rows.find((row) => sameSpecs((row?.[product.values] ?? {}) as Specs, specs)) ?? { ...defaults, [product.values]: specs });
    form.setFieldValue(decl.name, next);
    void form.validateFields([decl.name]).catch(() => undefined);
  };
  if (names.length === 0) return <Alert type="info" showIcon message={translate("retail.product.names_first")} style={{ marginBottom: 8 }} />;
  return (
    <div data-testid={`product-${decl.name}`} style={{ marginBottom: 12 }}>
      {names.map((name) => (
        <div key={name} style={{ marginBottom: 8 }}>
          <Typography.Text>{translate("retail.product.values", { name })}</Typography.Text>
          <Select
            mode="tags"
            open={false}
            value={values[name] ?? []}
            onChange={(typed: string[]) => setValues({ ...values, [name]: [...new Set(typed.map((v) => v.trim()).filter(Boolean))] })}
            tokenSeparators={[",", "，", "、"]}
            placeholder={translate("retail.product.values_hint")}
            data-testid={`product-values-${name}`}
            style={{ width: "100%", marginTop: 4 }}
          />
        </div>
      ))}
      <Space wrap>
        <Button icon={<AppstoreAddOutlined />} onClick={build} disabled={built.length === 0} data-testid={`product-build-${decl.name}`}>
          {translate("retail.product.build")}
        </Button>
        <Typography.Text type="secondary">
          {translate("retail.product.count", { count: Math.min(built.length, max) })} · {translate("retail.product.build_hint")}
        </Typography.Text>
      </Space>
    </div>
  );
}

/** a cell's width by the kind of its field: the combination's tags, an amount, a count, a code, an image's address */
const CELL_WIDTHS: Partial<Record<FieldDecl["type"], number>> = { specs: 170, money: 120, int: 100, string: 160, image: 220 };

/** The built rows as a table, a row to a line (a phone scrolls it sideways): the combination, then the fields to fill in. */
export function ProductRowsTable({ decl, fields, items, remove }: { decl: ChildDecl; fields: readonly FieldDecl[]; items: FormListFieldData[]; remove: (index: number) => void }) {
  const { translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  if (items.length === 0) return null;
  // no width of its own (so a wide table never widens the page), the form column's at least: it scrolls within it
  return (
    <div style={{ width: 0, minWidth: "100%", overflowX: "auto" }}>
      <Table<FormListFieldData>
        size="small"
        rowKey="key"
        dataSource={items}
        pagination={false}
        scroll={{ x: "max-content" }}
        style={{ marginBottom: 8 }}
        data-testid={`product-rows-${decl.name}`}
        columns={[
          ...fields.map((f) => ({
            key: f.name,
            title: translate(f.label),
            width: CELL_WIDTHS[f.type] ?? 160,
            render: (_: unknown, item: FormListFieldData) => (
              <Form.Item name={[item.name, f.name]} rules={fieldRules(f, t)} style={{ margin: 0, width: CELL_WIDTHS[f.type] ?? 160 }} {...valueProps(f)}>
                <FieldControl field={f} t={t} />
              </Form.Item>
            ),
          })),
          {
            key: "remove",
            width: 48,
            render: (_: unknown, item: FormListFieldData) => (
              <Button type="text" danger icon={<DeleteOutlined />} aria-label={translate("crud.remove_row")} onClick={() => remove(item.name)} data-testid={`child-remove-${decl.name}-${item.name}`} />
            ),
          },
        ]}
      />
    </div>
  );
}
