/**
 * The conventions the engine relies on while it serves are checked when the catalogue loads
 * (catalogue/assemble.ts checkConventions): each case below assembles a copy of the real declarations with one
 * thing broken, and expects the catalogue to refuse to load with a message naming the declaration.
 */
import { describe, expect, it } from "vitest";
import { assembleCatalogue } from "../../catalogue/assemble";
import { v1Menus } from "../../catalogue/menus.v1";
import { v2Menus } from "../../catalogue/menus.v2";
import type { ActionDecl, CatalogueDomain, EntityDecl, FieldDecl, ListPart, PageRef, ReportDecl } from "../../common/catalogue";
import "../../common/fieldExtras";
import { catalogue } from "../../resources.config";

// the domain modules as resources.config.ts assembles them, found by what they export (as catalogueLayout.test.ts)
const modules = import.meta.glob<Record<string, unknown>>("../../catalogue/*.ts", { eager: true });
const realDomains: Record<string, CatalogueDomain> = Object.fromEntries(
  Object.values(modules).flatMap((exported) =>
    Object.entries(exported).filter(([, value]) => {
      const v = value as Partial<CatalogueDomain> | null;
      return typeof v === "object" && v !== null && Array.isArray(v.entities) && typeof v.pages === "object" && v.pages !== null;
    }),
  ),
) as Record<string, CatalogueDomain>;

type Domains = Record<string, CatalogueDomain>;

/** Assembles a copy of the real declarations after `breakIt` changed it (the real ones stay as they are). */
function assembledAfter(breakIt: (domains: Domains) => void): () => unknown {
  const copy = structuredClone(realDomains);
  breakIt(copy);
  return () => assembleCatalogue(copy, [v1Menus, v2Menus]);
}

function entity(domains: Domains, name: string): EntityDecl {
  const found = Object.values(domains)
    .flatMap((d) => d.entities)
    .find((e) => e.name === name);
  if (!found) throw new Error(`no entity ${name} in the catalogue`);
  return found;
}

/** Replaces a field of the entity (fields are shared between declarations: a copy, never changed in place). */
function setField(e: EntityDecl, name: string, change: Partial<FieldDecl> | null): void {
  if (!e.fields.some((f) => f.name === name)) throw new Error(`no field ${e.name}.${name}`);
  e.fields = change === null ? e.fields.filter((f) => f.name !== name) : e.fields.map((f) => (f.name === name ? { ...f, ...change } : f));
}

function setAction(e: EntityDecl, name: string, change: Partial<ActionDecl>): void {
  if (!e.actions?.some((a) => a.name === name)) throw new Error(`no action ${e.name}.${name}`);
  e.actions = e.actions.map((a) => (a.name === name ? { ...a, ...change } : a));
}

function setActionField(e: EntityDecl, action: string, name: string, change: Partial<FieldDecl>): void {
  const fields = e.actions?.find((a) => a.name === action)?.fields;
  if (!fields?.some((f) => f.name === name)) throw new Error(`no field ${name} of ${e.name}.${action}`);
  setAction(e, action, { fields: fields.map((f) => (f.name === name ? { ...f, ...change } : f)) });
}

function setPage(domains: Domains, route: string, change: (page: PageRef) => PageRef): void {
  const domain = Object.values(domains).find((d) => route in d.pages);
  if (!domain) throw new Error(`no route ${route} bound`);
  domain.pages[route] = change(domain.pages[route]);
}

/** Changes one part of the page of several lists bound to the route. */
function setPart(domains: Domains, route: string, key: string, change: (part: ListPart) => ListPart): void {
  setPage(domains, route, (page) => {
    if (page.kind !== "lists") throw new Error(`${route} is no page of several lists`);
    return { ...page, parts: page.parts.map((part) => (part.key === key ? change(part) : part)) };
  });
}

function report(domains: Domains, name: string): ReportDecl {
  const found = Object.values(domains)
    .flatMap((d) => d.reports ?? [])
    .find((r) => r.name === name);
  if (!found) throw new Error(`no report ${name}`);
  return found;
}

/** the message's text, matched literally */
const message = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));

describe("a copy of the real declarations", () => {
  it("assembles as the real catalogue does", () => {
    const assembled = assembledAfter(() => {})() as typeof catalogue;
    expect(assembled.entities.map((e) => e.name)).toEqual(expect.arrayContaining(catalogue.entities.map((e) => e.name)));
    expect(assembled.entities).toHaveLength(catalogue.entities.length);
    expect(assembled.reports).toHaveLength(catalogue.reports.length);
  });
});

