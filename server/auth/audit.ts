/** Writes to the append-only audit log. */
import type { DbOrTx } from "../db/client";
import { auditLog } from "../db/schema";

export interface AuditEntry {
  userId?: number | null;
  username?: string;
  action: string;
  entity?: string;
  entityId?: string | number;
  ip?: string;
  detail?: Record<string, unknown>;
  /** the provider the entry concerns (null: a platform-only action), so that a provider's own trail can be read */
  sysid?: number | null;
  /** the school the entry concerns (null: none, or several), so that a school's own trail can be read */
  schId?: number | null;
}

export async function writeAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    userId: entry.userId ?? null,
    username: entry.username ?? "",
    action: entry.action,
    entity: entry.entity ?? "",
    entityId: entry.entityId === undefined ? "" : String(entry.entityId),
    ip: entry.ip ?? "",
    detail: entry.detail ?? {},
    sysid: entry.sysid ?? null,
    schId: entry.schId ?? null,
  });
}
