/**
 * Retail: a provider's pickup points (distrilist), where payers collect goods and clerks verify their pickup codes.
 * A pickup point is the tenant of a pickup clerk: a clerk reads only the records of the points it verifies at
 * (tenantColumns.pickupPoint, the one tenant filter); every entity a clerk may read declares that column, or the
 * catalogue refuses to load (assemble.ts). Labels in locales/<lang>/retail.json.
 */
import type { CatalogueDomain, EntityDecl } from "../common/catalogue";
import { anyOf, PICKUP_ROLES } from "../common/roleKeys";
import { statusOptions } from "./shared";

/** who manages pickup points: the v2 provider (spec 2.3, distrilist) */
const POINT_MANAGERS = ["servicev2"];

/** A place where payers collect what they bought, served by the provider's pickup clerks (its verifiers). */
export const pickupPointEntity: EntityDecl = {
  name: "pickuppoint",
  table: "pickup_points",
  scope: "provider",
  // a clerk's points are its tenant: the point's own id
  tenantColumns: { pickupPoint: "id" },
  title: "retail.entity.pickuppoint",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  // a clerk reads its own points (the pickup records' filter names them)
  roles: { list: anyOf(POINT_MANAGERS, PICKUP_ROLES), info: anyOf(POINT_MANAGERS, PICKUP_ROLES), add: POINT_MANAGERS, edit: POINT_MANAGERS },
  fields: [
    { name: "id", type: "int", label: "field.id", list: true, sortable: true, detail: true },
    { name: "title", type: "string", label: "retail.field.point_title", required: true, max: 100, unique: "tenant", list: true, filter: "like", sortable: true, form: true, detail: true },
    { name: "address", type: "string", label: "field.address", required: true, max: 200, list: true, form: true, detail: true },
    { name: "phone", type: "phone", label: "field.phone", max: 20, list: true, form: true, detail: true },
    // as the payer reads it on the shop's pickup choice: "周一至周五 07:30-17:30"
    { name: "opening_hours", type: "string", label: "retail.field.opening_hours", max: 100, list: true, form: true, detail: true },
    // the pickup accounts of the provider that verify codes here
    { name: "verifiers", type: "ref", ref: { entity: "users", where: { user_type: "pickup" } }, multiple: true, label: "retail.field.verifiers", list: true, form: true, detail: true },
    // the schools whose payers may choose it
    { name: "sch_ids", type: "ref", ref: { entity: "school" }, multiple: true, label: "retail.field.sch_ids", required: true, list: true, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

export const retail: CatalogueDomain = {
  entities: [pickupPointEntity],
  pages: {
    distrilist: { kind: "list", entity: "pickuppoint" },
  },
};
