/** A provider's schools and each school's grades, classes and students. */
import type { CatalogueDomain, EntityDecl, FieldOption } from "../common/catalogue";
import { anyOf, OPERATOR_ROLES, PROVIDER_ROLES, PROVIDER_STAFF_ROLES, SCHOOL_ROLES } from "../common/roleKeys";
import { schoolField, statusOptions, yesNo } from "./shared";

/** School of a provider; its own id is the school id (sch_id) of everything school-scoped. */
export const schoolEntity: EntityDecl = {
  name: "school",
  table: "schools",
  scope: "provider",
  tenantColumns: { sysid: "sysid", schid: "id" },
  title: "entity.school",
  titleField: "title",
  defaultSort: { field: "id", order: "desc" },
  roles: {
    list: anyOf(OPERATOR_ROLES, PROVIDER_ROLES, PROVIDER_STAFF_ROLES, SCHOOL_ROLES),
    // paymode: the v1 school's fee-project switch, whose pages read the school too
    info: anyOf(OPERATOR_ROLES, PROVIDER_ROLES, PROVIDER_STAFF_ROLES, SCHOOL_ROLES, ["paymode"]),
    add: PROVIDER_ROLES,
    edit: PROVIDER_ROLES,
  },
  fields: [
    { name: "id", type: "int", label: "field.id", list: true, sortable: true, detail: true },
    { name: "title", type: "string", label: "field.school_title", required: true, max: 100, list: true, filter: "like", sortable: true, form: true, detail: true },
    // the provider: set from the caller's scope, a filter of the operators' list of every school
    { name: "sysid", type: "ref", ref: { entity: "service" }, label: "field.provider", required: true, list: true, filter: "eq", detail: true },
    { name: "contact", type: "string", label: "field.contact", max: 50, list: true, form: true, detail: true },
    { name: "phone", type: "phone", label: "field.phone", max: 20, list: true, form: true, detail: true },
    { name: "address", type: "string", label: "field.address", max: 200, form: true, detail: true },
    // the first term is set with the school; later it moves only by renewal, payment, code or contract maintenance
    { name: "endtime", type: "date", label: "field.endtime", required: true, termEnd: true, list: true, filter: "range", sortable: true, form: "add", detail: true },
    { name: "select_paymode", type: "yesno", label: "field.select_paymode", default: "N", options: yesNo, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, sortable: true, detail: true },
  ],
};

/** Who manages a school's grades and classes: the v1 school, and in v2 the provider, the school and the provider's staff. */
const SCHOOL_STRUCTURE_ROLES = anyOf(SCHOOL_ROLES, ["servicev2"], PROVIDER_STAFF_ROLES);

