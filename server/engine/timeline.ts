/**
 * A record's timeline (EntityDecl.timeline): the audit entries of the record whose action its entity declares, oldest
 * first, each with who, when, the states it moved between and what it was given. Every action the engine runs
 * writes its audit entry (server/engine/actions.ts), and a domain writes its own events (a payment, the gateway's
 * answer to a refund) with writeAudit under the entity's name and the record's id, so the timeline needs no table of
 * its own: the entry's text is the entity's template of the event, in the reader's language (src/engine/Timeline.tsx).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { EntityDecl } from "../../common/catalogue";
import { fenToYuan } from "../../common/money";
import type { TimelineEntry } from "../../common/timeline";
import type { DbOrTx } from "../db/client";
import { auditLog } from "../db/schema";

/** the most entries a record's timeline answers: the oldest first */
const MAX_TIMELINE_ENTRIES = 200;

export async function recordTimeline(db: DbOrTx, entity: EntityDecl, id: number): Promise<TimelineEntry[]> {
  const events = Object.keys(entity.timeline ?? {});
  if (events.length === 0) return [];
  const rows = await db
    .select({ at: auditLog.at, username: auditLog.username, action: auditLog.action, detail: auditLog.detail })
    .from(auditLog)
    .where(and(eq(auditLog.entity, entity.name), eq(auditLog.entityId, String(id)), inArray(auditLog.action, events)))
    .orderBy(asc(auditLog.id))
    .limit(MAX_TIMELINE_ENTRIES);
  return rows.map((row) => {
    const detail = (row.detail ?? {}) as Record<string, unknown>;
    const params: Record<string, string | number> = {};
    // an action's entry holds its fields as stored: its money in fen, shown in yuan
    const money = new Set((entity.actions?.find((a) => a.name === row.action)?.fields ?? []).filter((f) => f.type === "money").map((f) => f.name));
    for (const [key, value] of Object.entries(detail)) {
      if (key === "from" || key === "to") continue;
      if (typeof value === "number" && money.has(key)) params[key] = fenToYuan(value);
      else if (typeof value === "string" || typeof value === "number") params[key] = value;
    }
    return {
      at: row.at.toISOString(),
      who: row.username,
      event: row.action,
      from: typeof detail.from === "string" ? detail.from : null,
      to: typeof detail.to === "string" ? detail.to : null,
      params,
    };
  });
}