describe("child records", () => {
  it("refuse a child entity without its sort field, naming it", () => {
    expect(assembledAfter((d) => setField(entity(d, "activityitem"), "sort", null))).toThrow(
      message(`catalogue: activityitem, the child records items of activity, has no int field "sort" keeping its rows' order`),
    );
    expect(assembledAfter((d) => setField(entity(d, "orderline"), "sort", { type: "string" }))).toThrow(
      message(`catalogue: orderline, the child records lines of order, has no int field "sort"`),
    );
    expect(assembledAfter((d) => setField(entity(d, "orderevent"), "sort", { virtual: true }))).toThrow(message(`catalogue: orderevent, the child records events of order`));
  });

  it("refuse a child of an undeclared entity, of another scope, with roles of its own, or not naming its parent", () => {
    expect(assembledAfter((d) => (entity(d, "activity").children![0].entity = "activityitme"))).toThrow(
      message(`catalogue: activity's child records items are of the undeclared entity "activityitme"`),
    );
    expect(assembledAfter((d) => (entity(d, "activityitem").scope = "provider"))).toThrow(
      message(`catalogue: activity's child records items are activityitem records, provider-scoped: a child has the tenant scope of its parent (school)`),
    );
    expect(assembledAfter((d) => (entity(d, "formquestion").roles = { list: ["servicev2"] }))).toThrow(
      message(`catalogue: formquestion, the child records questions of activityform, has roles of its own`),
    );
    expect(assembledAfter((d) => (entity(d, "bill").children![0].parentField = "bill"))).toThrow(
      message(`catalogue: bill's child records items name their parent by billitem.bill, which is no reference field of billitem to bill`),
    );
    expect(assembledAfter((d) => setField(entity(d, "billitem"), "bill_id", { ref: { entity: "activity" } }))).toThrow(
      message(`name their parent by billitem.bill_id, which is no reference field of billitem to bill`),
    );
  });

  it("refuse a total naming no number or money field of the child or of the parent", () => {
    const total = (change: object) => (d: Domains) => {
      const items = entity(d, "activity").children![0];
      items.total = { ...items.total!, ...change };
    };
    expect(assembledAfter(total({ field: "amout" }))).toThrow(
      message(`catalogue: activity's child records items are totalled by activityitem.amout, which is no number or money column of activityitem`),
    );
    expect(assembledAfter(total({ field: "title" }))).toThrow(message(`are totalled by activityitem.title, which is no number or money column of activityitem`));
    expect(assembledAfter(total({ into: "amount_due" }))).toThrow(
      message(`catalogue: activity's child records items are totalled into activity.amount_due, which is no number or money column of activity`),
    );
    expect(assembledAfter(total({ into: "title" }))).toThrow(message(`are totalled into activity.title, which is no number or money column of activity`));
    expect(assembledAfter(total({ field: "sort" }))).toThrow(message(`are totalled from activityitem.sort (int) into activity.amount (money): a total keeps its kind`));
    expect(assembledAfter(total({ when: { requird: "Y" } }))).toThrow(message(`catalogue: activity's child records items count into their total by activityitem.requird, which is no field of activityitem`));
  });
});

describe("summaries", () => {
  it("refuse a summary naming no money column of the entity", () => {
    expect(assembledAfter((d) => (entity(d, "order").summary = ["amout"]))).toThrow(message(`catalogue: order's summary names amout, which is no money column of it`));
    expect(assembledAfter((d) => (entity(d, "order").summary = ["amount", "activity_count"]))).toThrow(message(`catalogue: order's summary names activity_count, which is no money column of it`));
    expect(assembledAfter((d) => (entity(d, "settlement").summary = ["gross", "day"]))).toThrow(message(`catalogue: settlement's summary names day, which is no money column of it`));
  });

  it("refuse a sum over states of a field outside the summary, or over states the entity does not have", () => {
    const sum = (change: object) => (d: Domains) => {
      const order = entity(d, "order");
      order.summaryInStates = order.summaryInStates!.map((s) => ({ ...s, ...change }));
    };
    expect(assembledAfter(sum({ field: "refunded_amount" }))).toThrow(message(`catalogue: order's summary in states paid_amount sums refunded_amount, which is not in its summary`));
    expect(assembledAfter(sum({ states: ["paid", "refundd"] }))).toThrow(
      message(`catalogue: order's summary in states paid_amount counts the state "refundd", which is no state of order (an option of order.status)`),
    );
    expect(assembledAfter(sum({ states: [] }))).toThrow(message(`catalogue: order's summary in states paid_amount names no state`));
  });

  it("refuse a sum counting the records with a field set that is no column", () => {
    const orSet = (name: string, orSet: string) => (d: Domains) => {
      const one = entity(d, name);
      one.summaryInStates = one.summaryInStates!.map((s) => ({ ...s, orSet }));
    };
    expect(assembledAfter(orSet("shoporder", "paid_on"))).toThrow(message(`catalogue: shoporder's summary in states paid_amount counts the records with paid_on set, which is no column of it`));
    // kept state totals hold whether the field is set
    expect(assembledAfter(orSet("order", "paid_at"))).not.toThrow();
  });

  it("refuse state totals of an entity without states", () => {
    expect(assembledAfter((d) => (entity(d, "payment").stateTotals = true))).toThrow(message(`catalogue: payment keeps state totals but declares no stateField`));
    expect(assembledAfter((d) => (entity(d, "order").stateTotals = { days: "paid_at", idsFollowDays: true }))).toThrow(
      message(`catalogue: order's ids follow the days of paid_at, which is not when its records are made (created_at)`),
    );
  });
});

