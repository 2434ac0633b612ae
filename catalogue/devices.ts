/**
 * Devices: the cloud receipt printers of a provider (devicelist, deviceadd, deviceedit; v1 for service under its
 * schools, v2 for servicev2 under its settings), and their print jobs. A printer prints for the schools it names:
 * each order paid at one of them (fee or shop) queues a receipt for every auto-printing printer of the school, in
 * the payment's transaction, printed once per printer whatever retries or processes do (its job's de-duplication
 * key); a job is sent by the job queue and retried with backoff, and the provider prints an order again on purpose
 * (devicemtprint, a reprint marked as such). Vendors: Feie, Yilianyun (server/domains/devices/printers) and a
 * sandbox printer whose receipts are shown in the console as they would come out on 58 mm paper, switched offline
 * or out of paper at will. The printer's key and its account's secret are stored encrypted apart from the device
 * and never answered (server/domains/devices/devices.ts). Labels in locales/<lang>/devices.json.
 */
import type { ActionDecl, CatalogueDomain, EntityDecl, FieldOption, OperationDecl } from "../common/catalogue";
import { orderKinds } from "./fulfilment";
import { schoolField, yesNo } from "./shared";

/** who keeps printers and prints: the provider, of either generation */
export const DEVICE_MANAGERS = ["service", "servicev2"];
/** the page printing an order again is v2's (spec: devicemtprint) */
const MANUAL_PRINTERS = ["servicev2"];
/** copies of one receipt at most (Yilianyun's <MN> takes one digit) */
export const MAX_DEVICE_COPIES = 9;

export const printerVendors: FieldOption[] = [
  { value: "feie", label: "devices.vendor.feie" },
  { value: "yilianyun", label: "devices.vendor.yilianyun" },
  { value: "sandbox", label: "devices.vendor.sandbox" },
];

/** what the vendor last said of the printer */
export const printerStates: FieldOption[] = [
  { value: "unknown", label: "devices.state.unknown", tone: "default" },
  { value: "online", label: "devices.state.online", tone: "success" },
  { value: "offline", label: "devices.state.offline", tone: "error", hint: "devices.state.offline_hint" },
  { value: "no_paper", label: "devices.state.no_paper", tone: "warning", hint: "devices.state.no_paper_hint" },
];

/** the sandbox printer's state, switched by the provider to see what a failure does */
const sandboxStates: FieldOption[] = printerStates.filter((s) => s.value !== "unknown").map(({ value, label }) => ({ value, label }));

