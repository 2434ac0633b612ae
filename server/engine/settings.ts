/**
 * The settings pages of the catalogue (common/catalogue.ts SettingsDecl): one record per tenant, edited in a
 * form. For every declaration the server offers `{name}info` (the record; each field its declared default
 * until one is saved) and `{name}edit` (checks the fields sent by their kinds, saves them, audits the change),
 * allowed to the declared roles. The records live in one table (settings_records), keyed by the page's name
 * and its tenant: the platform (0), the caller's provider or the caller's school, taken from the checked scope. A
 * reference (one record or several) names records of that tenant only (a provider's schools).
 *
 * A `password` field is a secret (enterprise WeChat's corp secret): encrypted with the server's payment key under a
 * purpose of its own (the page, the field and the tenant: a ciphertext copied into another record does not decrypt)
 * and never answered; the record answers `has_{field}` instead, whether one is stored. Sent empty or left out, the
 * stored one stays; the domain that uses it reads it with readSettingsSecret.
 */
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { FieldDecl, SettingsDecl } from "../../common/catalogue";
import { fieldSeenBy } from "../../common/fieldRules";
import { hasAnyRole } from "../../common/roleKeys";
import { entityByName } from "../../resources.config";
import { auditCall } from "../auth/audit";
import { resolveScope } from "../auth/scope";
import type { DbOrTx } from "../db/client";
import { tableColumn, tenantColumnNames } from "../db/catalogueTables";
import { catalogueTables, settingsRecords } from "../db/schema";
import { labelText, type Translate } from "../lib/i18n";
import { PaymentKeyMissingError, type PaymentSecrets } from "../payments/secrets";
import { ApiFailure, notFound } from "../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../protocol/registry";
import { DEFAULT_OPERATION_PATH } from "./declared";
import { kindOf } from "./fieldKinds";
import { fieldErrors, fieldsSchema, storedDefault } from "./fieldSchemas";

/** The tenant of a platform-wide settings page. */
export const PLATFORM_TENANT = 0;

export type SettingsRecord = Record<string, unknown>;

/** The key of the answer saying whether a secret field holds a stored secret. */
export function storedSecretKey(field: string): string {
  return `has_${field}`;
}

/** What a stored secret of a settings record is encrypted under: its page, field and tenant. */
function secretPurpose(declaration: SettingsDecl, field: string, tenantId: number): string {
  return `settings.${declaration.name}.${field}:${tenantId}`;
}

const isSecret = (field: FieldDecl) => field.type === "password";

/** The column of a referred entity that keeps its records in the settings' tenant (a school's provider). */
function referredTenantColumn(declaration: SettingsDecl, field: FieldDecl): string | undefined {
  const entity = field.ref && entityByName(field.ref.entity);
  if (!entity || !catalogueTables[entity.name]) throw new Error(`settings ${declaration.name}: field ${field.name} refers to ${field.ref?.entity}, which has no table`);
  if (declaration.scope === "platform") return undefined;
  const column = declaration.scope === "provider" ? tenantColumnNames(entity).sysid : tenantColumnNames(entity).schid;
  if (!column) throw new Error(`settings ${declaration.name}: field ${field.name} refers to ${entity.name}, which lies in no ${declaration.scope}`);
  return column;
}

function assertSupported(declaration: SettingsDecl): void {
  for (const field of declaration.fields) {
    if ((field.multiple && field.type !== "ref") || field.virtual) {
      throw new Error(`settings ${declaration.name}: field ${field.name} (${field.type}) cannot be part of a settings record`);
    }
    // a secret sent empty keeps the stored one, so none can be required; its answer `has_{field}` is no field's name
    if (isSecret(field) && (field.required || field.default !== undefined)) {
      throw new Error(`settings ${declaration.name}: secret field ${field.name} cannot be required or have a default (sent empty, the stored one stays)`);
    }
    if (isSecret(field) && declaration.fields.some((f) => f.name === storedSecretKey(field.name))) {
      throw new Error(`settings ${declaration.name}: field ${storedSecretKey(field.name)} would hide whether ${field.name} is stored`);
    }
    if (field.type === "ref") referredTenantColumn(declaration, field);
  }
}