describe("pages and lists", () => {
  it("refuse a page bound to an undeclared entity", () => {
    expect(assembledAfter((d) => setPage(d, "refundrecord", (p) => ({ ...p, entity: "refnd" }) as PageRef))).toThrow(
      message(`binds route "refundrecord" to the undeclared entity "refnd"`),
    );
    expect(assembledAfter((d) => setPage(d, "projectedit", (p) => ({ ...p, entity: "projet" }) as PageRef))).toThrow(
      message(`binds route "projectedit" to the undeclared entity "projet"`),
    );
    expect(assembledAfter((d) => setPart(d, "order/saleslist", "refunds", (part) => ({ ...part, entity: "refnd" })))).toThrow(
      message(`binds route "order/saleslist" to the undeclared entity "refnd"`),
    );
  });

  it("refuse a list page filtered by a field that is no filter of its entity, or by a value that is no option of it", () => {
    expect(assembledAfter((d) => setPage(d, "refundrecord", (p) => ({ ...p, filters: { stauts: "applied" } }) as PageRef))).toThrow(
      message(`catalogue: refunds binds route "refundrecord" to a list of refund filtered by stauts, which is no filter field of refund`),
    );
    expect(assembledAfter((d) => setPage(d, "refundrecord", (p) => ({ ...p, filters: { status: "aplied" } }) as PageRef))).toThrow(
      message(`catalogue: refunds binds route "refundrecord" to a list of refund filtered by status "aplied", which is no option of refund.status`),
    );
    // a field the list does not filter by would be ignored: every row shown
    expect(assembledAfter((d) => setPage(d, "refundrecord", (p) => ({ ...p, filters: { reason: "x" } }) as PageRef))).toThrow(
      message(`to a list of refund filtered by reason, which is no filter field of refund`),
    );
    expect(assembledAfter((d) => setPage(d, "serviceactcode", (p) => ({ ...p, recordFilter: "sysidd" }) as PageRef))).toThrow(
      message(`catalogue: renewals binds route "serviceactcode" to a list of actcode filtered by the record's id in sysidd, which is no filter field of actcode`),
    );
    // so is a part of a page of several lists
    expect(assembledAfter((d) => setPart(d, "order/saleslist", "refunds", (part) => ({ ...part, filters: { kind: "requst" } })))).toThrow(
      message(`catalogue: afterSales binds route "order/saleslist" to a page whose part refunds is a list of refund filtered by kind "requst", which is no option of refund.kind`),
    );
  });

  it("refuse a page of several lists with fewer than two parts, two of one key, opening first on none of them, or showing first a field it does not list", () => {
    const lists = (change: (page: Extract<PageRef, { kind: "lists" }>) => PageRef) => (d: Domains) => setPage(d, "shop/saleslist", (p) => change(p as Extract<PageRef, { kind: "lists" }>));
    const needsTwo = message(`catalogue: afterSales binds route "shop/saleslist" to a page of several lists, which needs two or more parts of different keys`);
    expect(assembledAfter(lists((p) => ({ ...p, parts: p.parts.slice(0, 1) })))).toThrow(needsTwo);
    expect(assembledAfter(lists((p) => ({ ...p, parts: p.parts.map((part) => ({ ...part, key: "same" })), first: "same" })))).toThrow(needsTwo);
    expect(assembledAfter(lists((p) => ({ ...p, first: "refund" })))).toThrow(
      message(`catalogue: afterSales binds route "shop/saleslist" to a page of several lists opening first "refund", which is no part of it`),
    );
    // what its table shows first is among its columns
    expect(assembledAfter((d) => setPart(d, "shop/saleslist", "refunds", (part) => ({ ...part, columns: ["amount", "pay_no"] })))).toThrow(
      message(`catalogue: afterSales binds route "shop/saleslist" to a page whose part refunds shows first pay_no, which is no listed field of refund`),
    );
  });

  it("refuse a report page filled in by a filter the report does not have", () => {
    expect(assembledAfter((d) => setPage(d, "classescount_info", (p) => ({ ...p, recordFilter: "klass_id" }) as PageRef))).toThrow(
      message(`binds route "classescount_info" to the report classinfostatis filtered by the record's id in klass_id, which is no filter of it`),
    );
  });

  it("refuse a lookup page naming an undeclared operation, a field its operations lack or require beside it, or what its record does not show", () => {
    type Lookup = Extract<PageRef, { kind: "lookup" }>;
    const lookup = (change: (page: Lookup) => Lookup) => (d: Domains) => setPage(d, "pickuprec", (p) => change(p as Lookup));
    const confirm = (change: Partial<Lookup["confirm"]>) => lookup((p) => ({ ...p, confirm: { ...p.confirm, ...change } }));
    const record = (change: Partial<Lookup["record"]>) => lookup((p) => ({ ...p, record: { ...p.record, ...change } }));
    const where = `catalogue: retail binds route "pickuprec" to a lookup page`;
    expect(assembledAfter(lookup((p) => ({ ...p, find: "pickupfnd" })))).toThrow(message(`${where} finding by the undeclared operation "pickupfnd"`));
    expect(assembledAfter(confirm({ operation: "pickupverfy" }))).toThrow(message(`${where} confirming by the undeclared operation "pickupverfy"`));
    expect(assembledAfter(lookup((p) => ({ ...p, field: "cod" })))).toThrow(message(`${where} fills cod, which is no field of the operation pickupfind`));
    expect(assembledAfter(confirm({ via: { field: "way", typed: "code", scanned: "scan" } }))).toThrow(message(`${where} fills way, which is no field of the operation pickupverify`));
    // without the way it was entered, the confirming operation's required via is left empty
    expect(assembledAfter(confirm({ via: undefined }))).toThrow(message(`${where} calls pickupverify, which requires via, a field the page does not fill`));
    expect(assembledAfter(confirm({ via: { field: "via", typed: "code", scanned: "camera" } }))).toThrow(
      message(`${where} records how the value was entered in pickupverify.via as "camera", which is no option of it`),
    );
    expect(assembledAfter(record({ titleField: "order_number" }))).toThrow(message(`${where} titles its record by order_number, which is no field of its record`));
    expect(assembledAfter(record({ status: "school_title" }))).toThrow(message(`${where} shows the state of its record in school_title, which has no options`));
    expect(assembledAfter(confirm({ offeredWhen: { field: "state", values: ["undelivered"] } }))).toThrow(message(`${where} offers its confirmation by state, which is no field of its record`));
    expect(assembledAfter(confirm({ offeredWhen: { field: "status", values: ["waiting"] } }))).toThrow(message(`${where} offers its confirmation while status is "waiting", which is no option of it`));
    const done = (change: object) => lookup((p) => ({ ...p, record: { ...p.record, done: { ...p.record.done!, ...change } } }));
    expect(assembledAfter(done({ when: "verified_at" }))).toThrow(message(`${where} says its record is confirmed by verified_at, which is no field of its record`));
    expect(assembledAfter(done({ params: { name: "verifier.name" } }))).toThrow(message(`${where} says who confirmed it with verifier.name, which is no field of its record`));
    expect(assembledAfter(record({ items: { name: "items", label: "retail.field.items", titleField: "name", fields: [] } }))).toThrow(
      message(`${where} titles its record's items by name, which is no field of them`),
    );
  });

  it("refuse a default sort by a field that is no column of the entity", () => {
    expect(assembledAfter((d) => (entity(d, "grade").defaultSort = { field: "sortt", order: "asc" }))).toThrow(message(`catalogue: grade sorts by default by sortt, which is no column of it`));
    expect(assembledAfter((d) => (entity(d, "users").defaultSort = { field: "password", order: "asc" }))).toThrow(message(`catalogue: users sorts by default by password, which is no column of it`));
  });
});

