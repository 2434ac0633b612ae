/**
 * Spreadsheet imports: the log of every import of an entity that declares `import` (who imported which file into
 * which school, when, how many rows and with which row errors). The imports themselves are the engine's
 * (server/engine/imports.ts, src/engine/ImportDialog.tsx); this log is written by them and only read here.
 */
import type { CatalogueDomain, EntityDecl } from "../common/catalogue";
import { schoolField } from "./shared";
import { billEntity } from "./collection";
import { studentEntity } from "./schools";

/** The entities whose imports are logged: every entity that declares `import`. */
const importedEntities: readonly EntityDecl[] = [studentEntity, billEntity];

/** Who reads the import log (spec 2.2, 2.3): the provider (both generations) and the provider's school staff. */
const IMPORT_LOG_ROLES: readonly string[] = ["service", "servicev2", "service_schadminv2"];

export const importLogEntity: EntityDecl = {
  name: "schoolimportlog",
  table: "school_import_logs",
  scope: "school",
  title: "import.entity",
  titleField: "filename",
  defaultSort: { field: "created_at", order: "desc" },
  roles: { list: IMPORT_LOG_ROLES, info: IMPORT_LOG_ROLES },
  fields: [
    { name: "id", type: "int", label: "field.id", detail: true },
    { name: "entity", type: "enum", label: "import.field.entity", required: true, options: importedEntities.map((e) => ({ value: e.name, label: e.title })), list: true, filter: "eq", detail: true },
    schoolField,
    { name: "filename", type: "string", label: "import.field.filename", required: true, max: 255, list: true, detail: true },
    { name: "username", type: "string", label: "import.field.username", required: true, max: 50, list: true, detail: true },
    { name: "created_at", type: "datetime", label: "import.field.created_at", list: true, filter: "range", sortable: true, detail: true },
    { name: "total", type: "int", label: "import.field.total", required: true, default: 0, list: true, detail: true },
    { name: "imported", type: "int", label: "import.field.imported", required: true, default: 0, list: true, detail: true },
    { name: "error_count", type: "int", label: "import.field.error_count", required: true, default: 0, list: true, detail: true },
    {
      name: "status",
      type: "enum",
      label: "import.field.status",
      required: true,
      options: [
        { value: "succeeded", label: "import.status.succeeded" },
        { value: "failed", label: "import.status.failed" },
      ],
      list: true,
      filter: "eq",
      detail: true,
    },
    // the row errors as JSON [{row, field, message}] (at most the answer's cap), in the importer's language
    { name: "errors", type: "text", label: "import.field.errors", detail: true },
  ],
};

export const imports: CatalogueDomain = {
  entities: [importLogEntity],
  pages: {
    schoolimportlog: { kind: "list", entity: "schoolimportlog" },
    // the bill imports of the provider's schools, with the import into a chosen activity (catalogue/collection.ts billEntity)
    activityimportlog: { kind: "list", entity: "schoolimportlog", filters: { entity: "bill" } },
  },
};
