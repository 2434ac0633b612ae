/**
 * Fee collection, the money in: a school's activities (what is collected, from whom, between which dates) with
 * their fee items, and the bills an activity opens for each student it targets. The server side is
 * server/domains/collection/; labels are in locales/<lang>/collection.json.
 */
import type { ActionDecl, CatalogueDomain, EntityDecl, FieldOption, OperationDecl, PageRef } from "../common/catalogue";
import { anyOf, PROVIDER_ROLES, PROVIDER_STAFF_ROLES, SCHOOL_ROLES } from "../common/roleKeys";
import { orderEntity, orderEventEntity, orderGoodsEntity, orderLineEntity, PAID_ORDER_STATES, qrChannelEntity } from "./collectionOrders";
import { schoolField, yesNo } from "./shared";

/** the most a single fee item or bill may be, in yuan */
export const MAX_FEE_YUAN = 1_000_000;

/** Who sees a school's activities and bills: the v1 school and provider, the v2 provider and its staff, the v2 school. */
const COLLECTION_READERS = anyOf(["school", "service"], ["servicev2"], PROVIDER_STAFF_ROLES, SCHOOL_ROLES);
/** Who makes activities, opens and closes them and settles bills: the v1 school and provider, the v2 provider. */
const COLLECTION_MANAGERS: readonly string[] = anyOf(["school"], PROVIDER_ROLES);

export const amountModes: FieldOption[] = [
  { value: "fixed", label: "collection.amount_mode.fixed" },
  { value: "open", label: "collection.amount_mode.open" },
];

/** A fee item of an activity (tuition, books, a voluntary donation): a child record, edited in the activity's form. */
export const activityItemEntity: EntityDecl = {
  name: "activityitem",
  table: "activity_items",
  scope: "school",
  title: "collection.entity.activityitem",
  titleField: "title",
  defaultSort: { field: "sort", order: "asc" },
  // reached only through its activity
  roles: {},
  fields: [
    { name: "id", type: "int", label: "field.id" },
    { name: "activity_id", type: "ref", ref: { entity: "activity" }, label: "collection.field.activity", required: true },
    { name: "sort", type: "int", label: "field.sort", default: 0, min: 0, max: 9999 },
    { name: "title", type: "string", label: "collection.field.item_title", required: true, max: 50, form: true },
    { name: "amount", type: "money", label: "collection.field.item_amount", required: true, min: 0, max: MAX_FEE_YUAN, form: true },
    { name: "amount_mode", type: "enum", label: "collection.field.amount_mode", required: true, default: "fixed", options: amountModes, form: true },
    { name: "required", type: "yesno", label: "collection.field.item_required", required: true, default: "Y", options: yesNo, form: true },
    // goods the item is (a uniform; a goods item of the provider): the payer chooses its size (SKU) and how to
    // receive it before paying, and the order carries it to delivery or pickup (catalogue/fulfilment.ts)
    { name: "goods_id", type: "ref", ref: { entity: "goods" }, label: "collection.field.item_goods", form: true },
  ],
};

/** Opening an activity bills its students; closing it closes the bills still unpaid. */
export const activityAct: ActionDecl = {
  name: "activityact",
  label: "collection.act",
  confirm: "collection.act_confirm",
  roles: COLLECTION_MANAGERS,
  from: ["draft", "open"],
  to: ["open", "closed"],
  byState: {
    draft: { label: "collection.act_open", values: { act: "open" } },
    open: { label: "collection.act_close", values: { act: "close" } },
  },
  fields: [
    {
      name: "act",
      type: "enum",
      label: "collection.field.act",
      required: true,
      options: [
        { value: "open", label: "collection.act_open" },
        { value: "close", label: "collection.act_close" },
      ],
    },
  ],
};

export const activityStates: FieldOption[] = [
  { value: "draft", label: "collection.activity_status.draft", tone: "default" },
  { value: "open", label: "collection.activity_status.open", tone: "processing" },
  { value: "closed", label: "collection.activity_status.closed", tone: "success" },
];

export const activityTargets: FieldOption[] = [
  { value: "school", label: "collection.target.school" },
  { value: "grades", label: "collection.target.grades" },
  { value: "classes", label: "collection.target.classes" },
  { value: "students", label: "collection.target.students" },
];

/**
 * A collection activity of a school (activitylist; v1 school and service pages, v2 provider and staff): its fee
 * items, whom it bills (the whole school, grades, classes or named students) and its dates. Edited while a draft;
 * `activityact` opens it (a bill per active student targeted, for the required fixed items) and closes it.
 */