describe("references", () => {
  it("refuse a reference to an undeclared entity, in an entity, an action, an operation or a report", () => {
    expect(assembledAfter((d) => setField(entity(d, "student"), "class_id", { ref: { entity: "class", narrowBy: "grade_id" } }))).toThrow(
      message(`catalogue: student.class_id refers to the undeclared entity "class"`),
    );
    expect(assembledAfter((d) => setField(entity(d, "student"), "class_id", { ref: undefined }))).toThrow(message(`catalogue: student.class_id is a reference naming no entity`));
    expect(
      assembledAfter((d) => {
        const operation = Object.values(d)
          .flatMap((m) => m.operations ?? [])
          .find((o) => o.name === "schoolpaychnlset")!;
        operation.fields = operation.fields.map((f) => (f.name === "paychnl_id" ? { ...f, ref: { entity: "paychanel" } } : f));
      }),
    ).toThrow(message(`catalogue: operation schoolpaychnlset.paychnl_id refers to the undeclared entity "paychanel"`));
    expect(
      assembledAfter((d) => {
        const r = report(d, "classstatis");
        r.filters = r.filters.map((f) => (f.name === "grade_id" ? { ...f, ref: { entity: "grades" } } : f));
      }),
    ).toThrow(message(`catalogue: report classstatis.grade_id refers to the undeclared entity "grades"`));
  });

  it("refuse a reference narrowed by a field not beside it or no column of the referred entity", () => {
    expect(assembledAfter((d) => setField(entity(d, "student"), "class_id", { ref: { entity: "classes", narrowBy: "grade" } }))).toThrow(
      message(`catalogue: student.class_id is narrowed by grade, which is no field beside it`),
    );
    expect(assembledAfter((d) => setField(entity(d, "student"), "class_id", { ref: { entity: "classes", narrowBy: "name" } }))).toThrow(
      message(`catalogue: student.class_id is narrowed by name, which is no column of classes`),
    );
  });

  it("refuse a count field that is no number beside the reference, and a required value of no field of the referred entity", () => {
    expect(assembledAfter((d) => setField(entity(d, "order"), "activity_id", { ref: { entity: "activity", countField: "activity_cnt" } }))).toThrow(
      message(`catalogue: order.activity_id counts the records it stands for in activity_cnt, which is no number field beside it`),
    );
    expect(assembledAfter((d) => setField(entity(d, "pickuppoint"), "verifiers", { ref: { entity: "users", where: { usertype: "pickup" } } }))).toThrow(
      message(`catalogue: pickuppoint.verifiers requires a value of users.usertype, which is no field of users`),
    );
  });

  it("refuse a field unique within no reference field, a title or a reference title naming no field", () => {
    expect(assembledAfter((d) => setField(entity(d, "bill"), "student_id", { unique: { within: "activity" } }))).toThrow(
      message(`catalogue: bill.student_id is unique within activity, which is no reference field of bill`),
    );
    expect(assembledAfter((d) => (entity(d, "school").titleField = "name"))).toThrow(message(`catalogue: school's titleField name is no field of it`));
    expect(assembledAfter((d) => (entity(d, "classes").refTitle = { within: "title" }))).toThrow(message(`catalogue: classes is named within title, which is no reference field of it`));
    expect(assembledAfter((d) => (entity(d, "student").refTitle = { number: "studentno" }))).toThrow(message(`catalogue: student is named with the number studentno, which is no field of it`));
  });

  it("refuse a field seen by no role or by a role that does not read its entity", () => {
    expect(assembledAfter((d) => setField(entity(d, "order"), "fulfil_status", { roles: ["pickup"] }))).toThrow(message(`catalogue: order.fulfil_status is seen by pickup, which is no reader of order`));
    expect(assembledAfter((d) => setField(entity(d, "order"), "fulfil_status", { roles: [] }))).toThrow(message(`catalogue: order.fulfil_status is seen by no role, which is no reader of order`));
  });

  it("refuse a tenant taken from no required single reference, or from a record that does not carry it whole", () => {
    expect(assembledAfter((d) => (entity(d, "classes").tenantFrom = "title"))).toThrow(message(`catalogue: classes takes its tenant from title, which is no required single reference column of it`));
    expect(assembledAfter((d) => setField(entity(d, "classes"), "grade_id", { required: false }))).toThrow(
      message(`catalogue: classes takes its tenant from grade_id, which is no required single reference column of it`),
    );
    expect(assembledAfter((d) => (entity(d, "pickuprec").tenantFrom = "pickup_point_id"))).toThrow(
      message(`catalogue: pickuprec takes its tenant from pickup_point_id, a provider-scoped pickuppoint, which does not carry a school's tenant`),
    );
    expect(assembledAfter((d) => (entity(d, "pickuprec").tenantFrom = "student_id"))).toThrow(
      message(`catalogue: pickuprec takes its tenant from student_id, but student names no pickup point for its pickup-point column`),
    );
  });
});

