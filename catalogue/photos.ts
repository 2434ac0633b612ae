/**
 * The provider's photo library (photolist, servicev2): its uploaded pictures in folders, picked from every image field
 * of the console (a goods item's pictures, a banner, a DIY page's image) instead of uploading the same picture again.
 * A picture is a stored upload (server/uploads) named here; deleting it from the library leaves the records that
 * show it as they are. The page is src/domains/retail/PhotoLibraryPage.tsx. Labels in locales/<lang>/photos.json.
 */
import type { CatalogueDomain, EntityDecl } from "../common/catalogue";
import { GOODS_MANAGERS } from "./goods";

export const photoFolderEntity: EntityDecl = {
  name: "photofolder",
  table: "photo_folders",
  scope: "provider",
  title: "photos.folder_entity",
  titleField: "title",
  defaultSort: { field: "sort", order: "asc" },
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS, add: GOODS_MANAGERS, edit: GOODS_MANAGERS, del: GOODS_MANAGERS },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "photos.folder_title", required: true, max: 20, unique: "tenant", list: true, filter: "like", form: true, detail: true },
    { name: "sort", type: "int", label: "field.sort", required: true, default: 0, min: 0, max: 9999, list: true, sortable: true, form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", detail: true },
  ],
};

export const photoEntity: EntityDecl = {
  name: "photo",
  table: "photos",
  scope: "provider",
  title: "photos.entity",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: GOODS_MANAGERS, info: GOODS_MANAGERS, add: GOODS_MANAGERS, edit: GOODS_MANAGERS, del: GOODS_MANAGERS },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "image", type: "image", label: "photos.image", required: true, list: true, form: "add", detail: true },
    { name: "title", type: "string", label: "photos.title", required: true, max: 60, list: true, filter: "like", form: true, detail: true },
    // none: not in a folder
    { name: "folder_id", type: "ref", ref: { entity: "photofolder" }, label: "photos.folder_entity", list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

export const photos: CatalogueDomain = {
  entities: [photoFolderEntity, photoEntity],
  pages: {
    photolist: { kind: "custom", id: "photolist", calls: ["photolist", "photoadd", "photoedit", "photodel", "photofolderlist", "photofolderadd", "photofolderedit", "photofolderdel"] },
  },
};
