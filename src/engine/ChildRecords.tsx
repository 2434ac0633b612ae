/**
 * Child records (common/catalogue.ts ChildDecl) in the generic pages: edited as rows inside the parent's form
 * (added, removed, the total they give kept in view) and shown as a table on its detail page; and the records of
 * other entities that point at a record (RelatedDecl), listed under its details.
 */
import { Button, Card, Empty, Form, Modal, Select, Space, Table, Typography, type TableColumnsType } from "antd";
import { DeleteOutlined, ImportOutlined, PlusOutlined } from "@ant-design/icons";
import { useList, usePermissions, useTranslation, type BaseRecord } from "@refinedev/core";
import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import type { ChildDecl, EntityDecl, FieldDecl, RelatedDecl } from "../../common/catalogue";
import { hasAnyRole } from "../../common/roleKeys";
import { fenToYuan, formatNumber, formatYuan, yuanToFen } from "../../common/money";
import type { ListTabs } from "../../common/listAnswer";
import { entityByName } from "../../resources.config";
import { CopyChildRowsButton } from "./CopyChildRows";
import { ActionButton, actionAllowed, relatedAnchor, useEntityActions } from "./EntityActions";
import { displayValue, FieldControl, fieldRules, inForm, valueProps, type Translate } from "./fields";
import { ProductRowsBuilder, ProductRowsTable } from "./ProductRows";
import { ALL_STATES, StateTabs } from "./StateTabs";

/** related records shown a page at a time */
const RELATED_PAGE_SIZE = 10;

function childEntity(decl: ChildDecl): EntityDecl {
  const entity = entityByName(decl.entity);
  if (!entity) throw new Error(`no entity ${decl.entity}`);
  return entity;
}

/** The rows' total of the declared money field (the rows `when` selects), as the language writes money. */
function rowsTotal(decl: ChildDecl, rows: readonly Record<string, unknown>[] | undefined, language: string): string {
  const total = decl.total!;
  const fen = (rows ?? [])
    .filter((row) => row && Object.entries(total.when ?? {}).every(([field, value]) => String(row[field] ?? "") === value))
    .reduce((sum, row) => sum + (yuanToFen(String(row[total.field] ?? "0")) ?? 0), 0);
  return formatYuan(fenToYuan(fen), language);
}

/** The child rows of a parent's form: one line of fields per row, wrapping on a phone. */
export function ChildRowsEditor({ decl }: { decl: ChildDecl }) {
  const { translate, getLocale } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const entity = childEntity(decl);
  const fields = entity.fields.filter((f) => inForm(f, "add"));
  const form = Form.useFormInstance();
  const rows = Form.useWatch(decl.name, form) as Record<string, unknown>[] | undefined;
  const defaults = Object.fromEntries(fields.filter((f) => f.default !== undefined).map((f) => [f.name, f.default]));
  return (
    <Form.Item label={translate(decl.label)} required={(decl.min ?? 0) > 0}>
      <Form.List
        name={decl.name}
        rules={[
          {
            validator: async (_rule, value: unknown[] | undefined) => {
              const count = value?.length ?? 0;
              if (count < (decl.min ?? 0) || count > (decl.max ?? 50)) throw new Error(translate("crud.rows_between", { label: translate(decl.label), min: decl.min ?? 0, max: decl.max ?? 50 }));
            },
          },
        ]}
      >
        {(items, { add, remove }, { errors }) => (
          <div data-testid={`children-${decl.name}`}>
            {decl.product && <ProductRowsBuilder decl={decl} defaults={defaults} max={decl.max ?? 50} />}
            {decl.product && <ProductRowsTable decl={decl} fields={fields} items={items} remove={remove} />}
            {!decl.product && items.map((item, index) => (
              <Card key={item.key} size="small" style={{ marginBottom: 8 }} data-testid={`child-${decl.name}-${index}`}>
                <Space wrap align="start" className="child-row-fields" style={{ width: "100%" }}>
                  {fields.map((f) => (
                    <Form.Item
                      key={f.name}
                      name={[item.name, f.name]}
                      label={translate(f.label)}
                      rules={fieldRules(f, t)}
                      layout="vertical"
                      style={{ marginBottom: 0, minWidth: f.type === "string" ? 200 : 120 }}
                      {...valueProps(f)}
                    >
                      <FieldControl field={f} t={t} />
                    </Form.Item>
                  ))}
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={translate("crud.remove_row")}
                    style={{ marginTop: 30 }}
                    onClick={() => remove(item.name)}
                    data-testid={`child-remove-${decl.name}-${index}`}
                  />
                </Space>
              </Card>
            ))}
            <Space wrap style={{ justifyContent: "space-between", width: "100%" }}>
              <Space wrap>
                {!decl.product && (
                  <Button icon={<PlusOutlined />} onClick={() => add(defaults)} disabled={items.length >= (decl.max ?? 50)} data-testid={`child-add-${decl.name}`}>
                    {translate("crud.add_row")}
                  </Button>
                )}
                {decl.copyFromEarlier && <CopyChildRowsButton decl={decl} room={(decl.max ?? 50) - items.length} onChoose={(rows) => rows.forEach((row) => add({ ...defaults, ...row }))} />}
                {(decl.startFrom ?? []).map((source) => (
                  <StartFromButton key={source.entity} decl={decl} source={source} room={(decl.max ?? 50) - items.length} onChoose={(rows) => rows.forEach((row) => add({ ...defaults, ...row }))} />
                ))}
              </Space>
              {decl.total && (
                <Typography.Text strong data-testid={`children-total-${decl.name}`}>
                  {translate("crud.rows_total")}: {rowsTotal(decl, rows, getLocale() ?? "en")}
                </Typography.Text>
              )}
            </Space>
            <Form.ErrorList errors={errors} />
          </div>
        )}
      </Form.List>
    </Form.Item>
  );
}

