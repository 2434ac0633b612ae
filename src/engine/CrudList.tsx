/**
 * Generic list page of a catalogue entity: filter bar (like -> text, eq -> select, range -> date range),
 * sortable columns, the shared pagination control of spec 2.4, buttons to the add / edit / detail routes (or
 * in-place dialogs), an import when the entity declares one, and an export of the filtered list when the entity
 * has an export operation. Filters fixed by the page's menu entry are always sent and never shown.
 *
 * A list users come back to keeps their place: page, filters, sort and state tab live in the URL (a reload, or
 * back from a record, finds them again); an entity with states gets a tab per state with its count, one with a
 * summary its money fields' sums over the whole filter under the rows; the table's columns are shown and ordered
 * as the user set them (saved per user and list).
 *
 * Under 992 px (the mobile width of spec 4.1) each row is a compact card (RecordCard: title and status on a
 * line, every other listed field in two dense columns, the row's buttons on one line) and the filters fold
 * behind a toggle; wider, a table whose columns keep their natural widths
 * (words wrap, never letters) and scroll sideways rather than squeeze, with the row buttons kept in view.
 */
import { Badge, Button, Card, Form, Grid, List, Select, Space, Table } from "antd";
import type { TableProps } from "antd";
import { DownloadOutlined, EyeOutlined, EditOutlined, FilterOutlined, PlusOutlined, ReloadOutlined, SearchOutlined } from "@ant-design/icons";
import { Fragment, useRef, useState, type ReactNode } from "react";
import { useParams } from "react-router";
import { useTable, getDefaultSortOrder } from "@refinedev/antd";
import { useGo, usePermissions, useTranslation, type BaseRecord, type CrudFilter, type CrudSort, type HttpError } from "@refinedev/core";
import type { EntityDecl, FieldDecl } from "../../common/catalogue";
import type { ListSummary, ListTabs } from "../../common/listAnswer";
import { fieldSeenBy } from "../../common/fieldRules";
import { formatNumber } from "../../common/money";
import { hasAnyRole } from "../../common/roleKeys";
import { entityResources, type BuiltPage } from "./builtPages";
import { DEFAULT_API_PATH, filterPayload, scope as tenantScope, sortPayload } from "../../providers/dataProvider";
import { entityByName } from "../../resources.config";
import { cellStyle, displayValue, FilterControl, filterValueProps, type Translate } from "./fields";
import { clearNarrowed } from "./RecordFields";
import { RecordModal, type RecordModalHandle } from "./RecordModal";
import { ActionButton, actionAllowed, actionInState, BulkActionBar, DeleteButton, editAllowed, useEntityActions, withActionRunner } from "./EntityActions";
import { StatusSwitch } from "./StatusSwitch";
import { ListLoadFailed } from "./LoadFailed";
import { recordPath, resourceByIdentifier, useEntityAbility } from "./resources";
import { scrollToTop } from "./scrollToTop";
import { useExport } from "./useExport";
import { ImportButton, ImportDialog, listImport, mayImport } from "./ImportDialog";
import { EmptyList } from "./EmptyList";
import { RecordCard, type CardButton } from "./RecordCard";
import { ALL_STATES, StateTabs } from "./StateTabs";
import { ListSummaryLine } from "./ListSummaryLine";
import { ColumnSettingsButton } from "./ColumnSettingsButton";
import { arrangeColumns, useColumnSettings } from "./listColumns";
import { ListTools, useRecordTools } from "./RecordTools";
import { offeredOn, opensSelection, selectionPath, useLinkedPages } from "./linkedPages";
import { isBlankFilterValue as isBlank } from "../../common/fieldExtras";

export const PAGE_SIZE_OPTIONS = [10, 20, 30, 50];
export const DEFAULT_PAGE_SIZE = 20;

type FilterValues = Record<string, unknown>;

function toCrudFilter(field: FieldDecl, value: unknown): CrudFilter {
  switch (field.filter) {
    case "range":
      return { field: field.name, operator: "between", value: Array.isArray(value) && value.some(Boolean) ? value : undefined };
    case "eq":
      return { field: field.name, operator: "eq", value: value === "" ? undefined : value };
    default:
      return { field: field.name, operator: "contains", value: typeof value === "string" ? value.trim() || undefined : value };
  }
}

