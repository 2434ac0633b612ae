/**
 * The audit log (auditlog): who did what to which record, when, from where, with the change, as every operation
 * wrote it (server/auth/audit.ts). The platform's operators read every entry, a provider those of its own provider;
 * each entry carries its provider and school, so that the one tenant filter holds it. Never added nor edited. Its
 * table is written by hand (server/db/schema.ts `auditLog`) and read by the engine by its columns' names
 * (server/db/referableTables.ts). Labels in locales/<lang>/audit.json.
 */
import type { CatalogueDomain, EntityDecl } from "../common/catalogue";
import { anyOf, OPERATOR_ROLES, PROVIDER_ROLES } from "../common/roleKeys";

export const AUDIT_READERS = anyOf(OPERATOR_ROLES, PROVIDER_ROLES);

export const auditLogEntity: EntityDecl = {
  name: "auditlog",
  table: "audit_log",
  ownTable: true,
  scope: "provider",
  title: "audit.entity",
  titleField: "action",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: AUDIT_READERS, info: AUDIT_READERS },
  exportOperation: "auditlogexport",
  fields: [
    { name: "id", type: "int", label: "field.id", detail: true },
    { name: "at", type: "datetime", label: "audit.field.at", list: true, filter: "range", detail: true },
    { name: "username", type: "string", label: "audit.field.username", max: 50, list: true, filter: "eq", detail: true },
    { name: "action", type: "string", label: "audit.field.action", max: 50, list: true, filter: "eq", detail: true },
    { name: "entity", type: "string", label: "audit.field.entity", max: 50, list: true, filter: "eq", detail: true },
    { name: "entity_id", type: "string", label: "audit.field.entity_id", max: 50, list: true, filter: "eq", detail: true },
    { name: "sch_id", type: "ref", ref: { entity: "school" }, label: "entity.school", list: true, filter: "eq", detail: true },
    { name: "detail", type: "json", label: "audit.field.detail", list: true, detail: true, exported: true },
    { name: "ip", type: "string", label: "audit.field.ip", max: 64, list: true, detail: true },
    { name: "user_id", type: "int", label: "audit.field.user_id", detail: true },
  ],
};

export const audit: CatalogueDomain = {
  entities: [auditLogEntity],
  pages: { auditlog: { kind: "list", entity: "auditlog" } },
};
