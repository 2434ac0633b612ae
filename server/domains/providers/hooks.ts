/** The provider entity's behaviour beyond CRUD: its first administrator, and logging its users out when disabled. */
import { eq } from "drizzle-orm";
import { writeAudit } from "../../auth/audit";
import { revokeProviderSessions } from "../../auth/sessions";
import { users } from "../../db/schema";
import { ApiFailure } from "../../protocol/envelope";
import type { EntityHooks } from "../../engine/hooks";

export const serviceHooks: EntityHooks = {
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
};