describe("states and actions", () => {
  it("refuse a stateField that is no enum field with options", () => {
    expect(assembledAfter((d) => (entity(d, "paychnl").stateField = "title"))).toThrow(message(`catalogue: paychnl's stateField title is no enum field with options of it`));
    expect(assembledAfter((d) => (entity(d, "paychnl").stateField = "state"))).toThrow(message(`catalogue: paychnl's stateField state is no enum field with options of it`));
    expect(assembledAfter((d) => setField(entity(d, "refund"), "status", { options: [] }))).toThrow(message(`catalogue: refund.status is an enum without options`));
    expect(assembledAfter((d) => setField(entity(d, "aftersale"), "restock", { options: undefined }))).toThrow(message(`catalogue: aftersale.restock is a yes/no field without options`));
  });

  it("refuse an action whose from or to states are no states of its entity", () => {
    expect(assembledAfter((d) => setAction(entity(d, "paychnl"), "paychnlsubmit", { from: ["draft", "rejectd"] }))).toThrow(
      message(`catalogue: paychnl.paychnlsubmit starts from "rejectd", which is no state of paychnl (an option of paychnl.status)`),
    );
    expect(assembledAfter((d) => setAction(entity(d, "paychnl"), "paychnlreview", { to: ["approved", "declined"] }))).toThrow(
      message(`catalogue: paychnl.paychnlreview leads to "declined", which is no state of paychnl (an option of paychnl.status)`),
    );
    expect(assembledAfter((d) => setAction(entity(d, "bill"), "billwaive", { to: "waved" }))).toThrow(message(`catalogue: bill.billwaive leads to "waved", which is no state of bill`));
    expect(assembledAfter((d) => setAction(entity(d, "activity"), "activityact", { byState: { drafted: { label: "x", values: {} } } }))).toThrow(
      message(`catalogue: activity.activityact is labelled for the state "drafted", which is no state of activity`),
    );
    expect(assembledAfter((d) => setAction(entity(d, "users"), "usersresetpassword", { from: ["active"] }))).toThrow(
      message(`catalogue: users.usersresetpassword starts from "active", but users declares no stateField`),
    );
    expect(assembledAfter((d) => (entity(d, "paychnl").editableIn = ["draft", "rejectd"]))).toThrow(message(`catalogue: paychnl is editable in "rejectd", which is no state of paychnl`));
  });

  it("refuse an action only for records whose field is no field with options, or a value that is no option of it", () => {
    expect(assembledAfter((d) => setAction(entity(d, "shoporder"), "shoporderdeliver", { onlyWhere: { delivry: ["express"] } }))).toThrow(
      message(`catalogue: shoporder.shoporderdeliver is only for records whose "delivry" is given, which is no field of shoporder with options`),
    );
    expect(assembledAfter((d) => setAction(entity(d, "shoporder"), "shoporderdeliver", { onlyWhere: { delivery: ["courier"] } }))).toThrow(
      message(`catalogue: shoporder.shoporderdeliver is only for records whose delivery is "courier", which is no option of it`),
    );
  });

  it("refuse an action whose result field is no required enum of it, or an option of it leading to no state the action leads to", () => {
    const result = { field: "result", to: { approve: "approved", reject: "rejected" } };
    expect(assembledAfter((d) => setAction(entity(d, "paychnl"), "paychnlreview", { result: { ...result, field: "decision" } }))).toThrow(
      message(`catalogue: paychnl.paychnlreview's result decision is no required enum field of the action`),
    );
    expect(assembledAfter((d) => setAction(entity(d, "paychnl"), "paychnlreview", { result: { ...result, field: "reason" } }))).toThrow(
      message(`catalogue: paychnl.paychnlreview's result reason is no required enum field of the action`),
    );
    expect(assembledAfter((d) => setAction(entity(d, "refund"), "refundreview", { result: { field: "result", to: { approve: "processing" } } }))).toThrow(
      message(`catalogue: refund.refundreview's result "reject" leads to no state of those it leads to (processing, rejected)`),
    );
    expect(assembledAfter((d) => setAction(entity(d, "refund"), "refundreview", { result: { field: "result", to: { approve: "done", reject: "rejected" } } }))).toThrow(
      message(`catalogue: refund.refundreview's result "approve" leads to no state of those it leads to`),
    );
  });

  it("refuse an action waiting in no state, creating or refreshing an undeclared entity, or linking to a list its entity does not show", () => {
    expect(assembledAfter((d) => setAction(entity(d, "refund"), "refundreview", { from: undefined }))).toThrow(
      message(`catalogue: refund.refundreview waits for a decision (refunds) but names no state it is taken from`),
    );
    expect(assembledAfter((d) => setAction(entity(d, "order"), "refundadd", { creates: "refunds" }))).toThrow(message(`catalogue: order.refundadd creates or refreshes the undeclared entity "refunds"`));
    expect(assembledAfter((d) => setAction(entity(d, "reconitem"), "reconresolve", { refreshes: ["reconn"] }))).toThrow(
      message(`catalogue: reconitem.reconresolve creates or refreshes the undeclared entity "reconn"`),
    );
    const link = { related: "reconitem", state: "open", when: "open_items", label: "recon.show_differences" };
    expect(assembledAfter((d) => setAction(entity(d, "paychnl"), "reconrun", { answerLink: { ...link, related: "recon_item" } }))).toThrow(
      message(`catalogue: paychnl.reconrun links its answer to related recon_item records, which paychnl does not list (related)`),
    );
    expect(assembledAfter((d) => setAction(entity(d, "paychnl"), "reconrun", { answerLink: { ...link, state: "opened" } }))).toThrow(
      message(`catalogue: paychnl.reconrun links its answer to reconitem records in the state "opened", which is no state of reconitem`),
    );
  });

  it("refuse a part of a page of several lists leaving out a field its entity does not list or filter by", () => {
    const leaveOut = (without: string[]) =>
      assembledAfter((d) => {
        const page = d.afterSales.pages["shop/saleslist"] as unknown as { parts: { without?: string[] }[] };
        page.parts[1].without = without;
      });
    expect(leaveOut(["shop_order_id", "aftersale_id"])).not.toThrow();
    expect(leaveOut(["shop_order"])).toThrow(message(`catalogue: afterSales binds route "shop/saleslist" to a page whose part refunds leaves out shop_order, which is no listed or filter field of refund`));
  });

  it("refuse a related list by no reference to the record, or by a value the other entity cannot filter by or the record lacks", () => {
    const relate = (related: { entity: string; field: string; key?: string }) => assembledAfter((d) => void (entity(d, "shoporder").related = [{ ...related, label: "devices.related.order_jobs" }]));
    expect(relate({ entity: "printjob", field: "order_no" })).toThrow(message(`catalogue: shoporder lists related printjob records by order_no, which is no reference of a declared entity to it`));
    expect(relate({ entity: "printjob", field: "copies", key: "order_no" })).toThrow(
      message(`catalogue: shoporder lists related printjob records by copies = its order_no, which is no "eq" filter of a declared entity or no field of shoporder`),
    );
    expect(relate({ entity: "printjob", field: "order_no", key: "receipt_no" })).toThrow(
      message(`catalogue: shoporder lists related printjob records by order_no = its receipt_no, which is no "eq" filter of a declared entity or no field of shoporder`),
    );
    expect(relate({ entity: "printjob", field: "order_no", key: "order_no" })).not.toThrow();
  });

  it("refuse an action keyed by no unique field of its entity, or also by an id field, or refused in words of its own in a state it starts from", () => {
    const bind = (change: Partial<ActionDecl>) => assembledAfter((d) => setAction(entity(d, "tracesource"), "tracesourcebind", change));
    for (const key of ["batch_no", "codes"]) {
      expect(bind({ key })).toThrow(message(`catalogue: tracesource.tracesourcebind is keyed by ${key}, which is no field of tracesource declared unique (true or "tenant")`));
    }
    expect(bind({ idField: "code_id" })).toThrow(message(`catalogue: tracesource.tracesourcebind names its record both by code_id and by its key code`));
    expect(assembledAfter((d) => setAction(entity(d, "tracesource"), "tracesourcevoid", { keyUnknown: "retail.trace.errors.code_unknown" }))).toThrow(
      message(`catalogue: tracesource.tracesourcevoid says how a key found nowhere is refused, but is keyed by none`),
    );
    expect(bind({ refuseIn: { lost: "retail.trace.errors.code_voided" } })).toThrow(message(`catalogue: tracesource.tracesourcebind is refused in words of its own in the state "lost", which is no state of tracesource`));
    expect(bind({ refuseIn: { free: "retail.trace.errors.code_voided" } })).toThrow(message(`catalogue: tracesource.tracesourcebind is refused in words of its own in the state "free", which it starts from`));
    expect(bind({ tool: "tracesourcescan" })).toThrow(message(`catalogue: tracesource.tracesourcebind is called by the list tool tracesourcescan, which tracesource does not offer (listTools)`));
  });

  it("refuse an action requiring a state of a record no reference names, of an entity without states, or a state it does not have", () => {
    const requires = { field: "order_item_id", states: ["undelivered"] };
    const bind = (change: Partial<ActionDecl>) => assembledAfter((d) => setAction(entity(d, "tracesource"), "tracesourcebind", change));
    for (const field of ["batch_no", "order_item"]) {
      expect(bind({ requires: { ...requires, field } })).toThrow(message(`catalogue: tracesource.tracesourcebind requires a state of the record ${field} names, which is no reference field of the action or of tracesource`));
    }
    // the record's own reference to a stateful entity, as one of its fields is
    expect(bind({ requires: { field: "order_id", states: ["undelivered"] } })).not.toThrow();
    expect(assembledAfter((d) => setActionField(entity(d, "tracesource"), "tracesourcebind", "order_item_id", { ref: { entity: "school" } }))).toThrow(
      message(`catalogue: tracesource.tracesourcebind requires a state of the school record order_item_id names, but school declares no stateField and is no child record of an entity that does`),
    );
    expect(bind({ requires: { ...requires, states: [] } })).toThrow(message(`catalogue: tracesource.tracesourcebind requires the record order_item_id names in no state`));
    // an order's item has its order's states
    expect(bind({ requires: { ...requires, states: ["paid"] } })).toThrow(message(`catalogue: tracesource.tracesourcebind requires the shoporder of order_item_id in the state "paid", which is no state of shoporder`));
  });

  it("refuse an action's field filled in from a field its entity does not have", () => {
    expect(assembledAfter((d) => setActionField(entity(d, "order"), "refundadd", "amount", { prefill: { field: "amount", less: "refunded" } }))).toThrow(
      message(`catalogue: order.refundadd.amount is filled in from order.refunded, which is no field of order`),
    );
  });
});

