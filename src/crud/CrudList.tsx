/**
 * Generic list page of a catalogue entity: filter bar (like -> text, eq -> select, range -> date range),
 * sortable columns, the shared pagination control of spec 2.4, buttons to the add / edit / detail routes, and
 * an export of the filtered list when the entity has an export operation. Filters fixed by the page's menu
 * entry are always sent and never shown.
 */
import { Button, Card, Form, Popconfirm, Space, Table } from "antd";
import type { TableProps } from "antd";
import { DownloadOutlined, EyeOutlined, EditOutlined, PlusOutlined, ReloadOutlined, SearchOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useParams } from "react-router";
import { useTable, getDefaultSortOrder } from "@refinedev/antd";
import { useGo, usePermissions, useTranslation, type BaseRecord, type CrudFilter, type CrudSort, type HttpError } from "@refinedev/core";
import type { EntityDecl, FieldDecl, MenuEntry, RowAction } from "../../common/catalogue";
import { hasAnyRole } from "../../common/roleKeys";
import { builtRoute, type BuiltPage } from "./builtPages";
import { DEFAULT_API_PATH, filterPayload, scope as tenantScope, sortPayload } from "../../providers/dataProvider";
import { feedback } from "../../providers/feedback";
import { weapi } from "../../providers/weapi";
import { displayValue, FilterControl, filterValueProps, type Translate } from "./fields";
import { recordPath, resourceByIdentifier, useEntityAbility } from "./resources";
import { scrollToTop } from "./scrollToTop";

export const PAGE_SIZE_OPTIONS = [10, 20, 30, 50];
export const DEFAULT_PAGE_SIZE = 20;

type FilterValues = Record<string, unknown>;
type LinkedPage = { entry: MenuEntry; route: string };

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

/** An exported file as the export operations answer it (data.items). */
interface ExportFile {
  filename: string;
  mime: string;
  content_base64: string;
}