/** Refuses a reference to a record that does not exist or lies outside the settings' tenant, naming the field. */
async function checkReferences(db: DbOrTx, t: Translate, declaration: SettingsDecl, tenantId: number, values: SettingsRecord): Promise<void> {
  for (const field of declaration.fields) {
    const value = values[field.name];
    if (field.type !== "ref" || value === null || value === undefined) continue;
    const ids = [...new Set(Array.isArray(value) ? (value as number[]) : [value as number])];
    if (ids.length === 0) continue;
    const table = catalogueTables[field.ref!.entity]!;
    const tenantColumn = referredTenantColumn(declaration, field);
    const [{ n }] = await db
      .select({ n: count() })
      .from(table)
      .where(and(inArray(tableColumn(table, "id"), ids), tenantColumn ? eq(tableColumn(table, tenantColumn), tenantId) : undefined));
    if (Number(n) !== ids.length) {
      const message = t("api.validation.reference", { label: labelText(t, field.label, field.name) });
      throw new ApiFailure("api.invalid_params", { field: field.name }, { errors: [{ field: field.name, message }] });
    }
  }
}

/**
 * The record as the API carries it: every declared field, saved or (never saved) its default, else null; a secret
 * never, only whether one is stored (`has_{field}`).
 */
function apiRecord(declaration: SettingsDecl, stored: SettingsRecord | undefined): SettingsRecord {
  const out: SettingsRecord = {};
  for (const field of declaration.fields) {
    if (isSecret(field)) {
      const secret = stored?.[field.name];
      out[storedSecretKey(field.name)] = typeof secret === "string" && secret !== "";
      continue;
    }
    const value = stored && Object.hasOwn(stored, field.name) ? stored[field.name] : (storedDefault(field) ?? null);
    const toApi = kindOf(field).toApi;
    out[field.name] = toApi && value !== null && value !== undefined ? toApi(field, value) : value;
  }
  return out;
}

async function storedRecord(db: DbOrTx, declaration: SettingsDecl, tenantId: number): Promise<SettingsRecord | undefined> {
  const [row] = await db
    .select({ fields: settingsRecords.fields })
    .from(settingsRecords)
    .where(and(eq(settingsRecords.name, declaration.name), eq(settingsRecords.tenantId, tenantId)));
  return row?.fields;
}

/** A tenant's record of a settings page, in API form (defaults while none is saved; no secret). */
export async function readSettings(db: DbOrTx, declaration: SettingsDecl, tenantId: number): Promise<SettingsRecord> {
  return apiRecord(declaration, await storedRecord(db, declaration, tenantId));
}

/**
 * The secret a tenant stored in a password field of a settings page, decrypted, for the domain that uses it; null
 * when none is stored. Throws PaymentKeyMissingError without a payment key, SecretDecryptionError under another key.
 */
export async function readSettingsSecret(db: DbOrTx, secrets: PaymentSecrets, declaration: SettingsDecl, tenantId: number, field: string): Promise<string | null> {
  if (!declaration.fields.some((f) => f.name === field && isSecret(f))) throw new Error(`settings ${declaration.name}: ${field} is no secret field`);
  const stored = (await storedRecord(db, declaration, tenantId))?.[field];
  return typeof stored === "string" && stored !== "" ? secrets.decrypt(stored, secretPurpose(declaration, field, tenantId)) : null;
}

/**
 * The values of an edit in stored form: a secret sent is encrypted, one sent empty (or left out) is dropped, so the
 * stored one stays.
 */
function storedValues(t: Translate, declaration: SettingsDecl, tenantId: number, values: SettingsRecord, secrets: PaymentSecrets): SettingsRecord {
  const out: SettingsRecord = { ...values };
  for (const field of declaration.fields.filter(isSecret)) {
    const sent = out[field.name];
    delete out[field.name];
    if (typeof sent !== "string" || sent === "") continue;
    try {
      out[field.name] = secrets.encrypt(sent, secretPurpose(declaration, field.name, tenantId));
    } catch (err) {
      // a server on PostgreSQL without PAYMENT_KEY keeps no secret: said as the merchants' keys say it
      if (err instanceof PaymentKeyMissingError) throw new ApiFailure("api.payment_key_missing", {}, { errors: [{ field: field.name, message: t("api.payment_key_missing") }] });
      throw err;
    }
  }
  return out;
}

/**
 * Saves checked values (stored form, by field name: a secret encrypted) into a tenant's record; fields not given
 * keep their saved values. One statement, so two saves of different fields at once both stay. Returns the record in API form.
 */
export async function writeSettings(db: DbOrTx, declaration: SettingsDecl, tenantId: number, values: SettingsRecord, userId: number | null = null): Promise<SettingsRecord> {
  const known = Object.fromEntries(Object.entries(values).filter(([name]) => declaration.fields.some((f) => f.name === name)));
  const [row] = await db
    .insert(settingsRecords)
    .values({ name: declaration.name, tenantId, fields: known, updatedBy: userId })
    .onConflictDoUpdate({
      target: [settingsRecords.name, settingsRecords.tenantId],
      set: { fields: sql`${settingsRecords.fields} || excluded.fields`, updatedAt: sql`now()`, updatedBy: userId },
    })
    .returning({ fields: settingsRecords.fields });
  return apiRecord(declaration, row?.fields);
}

