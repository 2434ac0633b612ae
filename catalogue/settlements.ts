/**
 * Settlement (settlerecord, v2 provider): what each school's channel took on a day (every payment paid to it: fees
 * and the school shop's orders) and what the school gets of it, `gross` (paid) less `refund` (refunds the gateway took that day) less `fee` (the channel's fee: the trade bill's
 * fee column once the day is reconciled, else the channel's rate) is `net`. A day is `settled` once its
 * reconciliation has no open difference, `pending` until then. Written by reconciliation
 * (server/domains/collection/settlements.ts); labels in locales/<lang>/settle.json.
 */
import type { CatalogueDomain, EntityDecl, FieldOption, OperationDecl } from "../common/catalogue";
import { schoolField } from "./shared";

/** Who reads settlements: the v2 provider (settlerecord) */
export const SETTLE_ROLES: readonly string[] = ["servicev2"];

export const settlementStates: FieldOption[] = [
  { value: "settled", label: "settle.status.settled", tone: "success", hint: "settle.hint.settled" },
  { value: "pending", label: "settle.status.pending", tone: "warning", hint: "settle.hint.pending" },
];

export const feeSources: FieldOption[] = [
  { value: "bill", label: "settle.fee_source.bill" },
  { value: "rate", label: "settle.fee_source.rate" },
];

export const settlementEntity: EntityDecl = {
  name: "settlement",
  table: "settlements",
  scope: "school",
  title: "settle.entity.settlement",
  titleField: "day",
  defaultSort: { field: "day", order: "desc" },
  stateField: "status",
  summary: ["gross", "refund", "fee", "net"],
  // a channel's day is replaced whole when it is settled again
  indexes: [["paychnl_id", "day"]],
  roles: { list: SETTLE_ROLES, info: SETTLE_ROLES },
  fields: [
    { name: "id", type: "int", label: "field.id", detail: true },
    { name: "day", type: "date", label: "settle.field.day", required: true, list: true, filter: "range", sortable: true, detail: true },
    schoolField,
    { name: "paychnl_id", type: "ref", ref: { entity: "paychnl" }, label: "recon.field.paychnl", required: true, list: true, filter: "eq", detail: true },
    { name: "status", type: "enum", label: "settle.field.status", required: true, default: "pending", options: settlementStates, list: true, filter: "eq", detail: true },
    { name: "orders", type: "int", label: "settle.field.orders", default: 0, min: 0, list: true, detail: true },
    { name: "gross", type: "money", label: "settle.field.gross", default: "0.00", list: true, sortable: true, detail: true },
    { name: "refunds", type: "int", label: "settle.field.refunds", default: 0, min: 0, detail: true },
    { name: "refund", type: "money", label: "settle.field.refund", default: "0.00", list: true, detail: true },
    { name: "fee", type: "money", label: "settle.field.fee", default: "0.00", list: true, detail: true },
    { name: "fee_source", type: "enum", label: "settle.field.fee_source", required: true, default: "rate", options: feeSources, detail: true },
    { name: "net", type: "money", label: "settle.field.net", default: "0.00", list: true, sortable: true, detail: true },
    { name: "updated_at", type: "datetime", label: "settle.field.updated_at", detail: true },
  ],
};

/**
 * settlesummary {}: each of the provider's channels with its net settled and its net pending, all days (the
 * payment accounts page, myaccountinfo): `data.items` [{paychnl_id, settled, pending}], yuan.
 */
export const settleSummaryOperation: OperationDecl = {
  name: "settlesummary",
  roles: SETTLE_ROLES,
  effect: "read",
  title: "settle.entity.settlement",
  submit: "settle.entity.settlement",
  fields: [],
};

export const settlements: CatalogueDomain = {
  entities: [settlementEntity],
  operations: [settleSummaryOperation],
  pages: {
    settlerecord: { kind: "list", entity: "settlement" },
  },
};
