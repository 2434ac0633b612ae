/**
 * Extending a subscription term (spec 4.2): a school's `endtime` or a provider's `end_time` moves to the later of
 * today and the current end plus the months bought, under a row lock, and the renewal is recorded (school_renewals
 * or provider_extensions) and audited in the same transaction. Every way of renewing (QR payment, activation code,
 * contract maintenance) ends here.
 */
import { eq } from "drizzle-orm";
import { businessDay, extendedEnd } from "../../../common/term";
import { writeAudit, type AuditActor } from "../../auth/audit";
import { tableColumn, type CatalogueTable } from "../../db/catalogueTables";
import type { DbOrTx } from "../../db/client";
import { providerExtensions, providers, schoolRenewals, schools } from "../../db/schema";
import { ApiFailure, notFound } from "../../protocol/envelope";

export type RenewWay = "pay" | "code" | "manual";

export interface TermExtension {
  way: RenewWay;
  /** what was bought: the package title, or the code's */
  title: string;
  months: number;
  feeFen: number;
  payNo?: string;
  actCode?: string;
  remark?: string;
}

export interface ExtendedTerm {
  oldEnd: string | null;
  newEnd: string;
}

interface TermHolder {
  table: CatalogueTable;
  /** the term's end column */
  endColumn: string;
  records: CatalogueTable;
  /** the record's column with the holder's title */
  titleColumn: string;
  audit: string;
  /** the record's tenant columns from the holder row */
  tenant(row: Record<string, unknown>): Record<string, unknown>;
}

const SCHOOL: TermHolder = {
  table: schools,
  endColumn: "endtime",
  records: schoolRenewals,
  titleColumn: "school_title",
  audit: "schoolrenew",
  tenant: (row) => ({ sysid: row.sysid, sch_id: row.id }),
};

const PROVIDER: TermHolder = {
  table: providers,
  endColumn: "end_time",
  records: providerExtensions,
  titleColumn: "service_title",
  audit: "servicedelay",
  tenant: (row) => ({ sysid: row.id }),
};

async function extendTerm(tx: DbOrTx, holder: TermHolder, id: number, extension: TermExtension, actor: AuditActor, now: Date): Promise<ExtendedTerm> {
  const idColumn = tableColumn(holder.table, "id");
  const [row] = await tx.select().from(holder.table).where(eq(idColumn, id)).for("update");
  if (!row) throw notFound();
  const current = row[holder.endColumn];
  const oldEnd = typeof current === "string" && current ? current : null;
  const newEnd = extendedEnd(oldEnd, extension.months, businessDay(now));
  if (newEnd === null) throw new ApiFailure("api.term_too_long");
  await tx.update(holder.table).set({ [holder.endColumn]: newEnd }).where(eq(idColumn, id));
  const [record] = await tx
    .insert(holder.records)
    .values({
      ...holder.tenant(row),
      [holder.titleColumn]: row.title,
      way: extension.way,
      title: extension.title,
      term_months: extension.months,
      fee: extension.feeFen,
      old_end: oldEnd,
      new_end: newEnd,
      pay_no: extension.payNo ?? null,
      act_code: extension.actCode ?? null,
      remark: extension.remark ?? null,
      operator: actor.username,
    })
    .returning({ id: tableColumn(holder.records, "id") });
  const tenant = holder.tenant(row);
  await writeAudit(tx, actor, {
    action: holder.audit,
    entity: holder.audit,
    entityId: String(record.id),
    detail: { ...tenant, way: extension.way, months: extension.months, fee_fen: extension.feeFen, old_end: oldEnd, new_end: newEnd, pay_no: extension.payNo, act_code: extension.actCode },
    // the school or provider extended
    sysid: Number(tenant.sysid),
    schId: tenant.sch_id === undefined ? null : Number(tenant.sch_id),
  });
  return { oldEnd, newEnd };
}

export function extendSchoolTerm(tx: DbOrTx, schId: number, extension: TermExtension, actor: AuditActor, now: Date): Promise<ExtendedTerm> {
  return extendTerm(tx, SCHOOL, schId, extension, actor, now);
}

export function extendProviderTerm(tx: DbOrTx, sysid: number, extension: TermExtension, actor: AuditActor, now: Date): Promise<ExtendedTerm> {
  return extendTerm(tx, PROVIDER, sysid, extension, actor, now);
}