type StartFrom = NonNullable<ChildDecl["startFrom"]>[number];

/** The first of the named fields of a record that holds a value. */
function firstValue(record: BaseRecord, fields: readonly string[]): unknown {
  return fields.map((f) => record[f]).find((value) => value !== undefined && value !== null && value !== "");
}

/**
 * "Add from ...": the enabled records of another entity the user may list (of the form's school when it is a
 * school's), several chosen at once, each added as a row (an activity's fee items from fee projects).
 */
function StartFromButton({ decl, source, room, onChoose }: { decl: ChildDecl; source: StartFrom; room: number; onChoose: (rows: Record<string, unknown>[]) => void }) {
  const { translate } = useTranslation();
  const { data: roles } = usePermissions<string[]>({});
  const entity = entityByName(source.entity);
  const allowed = Boolean(entity && roles && hasAnyRole(roles, entity.roles.list ?? []));
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<(string | number)[]>([]);
  const schoolId = Form.useWatch("sch_id", Form.useFormInstance()) as number | undefined;
  const hasStatus = entity?.fields.some((f) => f.name === "status");
  const { result, query } = useList<BaseRecord>({
    resource: source.entity,
    filters: [
      ...(hasStatus ? [{ field: "status", operator: "eq" as const, value: "1" }] : []),
      ...(entity?.scope === "school" && schoolId ? [{ field: "sch_id", operator: "eq" as const, value: schoolId }] : []),
    ],
    pagination: { currentPage: 1, pageSize: 50 },
    queryOptions: { enabled: allowed && open },
    errorNotification: false,
  });
  if (!entity || !allowed) return null;
  const records = result.data ?? [];
  const label = translate("crud.add_from", { entity: translate(entity.title) });
  const close = () => {
    setOpen(false);
    setChosen([]);
  };
  return (
    <>
      <Button icon={<ImportOutlined />} disabled={room <= 0} onClick={() => setOpen(true)} data-testid={`child-from-${source.entity}`}>
        {label}
      </Button>
      <Modal
        open={open}
        title={label}
        okText={translate("crud.add_rows")}
        okButtonProps={{ disabled: chosen.length === 0, ...{ "data-testid": `child-from-${source.entity}-ok` } }}
        onCancel={close}
        onOk={() => {
          const picked = records.filter((record) => chosen.includes(record.id!));
          onChoose(picked.map((record) => Object.fromEntries(Object.entries(source.copy).map(([to, from]) => [to, firstValue(record, from)]))));
          close();
        }}
        destroyOnHidden
      >
        <Select
          mode="multiple"
          style={{ width: "100%" }}
          loading={query.isLoading}
          value={chosen}
          onChange={(ids) => setChosen(ids.slice(0, room))}
          placeholder={translate(decl.label)}
          optionFilterProp="label"
          notFoundContent={query.isLoading ? undefined : translate("crud.none_to_choose")}
          options={records.map((record) => ({ value: record.id!, label: String(record[entity.titleField] ?? record.id) }))}
          data-testid={`child-from-${source.entity}-select`}
        />
      </Modal>
    </>
  );
}

/** The child rows of a record on its detail page. */
export function ChildRowsTable({ decl, rows }: { decl: ChildDecl; rows: readonly BaseRecord[] | undefined }) {
  const { translate, getLocale } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const entity = childEntity(decl);
  const fields = entity.fields.filter((f) => inForm(f, "add"));
  return (
    <Card size="small" title={translate(decl.label)} style={{ marginTop: 16 }} data-testid={`children-${decl.name}`}>
      <Table<BaseRecord>
        size="small"
        rowKey="id"
        pagination={false}
        scroll={{ x: "max-content" }}
        dataSource={rows ? [...rows] : []}
        columns={fields.map((f: FieldDecl) => ({ key: f.name, dataIndex: f.name, title: translate(f.label), render: (value: unknown, row: BaseRecord) => displayValue(f, value, t, row) }))}
        summary={
          decl.total
            ? () => (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0} colSpan={fields.length}>
                    <Typography.Text strong>
                      {translate("crud.rows_total")}: {rowsTotal(decl, rows as Record<string, unknown>[] | undefined, getLocale() ?? "en")}
                    </Typography.Text>
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              )
            : undefined
        }
      />
    </Card>
  );
}