export const gradeEntity: EntityDecl = {
  name: "grade",
  table: "grades",
  scope: "school",
  title: "entity.grade",
  titleField: "title",
  defaultSort: { field: "sort", order: "asc" },
  roles: { list: SCHOOL_STRUCTURE_ROLES, info: SCHOOL_STRUCTURE_ROLES, add: SCHOOL_STRUCTURE_ROLES, edit: SCHOOL_STRUCTURE_ROLES, del: SCHOOL_STRUCTURE_ROLES },
  fields: [
    { name: "id", type: "int", label: "field.id", detail: true },
    schoolField,
    { name: "title", type: "string", label: "field.grade_title", required: true, max: 50, unique: "tenant", list: true, filter: "like", form: true, detail: true },
    { name: "sort", type: "int", label: "field.sort", default: 0, min: 0, max: 9999, list: true, sortable: true, form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", detail: true },
  ],
};

export const classesEntity: EntityDecl = {
  name: "classes",
  table: "classes",
  scope: "school",
  title: "entity.classes",
  titleField: "title",
  // "1班" is every grade's: elsewhere a class is named with its grade
  refTitle: { within: "grade_id" },
  // a class is in its grade's school: a provider adding one names the grade, not the school
  tenantFrom: "grade_id",
  defaultSort: { field: "grade_id", order: "asc" },
  roles: gradeEntity.roles,
  fields: [
    { name: "id", type: "int", label: "field.id", detail: true },
    schoolField,
    { name: "grade_id", type: "ref", ref: { entity: "grade" }, label: "field.grade", required: true, list: true, filter: "eq", sortable: true, form: true, detail: true },
    // two classes of one grade never share a name (a class moved to another grade too)
    { name: "title", type: "string", label: "field.class_title", required: true, max: 50, unique: { within: "grade_id" }, list: true, filter: "like", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", list: true, detail: true },
  ],
};

export const sexOptions: FieldOption[] = [
  { value: "1", label: "enum.sex.1" },
  { value: "2", label: "enum.sex.2" },
];

/** Who manages a school's students: the v1 school and the v2 provider (spec 2.2, 2.3). */
const STUDENT_ROLES: readonly string[] = ["school", "servicev2"];

export const studentEntity: EntityDecl = {
  name: "student",
  table: "students",
  scope: "school",
  title: "entity.student",
  titleField: "name",
  // two students may share a name: elsewhere a student is named with their number
  refTitle: { number: "student_no" },
  // a student is in their grade's school (and their class within that grade)
  tenantFrom: "grade_id",
  defaultSort: { field: "id", order: "desc" },
  roles: { list: STUDENT_ROLES, info: STUDENT_ROLES, add: STUDENT_ROLES, edit: STUDENT_ROLES, del: STUDENT_ROLES },
  exportOperation: "studentexport",
  import: {
    operation: "studentimport",
    templateOperation: "studenttemplate",
    columns: ["name", "student_no", "sex", "grade_id", "class_id", "guardian_name", "guardian_phone", "id_card"],
  },
  fields: [
    { name: "id", type: "int", label: "field.id", sortable: true, detail: true },
    { name: "name", type: "string", label: "field.student_name", required: true, max: 50, list: true, filter: "like", sortable: true, form: true, detail: true },
    schoolField,
    { name: "student_no", type: "string", label: "field.student_no", required: true, max: 32, pattern: "^[A-Za-z0-9_-]+$", patternMessage: "validation.student_no", unique: "tenant", list: true, filter: "like", sortable: true, form: true, detail: true },
    { name: "sex", type: "enum", label: "field.sex", required: true, options: sexOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "grade_id", type: "ref", ref: { entity: "grade" }, label: "field.grade", required: true, list: true, filter: "eq", form: true, detail: true },
    { name: "class_id", type: "ref", ref: { entity: "classes", narrowBy: "grade_id" }, label: "field.classes", required: true, list: true, filter: "eq", form: true, detail: true },
    { name: "guardian_name", type: "string", label: "field.guardian_name", max: 50, list: true, form: true, detail: true },
    { name: "guardian_phone", type: "phone", label: "field.guardian_phone", list: true, filter: "like", form: true, detail: true },
    { name: "id_card", type: "idcard", label: "field.id_card", list: true, form: true, detail: true },
    { name: "status", type: "status", label: "field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "created_at", type: "datetime", label: "field.created_at", sortable: true, detail: true },
  ],
};

export const schools: CatalogueDomain = {
  entities: [schoolEntity, gradeEntity, classesEntity, studentEntity],
  pages: {
    schoollist: { kind: "list", entity: "school" },
    schooladd: { kind: "add", entity: "school" },
    schooledit: { kind: "edit", entity: "school" },
    schoollists: { kind: "list", entity: "school", view: "all" },
    gradelist: { kind: "list", entity: "grade" },
    gradeadd: { kind: "add", entity: "grade" },
    gradeedit: { kind: "edit", entity: "grade" },
    classeslist: { kind: "list", entity: "classes" },
    classesadd: { kind: "add", entity: "classes" },
    classesedit: { kind: "edit", entity: "classes" },
    studentlist: { kind: "list", entity: "student" },
    studentadd: { kind: "add", entity: "student" },
    studentedit: { kind: "edit", entity: "student" },
  },
};