export const activityEntity: EntityDecl = {
  name: "activity",
  table: "activities",
  scope: "school",
  title: "collection.entity.activity",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  stateField: "status",
  editableIn: ["draft"],
  actions: [activityAct],
  roles: { list: COLLECTION_READERS, info: COLLECTION_READERS, add: COLLECTION_MANAGERS, edit: COLLECTION_MANAGERS, del: COLLECTION_MANAGERS },
  children: [
    {
      name: "items",
      entity: "activityitem",
      parentField: "activity_id",
      label: "collection.field.items",
      min: 1,
      max: 20,
      // what every targeted student owes: the required items of a fixed amount
      total: { field: "amount", into: "amount", when: { required: "Y", amount_mode: "fixed" } },
      // copied from an earlier activity of the school
      copyFromEarlier: true,
      // a fee project's item; an open project's lowest amount is the item's suggested one
      startFrom: ["project", "serviceproject"].map((entity) => ({
        entity,
        copy: { title: ["title"], amount: ["amount", "min_amount"], amount_mode: ["amount_mode"], required: ["required"] },
      })),
    },
  ],
  related: [{ entity: "bill", field: "activity_id", label: "collection.bills" }],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "title", type: "string", label: "collection.field.activity_title", required: true, max: 100, list: true, filter: "like", form: true, detail: true },
    schoolField,
    { name: "status", type: "enum", label: "collection.field.activity_status", required: true, default: "draft", options: activityStates, list: true, filter: "eq", detail: true },
    { name: "start_date", type: "date", label: "collection.field.start_date", required: true, list: true, filter: "range", sortable: true, form: true, detail: true },
    { name: "end_date", type: "date", label: "collection.field.end_date", required: true, list: true, sortable: true, form: true, detail: true },
    { name: "auto_open", type: "yesno", label: "collection.field.auto_open", required: true, default: "N", options: yesNo, form: true, detail: true },
    { name: "target", type: "enum", label: "collection.field.target", required: true, default: "school", options: activityTargets, list: true, form: true, detail: true },
    { name: "grade_ids", type: "ref", ref: { entity: "grade" }, multiple: true, label: "collection.field.grade_ids", form: true, formWhen: { field: "target", value: "grades" }, detail: true },
    { name: "class_ids", type: "ref", ref: { entity: "classes" }, multiple: true, label: "collection.field.class_ids", form: true, formWhen: { field: "target", value: "classes" }, detail: true },
    { name: "student_ids", type: "ref", ref: { entity: "student" }, multiple: true, label: "collection.field.student_ids", form: true, formWhen: { field: "target", value: "students" }, detail: true },
    { name: "amount", type: "money", label: "collection.field.amount_due", default: "0.00", list: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

export const billStates: FieldOption[] = [
  { value: "unpaid", label: "collection.bill_status.unpaid", tone: "warning" },
  { value: "paid", label: "collection.bill_status.paid", tone: "success" },
  { value: "part_refunded", label: "collection.bill_status.part_refunded", tone: "processing" },
  { value: "refunded", label: "collection.bill_status.refunded", tone: "default" },
  { value: "waived", label: "collection.bill_status.waived", tone: "default" },
  { value: "closed", label: "collection.bill_status.closed", tone: "default" },
  // paid by an order whose line held another amount (the bill changed while it was open): paid_amount is what came
  // in, the school settles the difference by hand; counted apart on the board
  { value: "amount_differs", label: "collection.bill_status.amount_differs", tone: "error" },
];

const reasonField = { name: "reason", type: "text", label: "collection.field.reason", required: true, max: 200 } as const;

export const billWaive: ActionDecl = {
  name: "billwaive",
  label: "collection.waive",
  confirm: "collection.waive_confirm",
  roles: COLLECTION_MANAGERS,
  from: ["unpaid"],
  to: "waived",
  bulk: true,
  danger: true,
  fields: [reasonField],
};

/**
 * A reminder to the guardian of an unpaid bill, through the notifier (server/notify/): one by one or for a
 * selection; a guardian reminded less than a day ago is not reminded again (the row says when they were).
 */
export const billRemind: ActionDecl = {
  name: "billremind",
  label: "notices.remind",
  confirm: "notices.remind_confirm",
  roles: COLLECTION_READERS,
  from: ["unpaid"],
  bulk: true,
  implementedBy: "domain",
};

export const billAdjust: ActionDecl = {
  name: "billadjust",
  label: "collection.adjust",
  confirm: "collection.adjust_confirm",
  roles: COLLECTION_MANAGERS,
  from: ["unpaid"],
  fields: [{ name: "amount", type: "money", label: "collection.field.new_amount", required: true, min: 0.01, max: MAX_FEE_YUAN }, reasonField],
};

/**
 * What a bill covers when it was imported (server/domains/collection/billImport.ts): the student's own fee items and
 * amounts, a copy taken at the import, shown to the payer. A bill without them covers its activity's required fixed
 * items.
 */
export const billItemEntity: EntityDecl = {
  name: "billitem",
  table: "bill_items",
  scope: "school",
  title: "collection.bill_import.billitem",
  titleField: "title",
  defaultSort: { field: "sort", order: "asc" },
  // reached only through its bill
  roles: {},
  fields: [
    { name: "id", type: "int", label: "field.id" },
    { name: "bill_id", type: "ref", ref: { entity: "bill" }, label: "collection.entity.bill", required: true },
    { name: "sort", type: "int", label: "field.sort", default: 0, min: 0, max: 9999 },
    { name: "title", type: "string", label: "collection.field.item_title", required: true, max: 50, form: true },
    { name: "amount", type: "money", label: "collection.field.item_amount", required: true, min: 0, max: MAX_FEE_YUAN, form: true },
  ],
};

/** What one student owes for one activity: made when the activity opens (or imported), paid through the payer page. */
export const billEntity: EntityDecl = {
  name: "bill",
  table: "bills",
  scope: "school",
  title: "collection.entity.bill",
  titleField: "student_id",
  defaultSort: { field: "id", order: "desc" },
  stateField: "status",
  actions: [billRemind, billWaive, billAdjust],
  exportOperation: "billexport",
  roles: { list: COLLECTION_READERS, info: COLLECTION_READERS },
  // an .xlsx of student numbers and each fee item's amount for one activity (server/domains/collection/billImport.ts)
  import: {
    operation: "billimport",
    templateOperation: "billimporttemplate",
    columns: [],
    hint: "collection.bill_import.hint",
    roles: COLLECTION_MANAGERS,
    into: { field: "activity_id", entity: "activity", states: ["draft", "open"] },
  },
  children: [{ name: "items", entity: "billitem", parentField: "bill_id", label: "collection.bill_import.items", max: 20 }],
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "activity_id", type: "ref", ref: { entity: "activity" }, label: "collection.field.activity", required: true, list: true, filter: "eq", detail: true },
    schoolField,
    // one bill per student and activity
    { name: "student_id", type: "ref", ref: { entity: "student" }, label: "collection.field.student", required: true, unique: { within: "activity_id" }, list: true, filter: "eq", detail: true },
    { name: "class_id", type: "ref", ref: { entity: "classes" }, label: "field.classes", required: true, list: true, filter: "eq", detail: true },
    { name: "amount", type: "money", label: "collection.field.bill_amount", required: true, list: true, sortable: true, detail: true },
    { name: "paid_amount", type: "money", label: "collection.field.paid_amount", default: "0.00", list: true, detail: true },
    { name: "refunded_amount", type: "money", label: "collection.field.refunded_amount", default: "0.00", detail: true },
    { name: "status", type: "enum", label: "collection.field.bill_status", required: true, default: "unpaid", options: billStates, list: true, filter: "eq", detail: true },
    { name: "remark", type: "text", label: "collection.field.remark", max: 200, detail: true },
    { name: "paid_at", type: "datetime", label: "collection.field.paid_at", list: true, sortable: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", detail: true },
  ],
};