/**
 * The newest records of another entity pointing at this one (an activity's bills, an order's refunds), with their
 * list's total and the actions their states and the user's roles allow (a refund request's review).
 */
/** The records of another entity pointing at a record, when the user may list that entity (a page several roles share). */
/** The records of another entity naming this one: by a reference to its id, or by the value of its `key` field. */
export function RelatedRecords({ decl, value }: { decl: RelatedDecl; value: string | number }) {
  const { data: roles } = usePermissions<string[]>({});
  const entity = entityByName(decl.entity);
  if (!roles || !entity || !hasAnyRole(roles, entity.roles.list ?? [])) return null;
  return <RelatedList decl={decl} value={value} />;
}

function RelatedList({ decl, value }: { decl: RelatedDecl; value: string | number }) {
  const { translate, getLocale } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const entity = entityByName(decl.entity);
  // the catalogue's assembly checks every related entity: a missing one is a programming error
  if (!entity) throw new Error(`related records of an undeclared entity: ${decl.entity}`);
  const stateField = entity.fields.find((f) => f.name === entity.stateField);
  // many records (a reconciled day's thousands of matches): by state, a page at a time
  const [state, setState] = useState(ALL_STATES);
  const [page, setPage] = useState(1);
  // asked for by the address (an action's message leading to a reconciled day's differences): that state's tab, in view
  const { hash, key: visit } = useLocation();
  const card = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const asked = stateField?.options?.find((o) => hash === `#${relatedAnchor(decl.entity, o.value)}`);
    if (!asked) return;
    setState(asked.value);
    setPage(1);
    card.current?.scrollIntoView({ block: "start", behavior: "smooth" });
    // each visit of the address asks again (the same link followed twice)
  }, [hash, visit, decl.entity, stateField]);
  // read by the entity's name: no page of its own needs to show it
  const { result, query } = useList<BaseRecord>({
    resource: decl.entity,
    filters: [{ field: decl.field, operator: "eq", value }, ...(stateField && state !== ALL_STATES ? [{ field: stateField.name, operator: "eq" as const, value: state }] : [])],
    pagination: { currentPage: page, pageSize: RELATED_PAGE_SIZE },
    errorNotification: false,
  });
  const tabs = (query.data as { tabs?: ListTabs } | undefined)?.tabs;
  const actions = useEntityActions(entity);
  const fields = entity.fields.filter((f) => f.list && f.name !== decl.field);
  const columns: TableColumnsType<BaseRecord> = fields.map((f) => ({ key: f.name, dataIndex: f.name, title: translate(f.label), render: (value: unknown, row: BaseRecord) => displayValue(f, value, t, row) }));
  if (actions.length > 0) {
    columns.push({
      key: "actions",
      title: translate("crud.actions"),
      render: (_: unknown, row: BaseRecord) => (
        <Space size={4}>
          {actions.filter((action) => actionAllowed(entity, action, row)).map((action) => (
            <ActionButton key={action.name} entity={entity} action={action} record={row} />
          ))}
        </Space>
      ),
    });
  }
  const total = result.total ?? 0;
  // a state's tab left empty (its last record moved on, resolved from its row): said, with the way to the others
  const chosen = stateField?.options?.find((o) => o.value === state);
  const emptied = chosen && tabs && !query.isFetching && (tabs.states.find((s) => s.value === state)?.count ?? 0) === 0;
  return (
    <Card size="small" title={`${translate(decl.label)} (${formatNumber(tabs?.total ?? total, getLocale() ?? "en")})`} style={{ marginTop: 16 }} data-testid={`related-${decl.entity}`} ref={card}>
      {stateField && (
        <StateTabs
          field={stateField}
          counts={tabs}
          value={state}
          onChange={(value) => {
            setState(value);
            setPage(1);
          }}
          t={t}
          language={getLocale() ?? "en"}
          small
        />
      )}
      {emptied ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={translate("crud.tab_emptied", { state: translate(chosen.label) })} data-testid={`related-${decl.entity}-emptied`}>
          {tabs.total > 0 && (
            <Button
              onClick={() => {
                setState(ALL_STATES);
                setPage(1);
              }}
              data-testid={`related-${decl.entity}-show-all`}
            >
              {translate("crud.show_all", { count: tabs.total })}
            </Button>
          )}
        </Empty>
      ) : (
        <Table<BaseRecord>
          size="small"
          rowKey="id"
          loading={query.isLoading}
          pagination={total > RELATED_PAGE_SIZE ? { current: page, pageSize: RELATED_PAGE_SIZE, total, showSizeChanger: false, size: "small", onChange: setPage } : false}
          scroll={{ x: "max-content" }}
          dataSource={[...result.data]}
          columns={columns}
        />
      )}
    </Card>
  );
}
