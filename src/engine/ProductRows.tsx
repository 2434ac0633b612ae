/**
 * Child rows built as combinations (ChildDecl.product): the values typed for each of the parent's names (a goods
 * item's 尺码: 120, 130, 140; 颜色: 藏青, 白色) give one row per combination, each row's values field holding its own
 * (a SKU's {"尺码": "130", "颜色": "藏青"}). Rows already there for a combination keep what they had (price, stock,
 * barcode); the values start from the rows the record has.
 */
import { Alert, App as AntdApp, Button, Form, Select, Space, Table, Typography, type FormListFieldData } from "antd";
import { AppstoreAddOutlined, DeleteOutlined } from "@ant-design/icons";
import { useList, usePermissions, useTranslation, type BaseRecord } from "@refinedev/core";
import { useEffect, useState } from "react";
import type { ChildDecl, FieldDecl } from "../../common/catalogue";
import { hasAnyRole } from "../../common/roleKeys";
import { entityByName } from "../../resources.config";
import { FieldControl, fieldRules, valueProps, type Translate } from "./fields";
import { combinations, type SpecGroup, type Specs } from "../../common/specs";

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

/** a template's groups as they were saved ([{name, values}]), with empty names and values left out */
function templateGroups(value: unknown): SpecGroup[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((group: unknown) => {
    const { name, values } = (group ?? {}) as { name?: unknown; values?: unknown };
    if (typeof name !== "string" || !name.trim() || !Array.isArray(values)) return [];
    const kept = [...new Set(values.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim()))];
    return kept.length > 0 ? [{ name: name.trim(), values: kept }] : [];
  });
}

/**
 * The rows for the combinations of `values`, a row already there for a combination kept as it is (its price, stock,
 * barcode), and the rows given up that had a price typed in.
 */
export function productRows(
  names: readonly string[],
  values: Readonly<Record<string, readonly string[]>>,
  rows: readonly RowValues[],
  field: string,
  defaults: RowValues,
  max: number,
): { rows: RowValues[]; priced: number } {
  const next = combinations(names, values)
    .slice(0, max)
    .map((specs) => rows.find((row) => sameSpecs((row?.[field] ?? {}) as Specs, specs)) ?? { ...defaults, [field]: specs });
  const priced = rows.filter((row) => row && !next.includes(row) && row.price !== undefined && row.price !== null && row.price !== "").length;
  return { rows: next, priced };
}

type TemplateDecl = NonNullable<NonNullable<ChildDecl["product"]>["template"]>;

/**
 * "Start from a template": the enabled records of the declared template entity, offered when the user may list them
 * and there is one; choosing one hands its names and values to `onChoose`.
 */
function TemplatePicker({ decl, template, onChoose }: { decl: ChildDecl; template: TemplateDecl; onChoose: (groups: SpecGroup[]) => void }) {
  const { translate } = useTranslation();
  const { data: roles } = usePermissions<string[]>({});
  const entity = entityByName(template.entity);
  const allowed = Boolean(entity && roles && hasAnyRole(roles, entity.roles.list ?? []));
  const hasStatus = entity?.fields.some((f) => f.name === "status");
  const { result, query } = useList<BaseRecord>({
    resource: template.entity,
    filters: hasStatus ? [{ field: "status", operator: "eq", value: "1" }] : [],
    pagination: { currentPage: 1, pageSize: 100 },
    queryOptions: { enabled: allowed },
    errorNotification: false,
  });
  const records = (result.data ?? []).filter((record) => templateGroups(record[template.field]).length > 0);
  if (!entity || !allowed || query.isLoading || records.length === 0) return null;
  return (
    <div style={{ marginBottom: 8 }}>
      <Typography.Text>{translate("retail.product.template")}</Typography.Text>
      <Select
        value={null}
        style={{ width: "100%", marginTop: 4 }}
        placeholder={translate("retail.product.template_hint")}
        aria-label={translate("retail.product.template")}
        showSearch
        optionFilterProp="label"
        options={records.map((record) => ({ value: record.id!, label: String(record[entity.titleField] ?? record.id) }))}
        onChange={(id) => {
          const chosen = records.find((record) => record.id === id);
          if (chosen) onChoose(templateGroups(chosen[template.field]));
        }}
        data-testid={`product-template-${decl.name}`}
      />
    </div>
  );
}

export function ProductRowsBuilder({ decl, defaults, max }: { decl: ChildDecl; defaults: RowValues; max: number }) {
  const { translate } = useTranslation();
  const { modal } = AntdApp.useApp();
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
    form.setFieldValue(decl.name, productRows(names, values, rows, product.values, defaults, max).rows);
    void form.validateFields([decl.name]).catch(() => undefined);
  };
  // a template's names and values replace the form's, and the rows are built from them at once; rows with a price
  // typed in that no combination keeps are given up only when the user says so
  const startFrom = (groups: SpecGroup[]) => {
    const nextNames = groups.map((g) => g.name);
    const nextValues = Object.fromEntries(groups.map((g) => [g.name, g.values]));
    const next = productRows(nextNames, nextValues, rows, product.values, defaults, max);
    const apply = () => {
      setValues(nextValues);
      form.setFieldValue(product.names, nextNames);
      form.setFieldValue(decl.name, next.rows);
      void form.validateFields([product.names, decl.name]).catch(() => undefined);
    };
    if (next.priced === 0) return apply();
    modal.confirm({
      type: "warning",
      title: translate("retail.product.template_replace"),
      content: translate("retail.product.template_replace_hint", { count: next.priced }),
      okText: translate("retail.product.template_replace_ok"),
      okButtonProps: { danger: true, ...{ "data-testid": `product-template-confirm-${decl.name}` } },
      onOk: apply,
    });
  };
  const picker = product.template ? <TemplatePicker decl={decl} template={product.template} onChoose={startFrom} /> : null;
  if (names.length === 0) {
    return (
      <>
        {picker}
        <Alert type="info" showIcon message={translate("retail.product.names_first")} style={{ marginBottom: 8 }} />
      </>
    );
  }
  return (
    <div data-testid={`product-${decl.name}`} style={{ marginBottom: 12 }}>
      {picker}
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