export const deviceEntity: EntityDecl = {
  name: "device",
  table: "devices",
  scope: "provider",
  title: "devices.entity.device",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: DEVICE_MANAGERS, info: DEVICE_MANAGERS, add: DEVICE_MANAGERS, edit: DEVICE_MANAGERS, del: DEVICE_MANAGERS },
  related: [{ entity: "printjob", field: "device_id", label: "devices.related.jobs" }],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "devices.field.title", required: true, max: 30, list: true, filter: "like", form: true, detail: true },
    { name: "vendor", type: "enum", label: "devices.field.vendor", required: true, default: "sandbox", options: printerVendors, list: true, filter: "eq", form: "add", detail: true },
    // Feie's SN, Yilianyun's machine code; the sandbox's any name
    { name: "sn", type: "string", label: "devices.field.sn", required: true, max: 40, pattern: "^[A-Za-z0-9_-]+$", patternMessage: "devices.errors.sn", unique: "tenant", list: true, filter: "eq", form: "add", detail: true },
    // the secrets: written, never read back (kept encrypted apart from the device); a cloud printer needs them
    { name: "printer_key", type: "password", label: "devices.field.printer_key", max: 64, form: true, virtual: true },
    { name: "account_user", type: "string", label: "devices.field.account_user", max: 64, form: true, detail: true },
    { name: "account_secret", type: "password", label: "devices.field.account_secret", max: 128, form: true, virtual: true },
    { name: "sch_ids", type: "ref", ref: { entity: "school" }, multiple: true, label: "devices.field.schools", required: true, list: true, form: true, detail: true },
    { name: "copies", type: "int", label: "devices.field.copies", required: true, default: 1, min: 1, max: MAX_DEVICE_COPIES, list: true, form: true, detail: true },
    { name: "auto_print", type: "yesno", label: "devices.field.auto_print", required: true, default: "Y", options: yesNo, list: true, filter: "eq", form: true, detail: true },
    // the sandbox printer's switch (a cloud printer keeps it at its default: the field shows for the sandbox only)
    { name: "sandbox_state", type: "enum", label: "devices.field.sandbox_state", required: true, default: "online", options: sandboxStates, form: true, formWhen: { field: "vendor", value: "sandbox" }, detail: true },
    { name: "status", type: "enum", label: "devices.field.status", required: true, default: "unknown", options: printerStates, list: true, filter: "eq", detail: true },
    { name: "status_at", type: "datetime", label: "devices.field.status_at", detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

export const printJobKinds: FieldOption[] = [
  { value: "auto", label: "devices.job_kind.auto" },
  { value: "manual", label: "devices.job_kind.manual" },
  { value: "reprint", label: "devices.job_kind.reprint" },
];

export const printJobStates: FieldOption[] = [
  { value: "queued", label: "devices.job_state.queued", tone: "processing" },
  { value: "sent", label: "devices.job_state.sent", tone: "processing", hint: "devices.job_state.sent_hint" },
  { value: "printed", label: "devices.job_state.printed", tone: "success" },
  { value: "failed", label: "devices.job_state.failed", tone: "error", hint: "devices.job_state.failed_hint" },
];

/** why a send failed, as the driver says it (server/domains/devices/printers/types.ts PrinterErrorCode) */
export const printErrors: FieldOption[] = ["auth", "offline", "no_paper", "rejected", "network", "device_gone"].map((code) => ({ value: code, label: `devices.print_error.${code}` }));

/** printjobretry {id}: a job that failed for good sent again, as it was (the same key: never printed twice) */
export const printJobRetry: ActionDecl = {
  name: "printjobretry",
  label: "devices.action.retry",
  confirm: "devices.action.retry_confirm",
  roles: DEVICE_MANAGERS,
  from: ["failed"],
  to: "queued",
};

export const printJobEntity: EntityDecl = {
  name: "printjob",
  table: "print_jobs",
  scope: "school",
  title: "devices.entity.printjob",
  titleField: "order_no",
  defaultSort: { field: "id", order: "desc" },
  stateField: "status",
  roles: { list: DEVICE_MANAGERS, info: DEVICE_MANAGERS },
  actions: [printJobRetry],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "device_id", type: "ref", ref: { entity: "device" }, label: "devices.entity.device", required: true, list: true, filter: "eq", detail: true },
    schoolField,
    { name: "order_kind", type: "enum", label: "retail.field.order_kind", required: true, options: orderKinds, list: true, filter: "eq", detail: true },
    { name: "order_no", type: "string", label: "collection.field.order_no", required: true, max: 32, list: true, filter: "eq", detail: true },
    { name: "kind", type: "enum", label: "devices.field.job_kind", required: true, options: printJobKinds, list: true, filter: "eq", detail: true },
    { name: "status", type: "enum", label: "devices.field.job_status", required: true, default: "queued", options: printJobStates, list: true, filter: "eq", detail: true },
    { name: "copies", type: "int", label: "devices.field.copies", required: true, default: 1, min: 1, max: MAX_DEVICE_COPIES, detail: true },
    { name: "attempts", type: "int", label: "devices.field.attempts", required: true, default: 0, list: true, detail: true },
    { name: "last_error", type: "enum", label: "devices.field.last_error", options: printErrors, list: true, detail: true },
    // one auto receipt per printer and order, whatever retries or processes do; a manual print or reprint its own
    { name: "dedupe_key", type: "string", label: "devices.field.dedupe_key", required: true, max: 32, unique: true, detail: true },
    { name: "provider_job_id", type: "string", label: "devices.field.provider_job_id", max: 64, detail: true },
    // the receipt as 58 mm paper shows it (32 columns a line), written when it is sent
    { name: "preview", type: "text", label: "devices.field.preview", max: 20_000, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, filter: "range", sortable: true, detail: true },
    { name: "sent_at", type: "datetime", label: "devices.field.sent_at", detail: true },
    { name: "printed_at", type: "datetime", label: "devices.field.printed_at", list: true, detail: true },
  ],
};

/** devicemtprint {device_id, order_no}: an order of the printer's schools printed on it now, on purpose. */
export const deviceManualPrint: OperationDecl = {
  name: "devicemtprint",
  roles: MANUAL_PRINTERS,
  effect: "write",
  title: "menu.devicemtprint",
  submit: "devices.action.print",
  invalidates: ["printjob"],
  fields: [
    { name: "device_id", type: "ref", ref: { entity: "device" }, label: "devices.entity.device", required: true },
    { name: "order_no", type: "string", label: "collection.field.order_no", required: true, max: 32, pattern: "^[0-9A-Za-z_-]+$" },
  ],
};

export const devices: CatalogueDomain = {
  entities: [deviceEntity, printJobEntity],
  operations: [deviceManualPrint],
  pages: {
    devicelist: { kind: "list", entity: "device" },
    deviceadd: { kind: "add", entity: "device" },
    deviceedit: { kind: "edit", entity: "device" },
    devicemtprint: { kind: "custom", id: "devicemtprint", calls: ["devicelist", "devicemtprint", "printjoblist", "printjobinfo"] },
  },
};
