/**
 * What an empty list says instead of a bare "no data": with filters applied, that no record matches them and a
 * button to clear them; without, that there are no records yet and what to do next, adding the first one or
 * importing them where the user may, or only that when the user may do neither.
 */
import { ClearOutlined, PlusOutlined, UploadOutlined } from "@ant-design/icons";
import { Button, Empty, Space } from "antd";
import type { Translate } from "./fields";

export interface EmptyListProps {
  t: Translate;
  /** filters the user chose are applied */
  filtered: boolean;
  onClearFilters(): void;
  /** opens the add form or dialog, when the user may add */
  onAdd?: () => void;
  /** opens the import dialog, when the entity declares an import the user may run */
  onImport?: () => void;
}

function hint(t: Translate, add: boolean, importing: boolean): string | undefined {
  if (add && importing) return t("crud.empty_add_import");
  if (add) return t("crud.empty_add");
  if (importing) return t("crud.empty_import");
  return undefined;
}

export function EmptyList({ t, filtered, onClearFilters, onAdd, onImport }: EmptyListProps) {
  if (filtered) {
    return (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("crud.empty_filtered")} data-testid="list-empty-filtered">
        <Button icon={<ClearOutlined />} onClick={onClearFilters} data-testid="list-clear-filters">
          {t("crud.clear_filters")}
        </Button>
      </Empty>
    );
  }
  const next = hint(t, Boolean(onAdd), Boolean(onImport));
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <>
          <div>{t("crud.empty")}</div>
          {next && <div>{next}</div>}
        </>
      }
      data-testid="list-empty"
    >
      {(onAdd || onImport) && (
        <Space wrap style={{ justifyContent: "center" }}>
          {onAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={onAdd} data-testid="list-empty-add">
              {t("crud.add")}
            </Button>
          )}
          {onImport && (
            <Button icon={<UploadOutlined />} onClick={onImport} data-testid="list-empty-import">
              {t("import.button")}
            </Button>
          )}
        </Space>
      )}
    </Empty>
  );
}
