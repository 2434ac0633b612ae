/**
 * A reference to a record of another entity: a searchable select over that entity's list (searched by its name
 * on the server, through refine so the answers are cached), shown in lists by the name the server sends beside
 * the id (`{name}_title`). A reference narrowed by another (a class within the chosen grade) lists only the
 * records of that choice, waits for it in a form, and labels its options with it in a filter. Records are named as
 * their entity says others name them (a class with its grade, a student with their number); a reference standing
 * for several records names the first with their count. A `like` filter is typed: the referred records' names.
 * A child entity's record (a goods item's SKU) has no list of its own: it is chosen among the rows of the parent
 * record that the narrowing reference names, as the parent's record answers them.
 */
import { Form, Input, Select, Tag } from "antd";
import { useSelect } from "@refinedev/antd";
import { useOne, type BaseRecord, type CrudFilter } from "@refinedev/core";
import { FILTER_TEXT_MAX, type ChildDecl, type EntityDecl, type FieldDecl } from "../../../common/catalogue";
import { referredTitle, refShownTitle, refTitleKey } from "../../../common/fieldRules";
import { entities, entityByName } from "../../../resources.config";
import { NAMES, type ControlProps, type UiFieldKind } from "./kind";

/** Enough to choose from; typing narrows it on the server. */
const OPTION_LIMIT = 50;

export function referredEntity(field: FieldDecl): EntityDecl {
  const entity = field.ref && entityByName(field.ref.entity);
  if (!entity) throw new Error(`field ${field.name} refers to an unknown entity ${field.ref?.entity}`);
  return entity;
}

function RefSelect({ field, t, value, onChange, id, block, filter, "data-testid": testId }: ControlProps & { filter?: boolean }) {
  const entity = referredEntity(field);
  const narrowBy = field.ref?.narrowBy;
  const form = Form.useFormInstance();
  const narrowValue = Form.useWatch(narrowBy ?? "__none__", form) as unknown;
  const narrowed = narrowBy !== undefined && narrowValue !== undefined && narrowValue !== null && narrowValue !== "";
  // a form waits for the choice that narrows this one; a filter may choose without it
  const waiting = narrowBy !== undefined && !narrowed && !filter;
  // a form that chooses its school (a provider adding a record) offers that school's records only
  const school = Form.useWatch("sch_id", form) as unknown;
  const permanent: CrudFilter[] = [
    ...(narrowed ? [{ field: narrowBy!, operator: "eq" as const, value: narrowValue }] : []),
    ...(entity.scope === "school" && school ? [{ field: "sch_id", operator: "eq" as const, value: school }] : []),
    // only the records the server takes (a pickup point's verifiers: pickup accounts)
    ...Object.entries(field.ref?.where ?? {}).map(([name, value]) => ({ field: name, operator: "eq" as const, value })),
  ];
  const narrowTitle = narrowBy && !narrowed ? refTitleKey(narrowBy) : undefined;
  const { selectProps } = useSelect<BaseRecord>({
    resource: entity.name,
    optionValue: (record) => String(record.id),
    optionLabel: (record) => {
      const title = referredTitle(entity, record, narrowBy);
      return narrowTitle && record[narrowTitle] ? `${String(record[narrowTitle])} / ${title}` : title;
    },
    filters: permanent,
    onSearch: (text) => [{ field: entity.titleField, operator: "contains", value: text.trim() || undefined }],
    defaultValue: Array.isArray(value) ? value.map(String) : value === undefined || value === null || value === "" ? undefined : String(value),
    pagination: { pageSize: OPTION_LIMIT, mode: "server" },
    queryOptions: { enabled: !waiting },
    errorNotification: false,
  });
  const placeholder = waiting ? t("crud.choose_first", { label: t(referredField(entity, narrowBy!)?.label ?? "") }) : t(field.label);
  return (
    <Select
      options={selectProps.options}
      onSearch={selectProps.onSearch}
      loading={selectProps.loading}
      showSearch
      filterOption={false}
      id={id}
      data-testid={testId}
      mode={field.multiple ? "multiple" : undefined}
      value={Array.isArray(value) ? value.map(String) : value === undefined || value === null || value === "" ? undefined : String(value)}
      onChange={(next) => onChange?.(next ?? undefined)}
      allowClear
      disabled={waiting}
      placeholder={placeholder}
      style={block ? { width: "100%" } : { minWidth: 160 }}
    />
  );
}

/** The entity whose child records the entity's are, when it has no list of its own (a SKU of a goods item). */
function listlessChild(entity: EntityDecl): { parent: EntityDecl; decl: ChildDecl } | undefined {
  if (entity.roles.list?.length) return undefined;
  for (const parent of entities) {
    const decl = parent.children?.find((c) => c.entity === entity.name);
    if (decl) return { parent, decl };
  }
  return undefined;
}