/** An activity's board: per class, its bills, how many are paid, the amounts due and collected. */
export const activityBoardOperation: OperationDecl = {
  name: "activityboard",
  roles: COLLECTION_READERS,
  effect: "read",
  title: "collection.board.title",
  submit: "collection.board.title",
  fields: [{ name: "id", type: "int", label: "collection.field.activity", required: true, min: 1 }],
};

const voucherPage: PageRef = {
  kind: "custom",
  id: "vouchers",
  calls: ["orderprint", "orderprintpdf"],
  offeredWhen: { field: "status", values: PAID_ORDER_STATES },
  selection: true,
};

export const collection: CatalogueDomain = {
  entities: [activityEntity, activityItemEntity, billEntity, billItemEntity, orderEntity, orderLineEntity, orderGoodsEntity, orderEventEntity, qrChannelEntity],
  operations: [activityBoardOperation],
  pages: {
    activitylist: { kind: "list", entity: "activity" },
    activityadd: { kind: "add", entity: "activity" },
    activityedit: { kind: "edit", entity: "activity" },
    service_activitylist: { kind: "list", entity: "activity" },
    service_activityadd: { kind: "add", entity: "activity" },
    service_activityedit: { kind: "edit", entity: "activity" },
    // an activity's board: each class's collection and the students still to pay
    activityact: { kind: "custom", id: "activityboard", calls: ["activityinfo", "activityboard", "arrearslist", "guardianphone", "activityact"] },
    // fee orders: v1's orderlist is its order group's (v2's orderlist is the retail shop's)
    "order/orderlist": { kind: "list", entity: "order" },
    orderinfo: { kind: "info", entity: "order" },
    // v2's order group shares v1's path ("order") under its own route names: its own resource
    orderlistv2: { kind: "list", entity: "order", view: "v2" },
    orderinfov2: { kind: "info", entity: "order", view: "v2" },
    // payment vouchers: opened from a paid order's row or record, or for the paid orders of a list's selection
    orderprints: voucherPage,
    orderprintsv2: voucherPage,
    // channel QR codes opening the payer page
    qrchnllist: { kind: "list", entity: "qrchnl" },
    qrchnladd: { kind: "add", entity: "qrchnl" },
    qrchnledit: { kind: "edit", entity: "qrchnl" },
  },
};
