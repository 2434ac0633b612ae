/**
 * "Copy from an earlier ..." (ChildDecl `copyFromEarlier`): the parent entity's other records of the form's school,
 * newest first; the chosen one's child rows, read through its info (the server answers only a record of the caller's
 * tenant, and of the school the console acts in when one is chosen), are shown, then added to the form as rows.
 */
import { CopyOutlined } from "@ant-design/icons";
import { useList, useOne, useTranslation, type BaseRecord } from "@refinedev/core";
import { Button, Form, List, Modal, Select, Space } from "antd";
import { useState } from "react";
import { useParams } from "react-router";
import type { ChildDecl, EntityDecl } from "../../common/catalogue";
import { entities, entityByName } from "../../resources.config";
import { displayValue, inForm, type Translate } from "./fields";

/** The entity whose child rows `decl` declares. */
function parentOf(decl: ChildDecl): EntityDecl | undefined {
  return entities.find((e) => e.children?.includes(decl));
}

export function CopyChildRowsButton({ decl, room, onChoose }: { decl: ChildDecl; room: number; onChoose: (rows: Record<string, unknown>[]) => void }) {
  const { translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const parent = parentOf(decl);
  const child = entityByName(decl.entity);
  const schoolId = Form.useWatch("sch_id", Form.useFormInstance()) as number | undefined;
  const { id: editedId } = useParams();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<number | undefined>();
  const { result, query } = useList<BaseRecord>({
    resource: parent?.name ?? "",
    filters: schoolId ? [{ field: "sch_id", operator: "eq", value: schoolId }] : [],
    sorters: [{ field: "id", order: "desc" }],
    pagination: { currentPage: 1, pageSize: 50 },
    queryOptions: { enabled: Boolean(parent && open) },
    errorNotification: false,
  });
  const source = useOne<BaseRecord>({ resource: parent?.name ?? "", id: chosen, queryOptions: { enabled: Boolean(parent && open && chosen) }, errorNotification: false });
  if (!parent || !child) return null;
  const fields = child.fields.filter((f) => inForm(f, "add"));
  const rows = ((chosen && source.result?.[decl.name]) as Record<string, unknown>[] | undefined) ?? [];
  const copied = rows.slice(0, room).map((row) => Object.fromEntries(fields.map((f) => [f.name, row[f.name]])));
  const label = translate("crud.copy_from", { entity: translate(parent.title) });
  const close = () => {
    setOpen(false);
    setChosen(undefined);
  };
  const others = (result.data ?? []).filter((record) => String(record.id) !== String(editedId ?? ""));
  return (
    <>
      <Button icon={<CopyOutlined />} disabled={room <= 0} onClick={() => setOpen(true)} data-testid={`child-copy-${decl.name}`}>
        {label}
      </Button>
      <Modal
        open={open}
        title={label}
        okText={translate("crud.add_rows")}
        okButtonProps={{ disabled: copied.length === 0, ...{ "data-testid": `child-copy-${decl.name}-ok` } }}
        onCancel={close}
        onOk={() => {
          onChoose(copied);
          close();
        }}
        destroyOnHidden
      >
        <Select
          style={{ width: "100%" }}
          showSearch
          optionFilterProp="label"
          loading={query.isLoading}
          value={chosen}
          onChange={setChosen}
          placeholder={translate(parent.title)}
          notFoundContent={query.isLoading ? undefined : translate("crud.none_to_choose")}
          options={others.map((record) => ({ value: Number(record.id), label: String(record[parent.titleField] ?? record.id) }))}
          data-testid={`child-copy-${decl.name}-select`}
        />
        {chosen !== undefined && (
          <List
            size="small"
            style={{ marginTop: 12 }}
            loading={source.query.isLoading}
            dataSource={copied}
            locale={{ emptyText: translate("crud.none_to_choose") }}
            renderItem={(row) => (
              <List.Item>
                <Space wrap split="·">
                  {fields.map((f) => (
                    <span key={f.name}>{displayValue(f, row[f.name], t, row)}</span>
                  ))}
                </Space>
              </List.Item>
            )}
            data-testid={`child-copy-${decl.name}-rows`}
          />
        )}
      </Modal>
    </>
  );
}