/** The tenant the caller's record belongs to, from the checked scope of the call. */
/** The settings' tenant id, and the provider and school it is (for the audit log). */
async function tenantOf(ctx: OperationContext, declaration: SettingsDecl): Promise<{ id: number; sysid: number | null; schId: number | null }> {
  const auth = ctx.auth;
  // a provider's own record of a platform page (ownRecordFor): its provider's, whatever the payload names
  if (declaration.ownRecordFor && auth && auth.userType !== "system" && hasAnyRole(ctx.roles, declaration.ownRecordFor)) {
    if (auth.sysid === null) throw notFound();
    return { id: auth.sysid, sysid: auth.sysid, schId: null };
  }
  if (declaration.scope === "platform") return { id: PLATFORM_TENANT, sysid: null, schId: null };
  if (!auth) throw notFound();
  const scope = await resolveScope(ctx.db, auth, ctx.payload);
  if (declaration.scope === "provider") {
    if (scope.sysid === null) throw new ApiFailure("api.scope_required");
    return { id: scope.sysid, sysid: scope.sysid, schId: null };
  }
  // a school's own account acts in its school; everyone else names the school (sch_id)
  const named = ctx.payload.sch_id !== undefined || auth.userType === "school";
  if (!named || scope.schids === null || scope.schids.length !== 1) throw new ApiFailure("api.school_required");
  return { id: scope.schids[0]!, sysid: scope.sysid, schId: scope.schids[0]! };
}

/** `{name}info` and `{name}edit` of every settings page. */
export function registerSettingsOperations(registry: OperationRegistry, declarations: readonly SettingsDecl[]): void {
  for (const declaration of declarations) {
    assertSupported(declaration);
    const path = declaration.apiPath ?? DEFAULT_OPERATION_PATH;
    const schema = fieldsSchema(declaration.fields, "edit");

    registry.add({
      path,
      method: `${declaration.name}info`,
      needsToken: true,
      roles: declaration.roles.info,
      effect: "read",
      async handler(ctx) {
        const record = await readSettings(ctx.db, declaration, (await tenantOf(ctx, declaration)).id);
        return { data: { items: seenBy(declaration, ctx.roles, record) } };
      },
    });

    registry.add({
      path,
      method: `${declaration.name}edit`,
      needsToken: true,
      roles: declaration.roles.edit,
      effect: "write",
      // the payload's fields, for whoever reads the registry; each value is checked by its kind below
      schema: z.looseObject(Object.fromEntries(declaration.fields.map((f) => [f.name, z.unknown().optional()]))),
      async handler(ctx) {
        const tenant = await tenantOf(ctx, declaration);
        const parsed = schema.safeParse(ctx.payload);
        if (!parsed.success) {
          const errors = fieldErrors(declaration, parsed.error, ctx.t);
          throw new ApiFailure("api.invalid_params", { field: errors[0]?.field ?? "" }, { errors });
        }
        // a field the caller does not see is not the caller's to set
        const values = storedValues(ctx.t, declaration, tenant.id, seenBy(declaration, ctx.roles, parsed.data), ctx.services.paymentSecrets);
        const items = await ctx.db.transaction(async (tx) => {
          await checkReferences(tx, ctx.t, declaration, tenant.id, values);
          const saved = await writeSettings(tx, declaration, tenant.id, values, ctx.auth?.userId ?? null);
          await auditCall(tx, ctx, {
            action: `${declaration.name}edit`,
            entity: declaration.name,
            entityId: tenant.id,
            detail: { fields: Object.keys(values) },
            sysid: tenant.sysid,
            schId: tenant.schId,
          });
          return saved;
        });
        return { data: { items: seenBy(declaration, ctx.roles, items) } };
      },
    });
  }
}

/** The values of the fields a caller of these roles sees (FieldDecl.roles), and whether their secrets are stored. */
function seenBy(declaration: SettingsDecl, roles: readonly string[], record: SettingsRecord): SettingsRecord {
  if (!declaration.fields.some((f) => f.roles)) return record;
  const hidden = declaration.fields.filter((f) => !fieldSeenBy(f, roles)).flatMap((f) => [f.name, storedSecretKey(f.name)]);
  return Object.fromEntries(Object.entries(record).filter(([name]) => !hidden.includes(name)));
}