/** The payload of the entity's export: the list's scope, filters and sort. */
function exportPayload(entity: EntityDecl, filters: readonly CrudFilter[], sorters: readonly CrudSort[]): Record<string, unknown> {
  const sort = sortPayload(entity, sorters);
  return { ...tenantScope(), ...filterPayload(entity, filters), ...(sort ? { sort } : {}) };
}

/**
 * Whether the user can see a field: a reference to records the user may not list (the provider of a school, to
 * the provider itself) is neither a column nor a filter, nor is the school once one is chosen: either could
 * only ever show one value; nor is a field the user's roles do not see (FieldDecl.roles).
 */
function useFieldVisible(): (field: FieldDecl) => boolean {
  const { data: roles } = usePermissions<string[]>({});
  const schoolChosen = Boolean(tenantScope().sch_id);
  return (field) => {
    if (!fieldSeenBy(field, roles)) return false;
    if (field.type !== "ref") return true;
    // the school of a school's records, once a school is chosen, is that school
    if (field.name === "sch_id" && schoolChosen) return false;
    const listRoles = field.ref && entityByName(field.ref.entity)?.roles.list;
    return Boolean(roles && listRoles && hasAnyRole(roles, listRoles));
  };
}


/** The fields named first, in their order, then the others as declared (a part of a page of several lists: ListPart.columns). */
function firstThese(fields: FieldDecl[], names: readonly string[] | undefined): FieldDecl[] {
  if (!names) return fields;
  const rank = (f: FieldDecl) => (names.includes(f.name) ? names.indexOf(f.name) : names.length);
  return [...fields].sort((a, b) => rank(a) - rank(b));
}

/** The list's order (its first sorter) as a "field:order" choice of the card view's sort control. */
function sortChoice(sorters: readonly CrudSort[]): string | undefined {
  const first = sorters[0];
  return first ? `${first.field}:${first.order}` : undefined;
}

/** The field whose value a filter of `filters` gives, if any. */
function filterOn(filters: readonly CrudFilter[], name: string): unknown {
  const found = filters.find((f) => "field" in f && f.field === name);
  return found?.value;
}

/**
 * The states the user may see of an entity's state field (an option may name its roles, as in filters), as the
 * field the tabs show; none when the page's menu entry fixes the state already.
 */
function useStateTabsField(entity: EntityDecl, fixed: readonly string[]): FieldDecl | undefined {
  const { data: roles } = usePermissions<string[]>({});
  const field = entity.stateField ? entity.fields.find((f) => f.name === entity.stateField) : undefined;
  if (!field?.options?.length || fixed.includes(field.name)) return undefined;
  return { ...field, options: field.options.filter((option) => !option.roles || (roles !== undefined && hasAnyRole(roles, option.roles))) };
}

/**
 * What the list's last answer said beside its rows (the state counts, the summary), kept while the next answer
 * loads so that the tabs and the summary do not blink at every change of page, tab or filter.
 */
function useLastAnswer<T>(value: T | undefined): T | undefined {
  const last = useRef<T | undefined>(undefined);
  if (value !== undefined) last.current = value;
  return last.current;
}

interface CrudListProps {
  resource: string;
  /** shown at the top of the list, above its filters (the switch between the lists of a page of several) */
  header?: ReactNode;
}

