/**
 * Choosing pictures from the provider's photo library (photolist, catalogue/photos.ts) for an image field: a folder
 * and a name narrow the library, a picture is chosen by a tap (several, up to what the field still takes, then
 * "use"). Offered by the image upload control to whoever may list the library.
 */
import { CheckCircleFilled } from "@ant-design/icons";
import { useList, useTranslation, type BaseRecord, type CrudFilter } from "@refinedev/core";
import { Button, Empty, Input, Modal, Pagination, Select, Space, Spin, Typography } from "antd";
import { useState } from "react";
import { hasAnyRole } from "../../common/roleKeys";
import { entityByName } from "../../resources.config";
import { currentRoles } from "../../providers/accessControl";
import { thumbnailUrl } from "./fieldKinds/formats";
import "./photoPicker.css";

const PAGE_SIZE = 24;
/** folders offered, at most (a provider keeps a few) */
const FOLDER_LIMIT = 100;

const PHOTOS = "photo";
const FOLDERS = "photofolder";

/** Whether the signed-in user may pick from the photo library. */
export function mayPickPhotos(): boolean {
  return hasAnyRole(currentRoles(), entityByName(PHOTOS)?.roles.list ?? []);
}

interface Props {
  open: boolean;
  /** how many pictures may be chosen (1: a tap chooses) */
  max: number;
  onChoose: (urls: string[]) => void;
  onClose: () => void;
}

export function PhotoPicker({ open, max, onChoose, onClose }: Props) {
  const { translate: t } = useTranslation();
  const [folder, setFolder] = useState<string>();
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<string[]>([]);
  const filters: CrudFilter[] = [
    ...(folder ? [{ field: "folder_id", operator: "eq" as const, value: folder }] : []),
    ...(search ? [{ field: "title", operator: "contains" as const, value: search }] : []),
  ];
  const { result: photos, query } = useList<BaseRecord>({
    resource: PHOTOS,
    filters,
    pagination: { currentPage: page, pageSize: PAGE_SIZE },
    queryOptions: { enabled: open },
    errorNotification: false,
  });
  const { result: folders } = useList<BaseRecord>({ resource: FOLDERS, pagination: { currentPage: 1, pageSize: FOLDER_LIMIT }, queryOptions: { enabled: open }, errorNotification: false });

  const close = () => {
    setChosen([]);
    onClose();
  };
  const choose = (url: string) => {
    if (max === 1) {
      onChoose([url]);
      close();
      return;
    }
    setChosen((list) => (list.includes(url) ? list.filter((u) => u !== url) : list.length < max ? [...list, url] : list));
  };

  return (
    <Modal
      open={open}
      title={t("photos.pick_title")}
      onCancel={close}
      width={760}
      destroyOnHidden
      footer={
        max === 1 ? null : (
          <Space>
            <Typography.Text type="secondary">{t("photos.pick_count", { count: chosen.length, max })}</Typography.Text>
            <Button onClick={close}>{t("crud.cancel")}</Button>
            <Button
              type="primary"
              disabled={chosen.length === 0}
              onClick={() => {
                onChoose(chosen);
                close();
              }}
              data-testid="photo-picker-use"
            >
              {t("photos.pick_use")}
            </Button>
          </Space>
        )
      }
      data-testid="photo-picker"
    >
      <Space wrap style={{ marginBottom: 12, width: "100%" }}>
        <Select
          allowClear
          placeholder={t("photos.all_folders")}
          value={folder}
          onChange={(value) => {
            setFolder(value);
            setPage(1);
          }}
          options={folders.data.map((f) => ({ value: String(f.id), label: String(f.title) }))}
          style={{ minWidth: 160 }}
          data-testid="photo-picker-folder"
        />
        <Input.Search
          allowClear
          placeholder={t("photos.search")}
          onSearch={(text) => {
            setSearch(text.trim());
            setPage(1);
          }}
          style={{ width: 220 }}
        />
      </Space>
      <Spin spinning={query.isFetching}>
        {photos.data.length === 0 && !query.isLoading ? (
          <Empty description={t("photos.pick_empty")} />
        ) : (
          <ul className="photo-grid" aria-label={t("photos.pick_title")}>
            {photos.data.map((photo) => {
              const url = String(photo.image);
              const picked = chosen.includes(url);
              return (
                <li key={String(photo.id)}>
                  <button type="button" className={picked ? "photo-tile picked" : "photo-tile"} aria-pressed={max === 1 ? undefined : picked} onClick={() => choose(url)} data-testid="photo-picker-tile">
                    <img src={thumbnailUrl(url)} alt="" loading="lazy" decoding="async" />
                    <span className="photo-tile-title">{String(photo.title)}</span>
                    {picked && <CheckCircleFilled className="photo-tile-check" />}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </Spin>
      {(photos.total ?? 0) > PAGE_SIZE && <Pagination size="small" align="center" current={page} pageSize={PAGE_SIZE} total={photos.total ?? 0} onChange={setPage} showSizeChanger={false} style={{ marginTop: 12 }} />}
    </Modal>
  );
}
