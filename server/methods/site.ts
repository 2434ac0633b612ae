/** adminapiv2: site settings, system info and the password change. */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { writeAudit } from "../auth/audit";
import { revokeUserSessions } from "../auth/sessions";
import { users } from "../db/schema";
import { ApiFailure } from "../protocol/envelope";
import type { OperationRegistry } from "../protocol/registry";
import { loadSiteSettings } from "./siteSettings";

/** Spec 9: minimum password length. */
export const MIN_PASSWORD_LENGTH = 6;

const passwordChangePayload = z.object({
  /** the current password: a change must prove it */
  password1: z.string().max(200),
  password2: z.string().max(200),
  password3: z.string().max(200),
});

export function registerSiteOperations(registry: OperationRegistry): void {
  registry.add({
    path: "adminapiv2",
    method: "getwebsetinfo",
    needsToken: false,
    async handler(ctx) {
      const s = await loadSiteSettings(ctx.db);
      return { data: { items: { title: s.title, keywords: s.keywords, description: s.description, icon: s.icon, kfurl: s.kfurl } } };
    },
  });

  registry.add({
    path: "adminapiv2",
    method: "getsysinfo",
    needsToken: true,
    async handler(ctx) {
      const s = await loadSiteSettings(ctx.db);
      return { data: { items: { user_manual_url: s.userManualUrl } } };
    },
  });

  registry.add({
    path: "adminapiv2",
    method: "sysusereditpassword",
    needsToken: true,
    schema: passwordChangePayload,
    async handler(ctx, payload) {
      const auth = ctx.auth!;
      const [user] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, auth.userId));
      if (!user || !(await ctx.services.hasher.verify(user.passwordHash, payload.password1))) throw new ApiFailure("api.password_wrong");
      if (payload.password2.length < MIN_PASSWORD_LENGTH) throw new ApiFailure("api.password_short", { min: MIN_PASSWORD_LENGTH });
      if (payload.password2 !== payload.password3) throw new ApiFailure("api.password_mismatch");
      const passwordHash = await ctx.services.hasher.hash(payload.password2);
      await ctx.db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, updatedAt: ctx.now }).where(eq(users.id, auth.userId));
        await revokeUserSessions(tx, auth.userId, ctx.now, ctx.tokenHash ?? undefined);
        await writeAudit(tx, { userId: auth.userId, username: auth.username, action: "password_change", ip: ctx.ip });
      });
      return { messageKey: "api.password_changed" };
    },
  });
}
