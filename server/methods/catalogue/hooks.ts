/**
 * Behaviour of catalogue entities beyond plain CRUD. An entity without hooks gets the generic operations only.
 */
import { eq } from "drizzle-orm";
import { writeAudit } from "../../auth/audit";
import { revokeProviderSessions } from "../../auth/sessions";
import type { DbOrTx } from "../../db/client";
import { users } from "../../db/schema";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationContext } from "../../protocol/registry";
import type { Scope } from "../../auth/scope";

export type Row = Record<string, unknown>;

export interface EntityHooks {
  /** before a new row is written: checks of the record against the scope it is added in */
  beforeAdd?(ctx: OperationContext, scope: Scope, record: Row): void;
  /** after the row is inserted, in the same transaction; `virtual` holds the entity's virtual fields */
  afterAdd?(ctx: OperationContext, tx: DbOrTx, row: Row, virtual: Row): Promise<void>;
  /** after the row is updated, in the same transaction */
  afterEdit?(ctx: OperationContext, tx: DbOrTx, before: Row, after: Row): Promise<void>;
}

export const entityHooks: Record<string, EntityHooks> = {
  school: {
    // a provider cannot hand a school more time than it has itself
    beforeAdd(ctx, scope, record) {
      const providerEnd = scope.provider?.endTime.slice(0, 10);
      if (ctx.auth?.userType === "system" || !providerEnd || typeof record.endtime !== "string" || record.endtime <= providerEnd) return;
      const message = ctx.t("api.endtime_beyond_provider", { end: providerEnd });
      throw new ApiFailure("api.endtime_beyond_provider", { end: providerEnd }, { errors: [{ field: "endtime", message }] });
    },
  },
  service: {
    // the provider's first administrator account is created with it
    async afterAdd(ctx, tx, row, virtual) {
      const username = String(virtual.username);
      const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.username, username));
      if (taken) throw new ApiFailure("api.username_taken", {}, { errors: [{ field: "username", message: ctx.t("api.username_taken") }] });
      const passwordHash = await ctx.services.hasher.hash(String(virtual.password));
      const [user] = await tx
        .insert(users)
        .values({ username, passwordHash, name: String(row.title), userType: "service", sysid: Number(row.id) })
        .returning({ id: users.id });
      await writeAudit(tx, {
        userId: ctx.auth?.userId,
        username: ctx.auth?.username,
        action: "useradd",
        entity: "user",
        entityId: user.id,
        ip: ctx.ip,
        detail: { username, user_type: "service", sysid: row.id },
      });
    },
    // a disabled provider's users are logged out at once
    async afterEdit(ctx, tx, before, after) {
      if (before.status !== "0" && after.status === "0") await revokeProviderSessions(tx, Number(after.id), ctx.now);
    },
  },
};
