/**
 * The provider's photo library (custom page "photolist", catalogue/photos.ts): its folders beside (above, on a phone)
 * a grid of its pictures, narrowed by folder and name; pictures uploaded into the folder shown, several at once,
 * each named after its file; a picture renamed, moved to another folder or taken out of the library; folders added,
 * renamed and removed (a folder still holding pictures is kept, the server saying how many). Every image field of
 * the console picks from here (src/engine/PhotoPicker.tsx).
 */
import { DeleteOutlined, EditOutlined, FolderOutlined, MoreOutlined, PlusOutlined, UploadOutlined } from "@ant-design/icons";
import { useCreate, useDelete, useList, useUpdate, type BaseRecord, type CrudFilter } from "@refinedev/core";
import { Button, Card, Dropdown, Empty, Grid, Image, Input, Menu, Modal, Pagination, Select, Space, Spin, Typography, Upload } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { photoEntity, photoFolderEntity } from "../../../catalogue/photos";
import { feedback } from "../../../providers/feedback";
import { ERROR_TOAST_SECONDS } from "../../../providers/weapi";
import { IMAGE_ACCEPT, IMAGE_MAX_MB, sendImage } from "../../engine/ImageUpload";
import { shownImageUrl, thumbnailUrl } from "../../engine/fieldKinds/formats";
import type { CustomPageProps } from "..";
import "../../engine/photoPicker.css";

const PAGE_SIZE = 30;
const FOLDER_LIMIT = 100;
const TITLE_MAX = photoEntity.fields.find((f) => f.name === "title")!.max!;
const FOLDER_TITLE_MAX = photoFolderEntity.fields.find((f) => f.name === "title")!.max!;
/** what the folder choice holds when no folder narrows the pictures */
const ALL = "all";

/** A picture's name from its file's: without the extension, within the field's length. */
function titleOf(fileName: string): string {
  return (fileName.replace(/\.[^.]+$/, "").trim() || fileName).slice(0, TITLE_MAX);
}

/** A name asked for in a dialog: a folder's, or a picture's. */
function NameDialog({ title, initial, max, onSave, onClose }: { title: string; initial: string; max: number; onSave: (name: string) => Promise<void>; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!name.trim()) return;
    setSaving(true);
    try {
      await onSave(name.trim());
      onClose();
    } catch {
      // the server's refusal was shown; the dialog stays for another try
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open title={title} onCancel={onClose} onOk={() => void save()} okButtonProps={{ disabled: !name.trim(), loading: saving }} cancelText={t("crud.cancel")} okText={t("crud.save")} destroyOnHidden>
      <Input value={name} maxLength={max} showCount autoFocus onChange={(e) => setName(e.target.value)} onPressEnter={() => void save()} data-testid="photo-name-input" />
    </Modal>
  );
}

type Naming = { kind: "new-folder" } | { kind: "folder"; record: BaseRecord } | { kind: "photo"; record: BaseRecord };

