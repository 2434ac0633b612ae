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
  });
}