function saveFile({ filename, mime, content_base64 }: ExportFile): void {
  const bytes = Uint8Array.from(atob(content_base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: mime }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** Calls the entity's export operation with the list's filters and sort, and saves the file it returns. */
async function exportList(entity: EntityDecl, operation: string, filters: readonly CrudFilter[], sorters: readonly CrudSort[]): Promise<void> {
  const sort = sortPayload(entity, sorters);
  const res = await weapi<{ items?: ExportFile }>(entity.apiPath ?? DEFAULT_API_PATH, operation, {
    ...tenantScope(),
    ...filterPayload(entity, filters),
    ...(sort ? { sort } : {}),
  });
  if (res.return_code === "SUCCESS" && res.data?.items) saveFile(res.data.items);
}

/**
 * The hidden routes of the list's group that name this list as their menu, as the user's roles allow: those
 * with an :id open a row (a provider's contract maintenance and its activation codes beside the provider
 * list), the other custom ones stand beside Add (generating activation codes beside the code list).
 */
function useLinkedPages(list: BuiltPage | undefined, entity: EntityDecl): Record<"recordPages" | "listPages", LinkedPage[]> {
  const { data: roles } = usePermissions<string[]>({});
  if (!list || !roles || !hasAnyRole(roles, list.group.roles)) return { recordPages: [], listPages: [] };
  const { group, entry: listEntry } = list;
  const linked = group.children
    .filter((entry) => entry.hidden && entry.activeMenu === listEntry.name && entry.page && hasAnyRole(roles, entry.roles))
    .map((entry) => ({ entry, route: builtRoute(group, entry) }));
  return {
    recordPages: linked.filter(({ entry }) => entry.params?.includes(":id") && (entry.page!.kind === "custom" || entry.page!.entity !== entity.name)),
    listPages: linked.filter(({ entry }) => !entry.params?.length && entry.page!.kind === "custom"),
  };
}

/** The entity's row actions the user's roles allow. */
function useRowActions(entity: EntityDecl): RowAction[] {
  const { data: roles } = usePermissions<string[]>({});
  return roles ? (entity.rowActions ?? []).filter((action) => hasAnyRole(roles, action.roles)) : [];
}

/** A row action's button: asks first, then calls the operation with the row's id and shows the server's answer. */
function RowActionButton({ entity, action, record, onDone }: { entity: EntityDecl; action: RowAction; record: BaseRecord; onDone: () => void }) {
  const { translate } = useTranslation();
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    try {
      const res = await weapi(entity.apiPath ?? DEFAULT_API_PATH, action.operation, { id: record.id });
      if (res.return_code === "SUCCESS") {
        feedback().success(res.return_msg);
        onDone();
      }
    } catch {
      // the client showed the error
    } finally {
      setRunning(false);
    }
  };
  return (
    <Popconfirm title={translate(action.confirm)} okText={translate("common.confirm")} cancelText={translate("common.cancel")} onConfirm={() => run()}>
      <Button size="small" danger loading={running} data-testid={`row-${action.operation}`}>
        {translate(action.label)}
      </Button>
    </Popconfirm>
  );
}

export default function CrudList({ resource }: { resource: string }) {
  const { entity, pages } = resourceByIdentifier(resource);
  const { translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const may = useEntityAbility(entity);
  const go = useGo();
  const [exporting, setExporting] = useState(false);
  const listRef = pages.list?.entry.page;
  const { id: recordId } = useParams();
  const listPage = listRef?.kind === "list" ? listRef : undefined;
  const fixedFilters = Object.entries({
    ...listPage?.filters,
    ...(listPage?.recordFilter && recordId ? { [listPage.recordFilter]: recordId } : {}),
  });
  const filterFields = entity.fields.filter((f) => f.filter && !fixedFilters.some(([name]) => name === f.name));

  const { tableProps, searchFormProps, sorters, filters, tableQuery } = useTable<BaseRecord, HttpError, FilterValues>({
    resource,
    syncWithLocation: true,
    pagination: { currentPage: 1, pageSize: DEFAULT_PAGE_SIZE, mode: "server" },
    sorters: { initial: entity.defaultSort ? [{ field: entity.defaultSort.field, order: entity.defaultSort.order }] : [] },
    filters: { permanent: fixedFilters.map(([field, value]) => ({ field, operator: "eq", value })) },
    // the weapi client has already shown the server's message
    errorNotification: false,
    onSearch: (values) => filterFields.map((f) => toCrudFilter(f, values[f.name])),
  });

  const columns: NonNullable<TableProps<BaseRecord>["columns"]> = entity.fields
    .filter((f) => f.list)
    .map((f) => ({
      key: f.name,
      dataIndex: f.name,
      title: translate(f.label),
      sorter: f.sortable ? true : undefined,
      sortOrder: f.sortable ? (getDefaultSortOrder(f.name, sorters) ?? null) : undefined,
      render: (value: unknown) => displayValue(f, value, t),
    }));
  const edit = pages.edit && may("edit") ? pages.edit : undefined;
  const show = pages.info && may("info") ? pages.info : undefined;
  const { recordPages, listPages } = useLinkedPages(pages.list, entity);
  const rowActions = useRowActions(entity);
  if (edit || show || recordPages.length > 0 || rowActions.length > 0) {
    columns.push({
      key: "actions",
      title: translate("crud.actions"),
      fixed: "right",
      render: (_: unknown, record: BaseRecord) => (
        <Space size="small">
          {edit && (
            <Button size="small" icon={<EditOutlined />} onClick={() => go({ to: recordPath(edit.route, record.id) })}>
              {translate("crud.edit")}
            </Button>
          )}
          {show && (
            <Button size="small" icon={<EyeOutlined />} onClick={() => go({ to: recordPath(show.route, record.id) })}>
              {translate("crud.detail")}
            </Button>
          )}
          {recordPages.map((page) => (
            <Button key={page.route} size="small" data-testid={`row-${page.entry.name}`} onClick={() => go({ to: recordPath(page.route, record.id) })}>
              {translate(page.entry.title)}
            </Button>
          ))}
          {rowActions
            .filter(({ when }) => !when || String(record[when.field]) === when.value)
            .map((action) => (
              <RowActionButton key={action.operation} entity={entity} action={action} record={record} onDone={() => void tableQuery.refetch()} />
            ))}
        </Space>
      ),
    });
  }

  const add = pages.add && may("add") ? pages.add : undefined;
  const exportOperation = entity.exportOperation;
  const onExport = async (operation: string) => {
    setExporting(true);
    try {
      await exportList(entity, operation, filters, sorters);
    } catch {
      // the client showed the error
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card
      title={translate(pages.list?.entry.title ?? entity.title)}
      extra={
        <Space>
          {exportOperation && (
            <Button icon={<DownloadOutlined />} loading={exporting} data-testid="export-button" onClick={() => void onExport(exportOperation)}>
              {translate("crud.export")}
            </Button>
          )}
          {listPages.map((page) => (
            <Button key={page.route} type="primary" icon={<PlusOutlined />} data-testid={`open-${page.entry.name}`} onClick={() => go({ to: page.route })}>
              {translate(page.entry.title)}
            </Button>
          ))}
          {add && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => go({ to: add.route })}>
              {translate("crud.add")}
            </Button>
          )}
        </Space>
      }
    >
      {filterFields.length > 0 && (
        <Form {...searchFormProps} layout="inline" style={{ marginBottom: 16, rowGap: 8 }}>
          {filterFields.map((f) => (
            <Form.Item key={f.name} name={f.name} label={translate(f.label)} {...filterValueProps(f)}>
              <FilterControl field={f} t={t} />
            </Form.Item>
          ))}
          <Form.Item>
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
      )}
      <Table
        {...tableProps}
        rowKey="id"
        columns={columns}
        onChange={(pagination, filters, sorter, extra) => {
          tableProps.onChange?.(pagination, filters, sorter, extra);
          if (extra.action === "paginate") scrollToTop();
        }}
        pagination={
          tableProps.pagination && {
            ...tableProps.pagination,
            simple: false,
            position: ["bottomRight"],
            pageSizeOptions: PAGE_SIZE_OPTIONS,
            showSizeChanger: true,
            showQuickJumper: true,
            showTotal: (total) => translate("crud.total", { total }),
          }
        }
      />
    </Card>
  );
}