describe("rules between fields", () => {
  it("refuse requiredWhen, formWhen and atLeast naming a field that is not beside the field, or a value that is no option of it", () => {
    expect(assembledAfter((d) => setField(entity(d, "project"), "max_amount", { requiredWhen: { field: "amount_mod", value: "open" } }))).toThrow(
      message(`catalogue: project.max_amount is required when amount_mod is "open", but amount_mod is no field beside it`),
    );
    expect(assembledAfter((d) => setField(entity(d, "project"), "max_amount", { requiredWhen: { field: "amount_mode", value: "opened" } }))).toThrow(
      message(`catalogue: project.max_amount is required when amount_mode is "opened", which is no option of project.amount_mode`),
    );
    expect(assembledAfter((d) => setActionField(entity(d, "paychnl"), "paychnlreview", "reason", { requiredWhen: { field: "result", value: "rejected" } }))).toThrow(
      message(`catalogue: paychnl.paychnlreview.reason is required when result is "rejected", which is no option of paychnl.paychnlreview.result`),
    );
    expect(assembledAfter((d) => setField(entity(d, "users"), "schids", { formWhen: { field: "usertype", value: "service_schadmin" } }))).toThrow(
      message(`catalogue: users.schids is in the form when usertype is "service_schadmin", but usertype is no field beside it`),
    );
    expect(assembledAfter((d) => setField(entity(d, "project"), "max_amount", { atLeast: { field: "amount_mode", message: "fees.validation.max_below_min" } }))).toThrow(
      message(`catalogue: project.max_amount is at least amount_mode, which is no number or money field beside it`),
    );
  });
});