function CrudList({ resource, header }: CrudListProps) {
  const { entity, pages } = resourceByIdentifier(resource);
  const { translate, getLocale } = useTranslation();
  const language = getLocale() ?? "en";
  const t: Translate = (key, options) => translate(key, options);
  const may = useEntityAbility(entity);
  const { data: roles } = usePermissions<string[]>({});
  const go = useGo();
  const screens = Grid.useBreakpoint();
  // below lg (992 px): cards; unknown before the first measure, when the table is assumed
  const narrow = screens.lg === false;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const exports = useExport();
  const [importOpen, setImportOpen] = useState(false);
  const listRef = pages.list?.entry.page;
  const { id: recordId } = useParams();
  const listPage = listRef?.kind === "list" ? listRef : undefined;
  const fixedFilters = Object.entries({
    ...(pages.list?.part ? pages.list.part.filters : listPage?.filters),
    ...(listPage?.recordFilter && recordId ? { [listPage.recordFilter]: recordId } : {}),
  });
  const fieldVisible = useFieldVisible();
  // a part of a page of several lists leaves out the fields its filters keep empty
  const leftOut = pages.list?.part?.without ?? [];
  const visible = (f: FieldDecl) => fieldVisible(f) && !leftOut.includes(f.name);
  const stateTabsField = useStateTabsField(entity, fixedFilters.map(([name]) => name));
  // the tabs are the state's filter: it is not asked twice
  const filterFields = entity.fields.filter((f) => f.filter && visible(f) && !fixedFilters.some(([name]) => name === f.name) && f.name !== stateTabsField?.name);

  const { tableProps, searchFormProps, sorters, setSorters, filters, setFilters, tableQuery, setCurrentPage, setPageSize, pageSize } = useTable<BaseRecord, HttpError, FilterValues>({
    resource,
    syncWithLocation: true,
    pagination: { currentPage: 1, pageSize: DEFAULT_PAGE_SIZE, mode: "server" },
    sorters: { initial: entity.defaultSort ? [{ field: entity.defaultSort.field, order: entity.defaultSort.order }] : [] },
    filters: { permanent: fixedFilters.map(([field, value]) => ({ field, operator: "eq", value })) },
    // the weapi client has already shown the server's message
    errorNotification: false,
    onSearch: (values) => filterFields.map((f) => toCrudFilter(f, values[f.name])),
  });

  // a field the page fixes holds the same value on every row: no column of it
  const listFields = firstThese(
    entity.fields.filter((f) => f.list && visible(f) && !fixedFilters.some(([name]) => name === f.name)),
    pages.list?.part?.columns,
  );
  // the table's columns as the user arranged them; a phone's cards show every listed field
  const [columnSettings, setColumnSettings] = useColumnSettings(resource);
  const tableFields = arrangeColumns(listFields, columnSettings)
    .filter((column) => column.shown)
    .map((column) => column.field);
  const answer = tableQuery.data as { tabs?: ListTabs; summary?: ListSummary } | undefined;
  const stateCounts = useLastAnswer(answer?.tabs);
  const summary = useLastAnswer(answer?.summary);
  // a list whose menu has no add or edit route is edited in place, in a dialog, by whoever may
  const addModal = useRef<RecordModalHandle>(null);
  const editModal = useRef<RecordModalHandle>(null);
  // a page of the other generation sharing this path (/activity) may be closed to the user: then the dialog
  const opens = (page: BuiltPage | undefined) => Boolean(page && roles && hasAnyRole(roles, page.group.roles) && hasAnyRole(roles, page.entry.roles));
  const addInPlace = !opens(pages.add) && may("add") && entity.fields.some((f) => f.form === true || f.form === "add");
  const editInPlace = !opens(pages.edit) && may("edit") && entity.fields.some((f) => f.form === true || f.form === "edit");
  const cell = (f: FieldDecl, value: unknown, record: BaseRecord): ReactNode =>
    f.type === "status" && may("edit") ? <StatusSwitch resource={resource} field={f} record={record} /> : displayValue(f, value, t, record);
  const columns: NonNullable<TableProps<BaseRecord>["columns"]> = tableFields.map((f) => ({
    key: f.name,
    dataIndex: f.name,
    title: translate(f.label),
    sorter: f.sortable ? true : undefined,
    sortOrder: f.sortable ? (getDefaultSortOrder(f.name, sorters) ?? null) : undefined,
    render: (value: unknown, record: BaseRecord) => <div style={cellStyle(f)}>{cell(f, value, record)}</div>,
  }));
  const edit = opens(pages.edit) && may("edit") ? pages.edit : undefined;
  // a part of a page of several lists opens its records where the menu has their page, in another group if its own has
  // none (an after-sale from the order group's after-sales list opens in the shop's)
  const info = pages.info ?? (pages.list?.part ? entityResources().find((r) => r.entity === entity && opens(r.pages.info))?.pages.info : undefined);
  const show = opens(info) && may("info") ? info : undefined;
  const { recordPages, listPages } = useLinkedPages(pages.list, entity);
  const actions = useEntityActions(entity);
  const tools = useRecordTools(entity);
  const bulkActions = actions.filter((action) => action.bulk);
  const selectionPages = recordPages.filter(opensSelection);
  const [selected, setSelected] = useState<BaseRecord[]>([]);
  const chosenState = stateTabsField ? filterOn(filters, stateTabsField.name) : undefined;
  const stateTab = chosenState === undefined || chosenState === null || chosenState === "" ? ALL_STATES : String(chosenState);
  const chooseState = (tab: string) => {
    setFilters([{ field: stateTabsField!.name, operator: "eq", value: tab === ALL_STATES ? undefined : tab }], "merge");
    setCurrentPage(1);
    // a selection belongs to the rows it was made among
    setSelected([]);
  };
  const stateTabs = stateTabsField && (
    <StateTabs field={stateTabsField} counts={stateCounts} value={stateTab} onChange={chooseState} t={t} language={language} small={narrow} />
  );
  const summaryLine = summary && summary.count > 0 ? <ListSummaryLine entity={entity} summary={summary} t={t} language={language} /> : undefined;
  const deletable = may("del");
  const hasRowButtons = Boolean(edit || editInPlace || show || deletable || recordPages.length > 0 || actions.length > 0 || entity.recordTools?.length);
  /** A row's buttons, each with its text (a phone's card folds the pages that do not fit on its line). */
  const buttonsOf = (record: BaseRecord): CardButton[] => [
    ...((edit || editInPlace) && editAllowed(entity, record)
      ? [
          {
            key: "edit",
            label: translate("crud.edit"),
            icon: true,
            node: (
              <Button
                size="small"
                icon={<EditOutlined />}
                data-testid={`row-edit-${String(record.id)}`}
                onClick={() => (edit ? go({ to: recordPath(edit.route, record.id) }) : editModal.current?.open(record.id))}
              >
                {translate("crud.edit")}
              </Button>
            ),
          },
        ]
      : []),
    ...(show
      ? [
          {
            key: "detail",
            label: translate("crud.detail"),
            icon: true,
            node: (
              <Button size="small" icon={<EyeOutlined />} onClick={() => go({ to: recordPath(show.route, record.id) })}>
                {translate("crud.detail")}
              </Button>
            ),
          },
        ]
      : []),
    ...recordPages.filter((page) => offeredOn(page, record)).map((page) => {
      const open = () => go({ to: recordPath(page.route, record.id) });
      return {
        key: page.route,
        label: translate(page.entry.title),
        page: { open, testId: `row-${page.entry.name}` },
        node: (
          <Button size="small" data-testid={`row-${page.entry.name}`} onClick={open}>
            {translate(page.entry.title)}
          </Button>
        ),
      };
    }),
    ...tools.buttonsOf(record),
    ...actions
      .filter((action) => actionAllowed(entity, action, record))
      .map((action) => ({ key: action.name, label: translate(actionInState(entity, action, record).label), node: <ActionButton entity={entity} action={action} record={record} /> })),
    ...(deletable && editAllowed(entity, record) ? [{ key: "delete", label: translate("crud.delete"), icon: true, node: <DeleteButton resource={resource} record={record} /> }] : []),
  ];
  const rowButtons = (record: BaseRecord): ReactNode => (
    <Space size={[8, 8]} wrap>
      {buttonsOf(record).map((button) => (
        <Fragment key={button.key}>{button.node}</Fragment>
      ))}
    </Space>
  );
  if (hasRowButtons) {
    // kept in view at the right while a wide table scrolls; the buttons wrap, so the column stays narrow
    columns.push({ key: "actions", title: translate("crud.actions"), fixed: "right", render: (_: unknown, record: BaseRecord) => rowButtons(record) });
  }

  const add = opens(pages.add) && may("add") ? pages.add : undefined;
  // the entity's own import, or on an import log narrowed to one entity, that entity's (the bill imports)
  const importable = listImport(entity, fixedFilters);
  const importOffered = importable !== undefined && (importable === entity ? may("add") : mayImport(importable, roles));
  const exportOperation = entity.exportOperation;
  const onExport = (operation: string) => exports.start(entity.apiPath ?? DEFAULT_API_PATH, operation, exportPayload(entity, filters, sorters));

  const pageButtons = (
    <Space wrap>
      {importOffered && <ImportButton entity={importable} />}
      <ListTools entity={entity} filters={Object.fromEntries(fixedFilters)} />
      {exportOperation && (
        <Button icon={<DownloadOutlined />} loading={exports.starting} data-testid="export-button" onClick={() => void onExport(exportOperation)}>
          {translate("crud.export")}
        </Button>
      )}
      {listPages.map((page) => (
        <Button key={page.route} type="primary" icon={<PlusOutlined />} data-testid={`open-${page.entry.name}`} onClick={() => go({ to: page.route })}>
          {translate(page.entry.title)}
        </Button>
      ))}
      {(add || addInPlace) && (
        <Button type="primary" icon={<PlusOutlined />} data-testid="add-button" onClick={() => (add ? go({ to: add.route }) : addModal.current?.open())}>
          {translate("crud.add")}
        </Button>
      )}
      {addInPlace && <RecordModal ref={addModal} resource={resource} entity={entity} action="add" />}
      {editInPlace && <RecordModal ref={editModal} resource={resource} entity={entity} action="edit" />}
      {tools.dialog}
      {/* opened from the empty list, but kept here: it stays open, with its result, once the rows arrive */}
      {importOpen && importable?.import && <ImportDialog entity={importable} decl={importable.import} onClose={() => setImportOpen(false)} />}
    </Space>
  );

  const activeFilters = filters.filter((f) => "field" in f && filterFields.some((field) => field.name === f.field) && !isBlank(f.value)).length;
  const filterForm = filterFields.length > 0 && (!narrow || filtersOpen) && (
    <Form
      {...searchFormProps}
      onValuesChange={(changed, all) => {
        searchFormProps.onValuesChange?.(changed, all);
        clearNarrowed(entity, searchFormProps.form)(changed as Record<string, unknown>);
      }}
      onFinish={(values) => {
        void searchFormProps.onFinish?.(values);
        // on a phone the results matter now: fold the filters away
        if (narrow) setFiltersOpen(false);
      }}
      layout={narrow ? "vertical" : "inline"}
      style={{ marginBottom: 16, rowGap: 8 }}
      data-testid="list-filters"
    >
      {filterFields.map((f) => (
        <Form.Item key={f.name} name={f.name} label={translate(f.label)} {...filterValueProps(f)} style={narrow ? { marginBottom: 12 } : undefined}>
          <FilterControl field={f} t={t} block={narrow} />
        </Form.Item>
      ))}
      <Form.Item style={narrow ? { marginBottom: 0 } : undefined}>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {translate("crud.search")}
          </Button>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => {
              searchFormProps.form?.resetFields();
              searchFormProps.form?.submit();
            }}
          >
            {translate("crud.reset")}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );

  // an empty list says why and what to do next: clear the filters, add the first record, import them
  const clearFilters = () => {
    searchFormProps.form?.resetFields();
    setFilters([], "replace");
    setCurrentPage(1);
  };
  // not before the first answer (antd's plain placeholder under the spinner), but kept while a refresh runs
  const emptyText = tableQuery.isLoading ? undefined : (
    <EmptyList
      t={t}
      filtered={activeFilters > 0 || stateTab !== ALL_STATES}
      onClearFilters={clearFilters}
      onAdd={add || addInPlace ? () => (add ? go({ to: add.route }) : addModal.current?.open()) : undefined}
      onImport={importOffered ? () => setImportOpen(true) : undefined}
    />
  );
  const failed = tableQuery.isError ? <ListLoadFailed onRetry={() => void tableQuery.refetch()} /> : undefined;
  const pagination = tableProps.pagination && {
    ...tableProps.pagination,
    simple: false,
    position: ["bottomRight" as const],
    pageSizeOptions: PAGE_SIZE_OPTIONS,
    showSizeChanger: true,
    showQuickJumper: true,
    showTotal: (total: number) => translate("crud.total", { total: formatNumber(total, language) }),
  };

  if (narrow) {
    const titleField = listFields.find((f) => f.name === entity.titleField);
    const statusField = listFields.find((f) => f.name === "status");
    // every sortable field, listed or not: the default order may be on one the cards do not show
    const sortable = entity.fields.filter((f) => f.sortable);
    return (
      <Card title={translate(pages.list?.entry.title ?? entity.title)} styles={{ body: { padding: 12 } }}>
        {header}
        <Space wrap style={{ marginBottom: 12 }}>
          {filterFields.length > 0 && (
            <Badge count={activeFilters} size="small">
              <Button icon={<FilterOutlined />} aria-expanded={filtersOpen} data-testid="list-filters-toggle" onClick={() => setFiltersOpen((open) => !open)}>
                {translate("crud.filters")}
              </Button>
            </Badge>
          )}
          {sortable.length > 0 && (
            <Select
              aria-label={translate("crud.sort_by")}
              placeholder={translate("crud.sort_by")}
              data-testid="list-sort"
              value={sortChoice(sorters)}
              onChange={(choice: string) => {
                const [field, order] = choice.split(":");
                setSorters([{ field, order: order as "asc" | "desc" }]);
              }}
              options={sortable.flatMap((f) => [
                { value: `${f.name}:asc`, label: translate("crud.sort_asc", { field: translate(f.label) }) },
                { value: `${f.name}:desc`, label: translate("crud.sort_desc", { field: translate(f.label) }) },
              ])}
              popupMatchSelectWidth={false}
              style={{ minWidth: 160 }}
            />
          )}
          {pageButtons}
        </Space>
        {filterForm}
        {stateTabs}
        <List<BaseRecord>
          rowKey="id"
          loading={tableProps.loading}
          dataSource={tableProps.dataSource ? [...tableProps.dataSource] : []}
          locale={{ emptyText: failed ?? emptyText }}
          pagination={
            pagination && {
              ...pagination,
              position: "bottom",
              showQuickJumper: false,
              size: "small",
              align: "center",
              onChange: (page, size) => {
                setCurrentPage(size !== pageSize ? 1 : page);
                setPageSize(size);
                scrollToTop();
              },
            }
          }
          footer={summaryLine}
          renderItem={(record) => (
            <List.Item style={{ padding: 0, border: 0, marginBottom: 8 }}>
              <RecordCard
                record={record}
                titleField={titleField}
                statusField={statusField}
                fields={listFields}
                cell={(f, value) => cell(f, value, record)}
                buttons={buttonsOf(record)}
                t={t}
              />
            </List.Item>
          )}
        />
      </Card>
    );
  }

  return (
    <Card
      title={translate(pages.list?.entry.title ?? entity.title)}
      extra={
        <Space wrap>
          {pageButtons}
          <ColumnSettingsButton fields={listFields} settings={columnSettings} onChange={setColumnSettings} t={t} />
        </Space>
      }
    >
      {header}
      {filterForm}
      {stateTabs}
      <BulkActionBar entity={entity} actions={bulkActions} selected={selected} onDone={() => setSelected([])} />
      {selected.length > 0 && selectionPages.length > 0 && (
        <Space wrap style={{ marginBottom: 12 }} data-testid="selection-pages">
          {selectionPages.map((page) => {
            const chosen = selected.filter((record) => offeredOn(page, record));
            return (
              <Button key={page.route} type="primary" disabled={chosen.length === 0} data-testid={`selection-${page.entry.name}`} onClick={() => go({ to: selectionPath(page, chosen) })}>
                {translate(page.entry.title)} ({chosen.length})
              </Button>
            );
          })}
        </Space>
      )}
      <Table
        {...tableProps}
        rowKey="id"
        rowSelection={
          bulkActions.length > 0 || selectionPages.length > 0
            ? { selectedRowKeys: selected.map((record) => record.id!), onChange: (_keys, records) => setSelected(records), preserveSelectedRowKeys: true }
            : undefined
        }
        columns={columns}
        // natural column widths: a fixed layout would share the width out evenly and squeeze short values
        // letter by letter under the pinned action column
        tableLayout="auto"
        locale={{ emptyText: failed ?? emptyText }}
        footer={summaryLine ? () => summaryLine : undefined}
        onChange={(pagination, filters, sorter, extra) => {
          tableProps.onChange?.(pagination, filters, sorter, extra);
          if (extra.action === "paginate") scrollToTop();
        }}
        pagination={pagination}
      />
    </Card>
  );
}

export default withActionRunner(CrudList);