/** A child row as a user tells it from its siblings: its specs' values ("尺码 130 · 颜色 藏青"), else its title. */
function childRowTitle(entity: EntityDecl, row: BaseRecord): string {
  const specs = entity.fields
    .filter((f) => f.type === "specs")
    .flatMap((f) => Object.entries((row[f.name] ?? {}) as Record<string, string>).map(([name, value]) => `${name} ${value}`));
  const title = row[entity.titleField];
  if (specs.length === 0) return referredTitle(entity, row);
  return title ? `${specs.join(" · ")} (${String(title)})` : specs.join(" · ");
}

/** A child record chosen among the rows of the parent record that the narrowing reference names. */
function ChildRowSelect({ field, t, value, onChange, id, block, "data-testid": testId, child }: ControlProps & { child: { parent: EntityDecl; decl: ChildDecl } }) {
  const entity = referredEntity(field);
  const narrowBy = field.ref!.narrowBy!;
  const form = Form.useFormInstance();
  const parentId = Form.useWatch(narrowBy, form) as unknown;
  const chosen = parentId !== undefined && parentId !== null && parentId !== "";
  const parent = useOne<BaseRecord>({ resource: child.parent.name, id: chosen ? String(parentId) : "", queryOptions: { enabled: chosen }, errorNotification: false });
  const rows = chosen ? ((parent.result?.[child.decl.name] as BaseRecord[] | undefined) ?? []) : [];
  const current = value === undefined || value === null || value === "" ? undefined : String(value);
  return (
    <Select
      options={rows.map((row) => ({ value: String(row.id), label: childRowTitle(entity, row) }))}
      loading={chosen && parent.query.isLoading}
      showSearch
      optionFilterProp="label"
      id={id}
      data-testid={testId}
      value={rows.length > 0 || !chosen ? current : undefined}
      onChange={(next) => onChange?.(next ?? undefined)}
      allowClear
      disabled={!chosen}
      placeholder={chosen ? t(field.label) : t("crud.choose_first", { label: t(referredField(entity, narrowBy)?.label ?? "") })}
      style={block ? { width: "100%" } : { minWidth: 160 }}
    />
  );
}

function referredField(entity: EntityDecl, name: string): FieldDecl | undefined {
  return entity.fields.find((f) => f.name === name);
}

/** A reference searched by its records' names: a text box. */
function RefSearch({ field, t, value, onChange, id, block, "data-testid": testId }: ControlProps) {
  const number = referredEntity(field).refTitle?.number;
  const placeholder = number ? t("crud.ref_search", { label: t(field.label), number: t(referredField(referredEntity(field), number)?.label ?? "") }) : t(field.label);
  return (
    <Input
      id={id}
      data-testid={testId}
      allowClear
      maxLength={FILTER_TEXT_MAX}
      value={typeof value === "string" || typeof value === "number" ? String(value) : undefined}
      onChange={(e) => onChange?.(e.target.value || undefined)}
      placeholder={placeholder}
      style={block ? { width: "100%" } : { minWidth: 160 }}
    />
  );
}

/** a picked id is sent as the number the server stores */
function idValueProps(field: FieldDecl) {
  return {
    getValueProps: (value: unknown) => ({ value: Array.isArray(value) ? value.map(String) : value === undefined || value === null ? undefined : String(value) }),
    normalize: (value: unknown) => (field.multiple ? (Array.isArray(value) ? value.map(Number) : []) : value === undefined || value === null || value === "" ? undefined : Number(value)),
  };
}

/** the parent of a child record chosen by its narrowing reference, if the field is one */
function childPick(field: FieldDecl) {
  return field.ref?.narrowBy ? listlessChild(referredEntity(field)) : undefined;
}

export const refKind: UiFieldKind = {
  Control: (props) => {
    const child = childPick(props.field);
    return child ? <ChildRowSelect {...props} child={child} /> : <RefSelect {...props} />;
  },
  Filter: (props) => {
    const child = childPick(props.field);
    if (child) return <ChildRowSelect {...props} child={child} />;
    return props.field.filter === "like" ? <RefSearch {...props} /> : <RefSelect {...props} filter />;
  },
  valueProps: idValueProps,
  // a searched reference's filter is its text
  filterValueProps: (field) => (field.filter === "like" ? {} : idValueProps(field)),
  display: (field, value, t, record) => {
    const titles = record?.[refTitleKey(field.name)];
    // a long name wraps inside its tag, within the column's width
    if (Array.isArray(titles)) return titles.map((title, i) => <Tag key={i} style={{ whiteSpace: "normal", maxWidth: "100%", marginBlock: 1 }}>{String(title)}</Tag>);
    return titles === undefined || titles === null ? `#${String(value)}` : String(refShownTitle(field, record!, t));
  },
  cellStyle: NAMES,
  picked: true,
};