export default function PhotoLibraryPage({ entry }: CustomPageProps) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const [folder, setFolder] = useState<string>(ALL);
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [uploading, setUploading] = useState(0);
  const [naming, setNaming] = useState<Naming>();
  const [preview, setPreview] = useState<string>();
  const uploads = useRef(0);

  const filters: CrudFilter[] = [
    ...(folder !== ALL ? [{ field: "folder_id", operator: "eq" as const, value: folder }] : []),
    ...(search ? [{ field: "title", operator: "contains" as const, value: search }] : []),
  ];
  const { result: photos, query } = useList<BaseRecord>({ resource: photoEntity.name, filters, pagination: { currentPage: page, pageSize: PAGE_SIZE }, sorters: [{ field: "id", order: "desc" }] });
  const { result: folders } = useList<BaseRecord>({ resource: photoFolderEntity.name, pagination: { currentPage: 1, pageSize: FOLDER_LIMIT } });
  const { mutateAsync: create } = useCreate();
  const { mutateAsync: update } = useUpdate();
  const { mutateAsync: remove } = useDelete();

  const chooseFolder = (key: string) => {
    setFolder(key);
    setPage(1);
  };
  const folderTitle = (id: unknown) => folders.data.find((f) => String(f.id) === String(id))?.title;

  const upload = (file: File) => {
    uploads.current += 1;
    setUploading(uploads.current);
    const done = () => {
      uploads.current -= 1;
      setUploading(uploads.current);
    };
    sendImage(file, {
      onDone: (sent) => {
        if (!("url" in sent)) {
          done();
          feedback().error(`${file.name}: ${sent.failure || t(sent.network ? "errors.network" : "errors.system")}`, ERROR_TOAST_SECONDS);
          return;
        }
        create({ resource: photoEntity.name, values: { image: sent.url, title: titleOf(file.name), ...(folder !== ALL ? { folder_id: Number(folder) } : {}) }, successNotification: false })
          .catch(() => undefined) // refine showed the refusal
          .finally(done);
      },
      onAbort: done,
    });
  };

  const saveName = async (name: string) => {
    if (!naming) return;
    if (naming.kind === "new-folder") {
      const made = await create({ resource: photoFolderEntity.name, values: { title: name }, successNotification: false });
      if (made.data?.id !== undefined) chooseFolder(String(made.data.id));
    } else {
      await update({ resource: naming.kind === "folder" ? photoFolderEntity.name : photoEntity.name, id: naming.record.id!, values: { title: name }, successNotification: false });
    }
  };
  const removeFolder = (record: BaseRecord) =>
    Modal.confirm({
      title: t("photos.folder_remove_confirm", { title: String(record.title) }),
      okButtonProps: { danger: true },
      okText: t("crud.delete"),
      cancelText: t("crud.cancel"),
      onOk: () =>
        remove({ resource: photoFolderEntity.name, id: record.id!, successNotification: false }).then(() => {
          if (folder === String(record.id)) chooseFolder(ALL);
        }),
    });
  const removePhoto = (record: BaseRecord) =>
    Modal.confirm({
      title: t("photos.remove_confirm", { title: String(record.title) }),
      content: t("photos.remove_note"),
      okButtonProps: { danger: true },
      okText: t("crud.delete"),
      cancelText: t("crud.cancel"),
      onOk: () => remove({ resource: photoEntity.name, id: record.id!, successNotification: false }),
    });

  const folderItems = [{ key: ALL, icon: <FolderOutlined />, label: t("photos.all_folders") }, ...folders.data.map((f) => ({ key: String(f.id), icon: <FolderOutlined />, label: String(f.title) }))];
  const current = folders.data.find((f) => String(f.id) === folder);
  const folderTools = current && (
    <Space size={4}>
      <Button size="small" icon={<EditOutlined />} onClick={() => setNaming({ kind: "folder", record: current })} data-testid="photo-folder-rename">
        {t("photos.folder_rename")}
      </Button>
      <Button size="small" danger icon={<DeleteOutlined />} onClick={() => removeFolder(current)} data-testid="photo-folder-remove">
        {t("photos.folder_remove")}
      </Button>
    </Space>
  );

  return (
    <Card title={t(entry.title)} data-testid="photo-library">
      <div style={{ display: "flex", gap: 16, flexDirection: screens.md ? "row" : "column" }}>
        <nav aria-label={t("photos.folder_entity")} style={{ flex: screens.md ? "0 0 200px" : undefined }}>
          {screens.md ? (
            <Menu mode="inline" selectedKeys={[folder]} items={folderItems} onClick={({ key }) => chooseFolder(key)} style={{ borderInlineEnd: 0 }} data-testid="photo-folders" />
          ) : (
            <Select value={folder} onChange={chooseFolder} options={folderItems.map((i) => ({ value: i.key, label: i.label }))} style={{ width: "100%" }} data-testid="photo-folders" />
          )}
          <Button type="dashed" block icon={<PlusOutlined />} onClick={() => setNaming({ kind: "new-folder" })} style={{ marginTop: 8 }} data-testid="photo-folder-add">
            {t("photos.folder_add")}
          </Button>
        </nav>
        <section style={{ flex: 1, minWidth: 0 }}>
          <Space wrap style={{ marginBottom: 12, width: "100%", justifyContent: "space-between" }}>
            <Space wrap>
              <Upload
                accept={IMAGE_ACCEPT.join(",")}
                multiple
                showUploadList={false}
                beforeUpload={(file) => {
                  if (!IMAGE_ACCEPT.includes(file.type)) feedback().error(`${file.name}: ${t("uploads.not_image")}`, ERROR_TOAST_SECONDS);
                  else if (file.size > IMAGE_MAX_MB * 1024 * 1024) feedback().error(`${file.name}: ${t("uploads.too_large", { max: IMAGE_MAX_MB })}`, ERROR_TOAST_SECONDS);
                  else upload(file);
                  // sent here, not by antd
                  return false;
                }}
              >
                <Button type="primary" icon={<UploadOutlined />} loading={uploading > 0} data-testid="photo-upload">
                  {uploading > 0 ? t("photos.uploading", { count: uploading }) : current ? t("photos.upload_into", { title: String(current.title) }) : t("photos.upload")}
                </Button>
              </Upload>
              {folderTools}
            </Space>
            <Input.Search
              allowClear
              placeholder={t("photos.search")}
              onSearch={(text) => {
                setSearch(text.trim());
                setPage(1);
              }}
              style={{ width: screens.sm ? 220 : "100%" }}
              data-testid="photo-search"
            />
          </Space>
          <Spin spinning={query.isFetching}>
            {photos.data.length === 0 && !query.isLoading ? (
              <Empty description={search || folder !== ALL ? t("photos.none_here") : t("photos.none")} />
            ) : (
              <ul className="photo-grid" data-testid="photo-grid">
                {photos.data.map((photo) => (
                  <li key={String(photo.id)}>
                    <div className="photo-tile" data-testid="photo-tile">
                      <button type="button" className="photo-tile-open" onClick={() => setPreview(shownImageUrl(String(photo.image)))} aria-label={t("uploads.preview")}>
                        <img src={thumbnailUrl(String(photo.image))} alt={String(photo.title)} loading="lazy" decoding="async" />
                      </button>
                      <div style={{ display: "flex", alignItems: "center", gap: 2 }}>
                        <span className="photo-tile-title" style={{ flex: 1 }} title={String(photo.title)}>
                          {String(photo.title)}
                        </span>
                        <Dropdown
                          trigger={["click"]}
                          menu={{
                            items: [
                              { key: "rename", icon: <EditOutlined />, label: t("photos.rename") },
                              {
                                key: "move",
                                icon: <FolderOutlined />,
                                label: t("photos.move"),
                                children: [{ key: "move:", label: t("photos.no_folder") }, ...folders.data.map((f) => ({ key: `move:${String(f.id)}`, label: String(f.title), disabled: String(f.id) === String(photo.folder_id) }))],
                              },
                              { key: "remove", icon: <DeleteOutlined />, danger: true, label: t("photos.remove") },
                            ],
                            onClick: ({ key }) => {
                              if (key === "rename") setNaming({ kind: "photo", record: photo });
                              else if (key === "remove") removePhoto(photo);
                              else if (key.startsWith("move:")) {
                                const to = key.slice("move:".length);
                                void update({ resource: photoEntity.name, id: photo.id!, values: { folder_id: to ? Number(to) : null }, successNotification: false }).then(() =>
                                  feedback().success(t("photos.moved", { folder: to ? String(folderTitle(to)) : t("photos.no_folder") })),
                                );
                              }
                            },
                          }}
                        >
                          <Button type="text" size="small" icon={<MoreOutlined />} aria-label={t("photos.actions", { title: String(photo.title) })} data-testid="photo-tile-menu" />
                        </Dropdown>
                      </div>
                      {folder === ALL && photo.folder_id ? <Typography.Text type="secondary" style={{ fontSize: 12 }}>{String(folderTitle(photo.folder_id) ?? "")}</Typography.Text> : null}
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </Spin>
          {(photos.total ?? 0) > PAGE_SIZE && (
            <Pagination size="small" align="center" current={page} pageSize={PAGE_SIZE} total={photos.total ?? 0} onChange={setPage} showSizeChanger={false} showTotal={(total) => t("photos.total", { count: total })} style={{ marginTop: 12 }} />
          )}
        </section>
      </div>
      {naming && (
        <NameDialog
          title={naming.kind === "new-folder" ? t("photos.folder_add") : naming.kind === "folder" ? t("photos.folder_rename") : t("photos.rename")}
          initial={naming.kind === "new-folder" ? "" : String(naming.record.title)}
          max={naming.kind === "photo" ? TITLE_MAX : FOLDER_TITLE_MAX}
          onSave={saveName}
          onClose={() => setNaming(undefined)}
        />
      )}
      {preview && <Image style={{ display: "none" }} src={preview} preview={{ visible: true, src: preview, onVisibleChange: (visible) => !visible && setPreview(undefined) }} />}
    </Card>
  );
}
