/**
 * Accounts: the platform's operators, providers' accounts and their school administrators, super administrators.
 * The accounts live in the hand-written `users` table (with `user_schools` for a provider-side school
 * administrator's schools), so both entities are the domain's own: server/domains/accounts/users.ts.
 *
 * Who manages whom: the platform's operators manage operator accounts (user_type system); a provider manages its
 * own accounts (service) and its provider-side school administrators (service_schadmin) with their schools; only
 * super administrators list and add super administrators.
 */
import type { CatalogueDomain, EntityDecl, FieldDecl, FieldOption, ActionDecl } from "../common/catalogue";
import { anyOf, OPERATOR_ROLES, PROVIDER_ROLES } from "../common/roleKeys";
import { statusOptions, yesNo } from "./shared";

/** super administrators, in both generations */
export const SUPERADMIN_ROLES: readonly string[] = ["superadmin", "superadminv2"];

/** whoever manages accounts: operators (their own and, switched into a provider, the provider's) and providers */
export const ACCOUNT_MANAGER_ROLES: readonly string[] = anyOf(OPERATOR_ROLES, PROVIDER_ROLES, SUPERADMIN_ROLES);

/** spec 9: minimum password length (the server checks it against its own constant) */
export const ACCOUNT_PASSWORD_MIN = 6;
export const ACCOUNT_PASSWORD_MAX = 64;

/**
 * The account types, each offered to those who may create it (server/domains/accounts/users.ts decides the
 * same): operators their own accounts; a provider (or an operator switched into one, who acts with its role
 * keys) its administrators, and its school administrators when it is of v2, the only generation they exist in.
 */
export const userTypeOptions: FieldOption[] = [
  { value: "system", label: "accounts.user_type.system", roles: OPERATOR_ROLES },
  { value: "service", label: "accounts.user_type.service", roles: PROVIDER_ROLES },
  { value: "service_schadmin", label: "accounts.user_type.service_schadmin", roles: ["servicev2"] },
  // the clerks who verify pickup codes at the provider's pickup points (retail.ts)
  { value: "pickup", label: "accounts.user_type.pickup", roles: ["servicev2"] },
];

const usernameField: FieldDecl = {
  name: "username",
  type: "string",
  label: "accounts.field.username",
  required: true,
  min: 3,
  max: 50,
  pattern: "^[A-Za-z0-9_.@-]+$",
  patternMessage: "validation.username",
  unique: true,
  list: true,
  filter: "like",
  sortable: true,
  form: "add",
  detail: true,
};

const passwordField: FieldDecl = {
  name: "password",
  type: "password",
  label: "accounts.field.password",
  required: true,
  min: ACCOUNT_PASSWORD_MIN,
  max: ACCOUNT_PASSWORD_MAX,
  form: "add",
};

const nameField: FieldDecl = { name: "name", type: "string", label: "accounts.field.name", required: true, max: 100, list: true, filter: "like", sortable: true, form: true, detail: true };

/**
 * A password reset by an administrator: the account's new password, sent with the row's id; the account is
 * logged out everywhere.
 */
export const usersResetPassword: ActionDecl = {
  name: "usersresetpassword",
  label: "accounts.reset_password",
  confirm: "accounts.reset_password_confirm",
  roles: ACCOUNT_MANAGER_ROLES,
  fields: [{ ...passwordField, label: "accounts.field.new_password", form: true }],
};

/**
 * An account (userslist / usersinfo / usersadd / usersedit). An operator's list holds operator accounts (a super
 * administrator's also the super administrators); a provider's, its accounts and school administrators.
 * `user_type` is required (one of the types the caller may create); `schids` are the schools of a
 * service_schadmin account, all of the provider's.
 */
export const usersEntity: EntityDecl = {
  name: "users",
  table: "users",
  scope: "platform",
  // a provider's accounts are its own (a pickup point's verifiers are of the point's provider)
  providerColumn: "sysid",
  implementedBy: "domain",
  title: "accounts.entity.users",
  // named where records refer to it (a pickup point's verifiers) by the person, then the username: "王芳 (pickup)"
  titleField: "name",
  refTitle: { number: "username" },
  defaultSort: { field: "id", order: "desc" },
  roles: {
    list: ACCOUNT_MANAGER_ROLES,
    info: ACCOUNT_MANAGER_ROLES,
    add: ACCOUNT_MANAGER_ROLES,
    edit: ACCOUNT_MANAGER_ROLES,
  },
  actions: [usersResetPassword],
  fields: [
    { name: "id", type: "int", label: "accounts.field.id", list: true, sortable: true, detail: true },
    usernameField,
    passwordField,
    nameField,
    // optional: a pickup clerk's is kept on the pickup records it verifies (verifier_phone)
    { name: "phone", type: "phone", label: "accounts.field.phone", list: true, filter: "like", form: true, detail: true },
    { name: "user_type", type: "enum", label: "accounts.field.user_type", required: true, options: userTypeOptions, list: true, filter: "eq", form: true, detail: true },
    { name: "schids", type: "ref", label: "accounts.field.schids", ref: { entity: "school" }, multiple: true, virtual: true, list: true, form: true, formWhen: { field: "user_type", value: "service_schadmin" }, detail: true },
    { name: "status", type: "status", label: "accounts.field.status", required: true, default: "1", options: statusOptions, list: true, filter: "eq", form: true, detail: true },
    // changed by a super administrator only (usersedit), never in the form
    { name: "is_superadmin", type: "yesno", label: "accounts.field.is_superadmin", options: yesNo, detail: true },
    { name: "created_at", type: "datetime", label: "accounts.field.created_at", list: true, sortable: true, detail: true },
  ],
};

/** A super administrator (users_adminlist / users_adminadd): an operator account holding every right. */
export const usersAdminEntity: EntityDecl = {
  name: "users_admin",
  table: "users",
  scope: "platform",
  implementedBy: "domain",
  title: "accounts.entity.users_admin",
  titleField: "username",
  defaultSort: { field: "id", order: "desc" },
  roles: {
    list: SUPERADMIN_ROLES,
    add: SUPERADMIN_ROLES,
  },
  actions: [usersResetPassword],
  fields: [
    { name: "id", type: "int", label: "accounts.field.id", list: true, sortable: true, detail: true },
    usernameField,
    passwordField,
    { ...nameField, form: "add" },
    { name: "status", type: "status", label: "accounts.field.status", default: "1", options: statusOptions, list: true, filter: "eq", detail: true },
    { name: "created_at", type: "datetime", label: "accounts.field.created_at", list: true, sortable: true, detail: true },
  ],
};

export const accounts: CatalogueDomain = {
  entities: [usersEntity, usersAdminEntity],
  pages: {
    userslist: { kind: "list", entity: "users" },
    usersadd: { kind: "add", entity: "users" },
    usersedit: { kind: "edit", entity: "users" },
    users_adminlist: { kind: "list", entity: "users_admin" },
    users_adminadd: { kind: "add", entity: "users_admin" },
  },
};
