/**
 * A guardian's mobile number on an activity's board: the arrears list shows it masked (138****5678); the whole
 * number is one request away, `guardianphone` {id: the bill}, which answers it only for a bill in the caller's
 * tenant and writes who saw which student's guardian's number in the audit log, in the same transaction.
 */
import { and, eq } from "drizzle-orm";
import { billEntity } from "../../../catalogue/collection";
import { auditCall } from "../../auth/audit";
import { resolveScope } from "../../auth/scope";
import { bills, students } from "../../db/schema";
import { entityTenantConditions, parseRecordId } from "../../engine/crud";
import { notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";

export const GUARDIAN_PHONE = "guardianphone";

/** A number as the board shows it: the first three and last four digits of a mobile number, the rest starred. */
export function maskPhone(phone: string | null): string | null {
  if (phone === null) return null;
  const text = phone.trim();
  if (text.length >= 8) return `${text.slice(0, 3)}${"*".repeat(text.length - 7)}${text.slice(-4)}`;
  // too short to keep both ends: its last two digits only
  return `${"*".repeat(Math.max(0, text.length - 2))}${text.slice(-2)}`;
}

async function guardianPhone(ctx: OperationContext) {
  const id = parseRecordId(ctx.payload.id);
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  return ctx.db.transaction(async (tx) => {
    const [bill] = await tx
      .select({ id: bills.id, sysid: bills.sysid, sch_id: bills.sch_id, student_id: students.id, student: students.name, guardian_phone: students.guardian_phone })
      .from(bills)
      .innerJoin(students, eq(students.id, bills.student_id))
      .where(and(eq(bills.id, id), ...entityTenantConditions(billEntity, bills, ctx, scope)));
    if (!bill) throw notFound();
    await auditCall(tx, ctx, {
      action: GUARDIAN_PHONE,
      entity: "student",
      entityId: bill.student_id,
      detail: { bill_id: bill.id, student: bill.student },
      sysid: bill.sysid,
      schId: bill.sch_id,
    });
    return { data: { items: { id: bill.id, student_id: bill.student_id, guardian_phone: bill.guardian_phone } } };
  });
}

export function registerGuardianPhoneOperation(registry: OperationRegistry): void {
  registry.add({ path: "adminapiv2", method: GUARDIAN_PHONE, needsToken: true, roles: billEntity.roles.list!, effect: "read", handler: guardianPhone });
}