describe("imports", () => {
  it("refuse a column that is no field of the add form, and an import into records of an undeclared entity or state", () => {
    expect(assembledAfter((d) => (entity(d, "student").import!.columns = ["name", "student_number"]))).toThrow(
      message(`catalogue: student imports the column student_number, which is no single-valued column field of its add form`),
    );
    expect(assembledAfter((d) => (entity(d, "student").import!.columns = ["name", "id"]))).toThrow(message(`catalogue: student imports the column id`));
    expect(assembledAfter((d) => (entity(d, "bill").import!.into = { field: "activity_id", entity: "activity", states: ["draft", "opened"] }))).toThrow(
      message(`catalogue: bill imports into activity records in the state "opened", which is no state of activity`),
    );
    expect(assembledAfter((d) => (entity(d, "bill").import!.into = { field: "activity", entity: "activity" }))).toThrow(
      message(`catalogue: bill imports into the activity named by activity, which is no reference field of bill to it`),
    );
  });
});

describe("reports", () => {
  it("refuse a rate, a chart or a period naming what the report does not have", () => {
    const measures = (r: ReportDecl) => r.measures.map((m) => (m.name === "collection_rate" ? { ...m, of: ["paid_bills", "bill"] as const } : m));
    expect(assembledAfter((d) => (report(d, "schoolstatis").measures = measures(report(d, "schoolstatis"))))).toThrow(
      message(`catalogue: report schoolstatis's rate collection_rate is of paid_bills and bill, which are not two other measures of it`),
    );
    expect(assembledAfter((d) => (report(d, "paystatis").chartMeasures = ["paid_amount", "refunded_amount"]))).toThrow(
      message(`catalogue: report paystatis charts refunded_amount, which is no measure of it`),
    );
    expect(assembledAfter((d) => (report(d, "paystatis").period = "day"))).toThrow(message(`catalogue: report paystatis's period day is no range filter of it`));
  });

  it("refuse a drill from or to a dimension the report does not have, or to an undeclared report", () => {
    expect(assembledAfter((d) => (report(d, "schoolstatis").drill = { sch_id: { dimension: "grade" } }))).toThrow(
      message(`catalogue: report schoolstatis drills down from sch_id to grade, which is no dimension of it`),
    );
    expect(assembledAfter((d) => (report(d, "schoolstatis").drill = { school_id: { dimension: "grade_id" } }))).toThrow(
      message(`catalogue: report schoolstatis drills down from school_id, which is no dimension of it`),
    );
    expect(
      assembledAfter((d) => {
        const r = report(d, "schoolstatis");
        r.filters = r.filters.filter((f) => f.name !== "grade_id");
      }),
    ).toThrow(message(`catalogue: report schoolstatis drills down from grade_id, which is no filter of it to narrow the next dimension by`));
    expect(assembledAfter((d) => (report(d, "classesstatis").drill = { class_id: { report: "classinfostats" } }))).toThrow(
      message(`catalogue: report classesstatis drills down from class_id to the undeclared report "classinfostats"`),
    );
  });
});
