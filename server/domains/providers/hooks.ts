/** The provider entity's behaviour beyond CRUD: its first administrator, and logging its users out when disabled. */
import { auditCall } from "../../auth/audit";
import { revokeProviderSessions } from "../../auth/sessions";
import { usernameMatches, usernameUnavailable } from "../../auth/usernames";
import { hasErrorCode, UNIQUE_VIOLATION } from "../../db/errors";
import { users } from "../../db/schema";
import type { EntityHooks } from "../../engine/hooks";

export const serviceHooks: EntityHooks = {
  // the provider's first administrator account is created with it
  async afterAdd(ctx, tx, row, virtual) {
    const username = String(virtual.username);
    // taken whatever its case or width, and answered alike when another add takes it first (the unique index)
    const [taken] = await tx.select({ id: users.id }).from(users).where(usernameMatches(username));
    if (taken) throw usernameUnavailable(ctx.t);
    const passwordHash = await ctx.services.hasher.hash(String(virtual.password));
    let user: { id: number };
    try {
      [user] = await tx
        .insert(users)
        .values({ username, passwordHash, name: String(row.title), userType: "service", sysid: Number(row.id) })
        .returning({ id: users.id });
    } catch (err) {
      // the whole add is rolled back either way
      if (hasErrorCode(err, UNIQUE_VIOLATION)) throw usernameUnavailable(ctx.t);
      throw err;
    }
    await auditCall(tx, ctx, {
      action: "useradd",
      entity: "user",
      entityId: user.id,
      detail: { username, user_type: "service", sysid: row.id },
      sysid: Number(row.id),
      schId: null,
    });
  },
  // a disabled provider's users are logged out at once
  async afterEdit(ctx, tx, before, after) {
    if (before.status !== "0" && after.status === "0") await revokeProviderSessions(tx, Number(after.id), ctx.now);
  },
};
