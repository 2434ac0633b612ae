/**
 * adminapiv2: the site settings and system info (the platform's record of the settings page "sysset", edited with
 * syssetedit) and the password change.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { accountTenant, auditCall } from "../../auth/audit";
import { revokeUserSessions } from "../../auth/sessions";
import { clearFailures, ipKey, recordFailures, releaseAttempts, reserveAttempts, usernameKey } from "../../auth/throttle";
import { users } from "../../db/schema";
import { ApiFailure } from "../../protocol/envelope";
import { ANY_SIGNED_IN, type OperationRegistry } from "../../protocol/registry";
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
    roles: ANY_SIGNED_IN,
    effect: "read",
    async handler(ctx) {
      const s = await loadSiteSettings(ctx.db);
      return { data: { items: { user_manual_url: s.userManualUrl } } };
    },
  });

  registry.add({
    path: "adminapiv2",
    method: "sysusereditpassword",
    needsToken: true,
    roles: ANY_SIGNED_IN,
    effect: "account",
    schema: passwordChangePayload,
    async handler(ctx, payload) {
      const auth = ctx.auth!;
      // a stolen session must not be a way to guess the password: the login's allowance, counted before the check
      const userKey = usernameKey(auth.username);
      const addressKey = ipKey(ctx.ip);
      const throttle = ctx.services.throttle;
      const keys = [
        { key: userKey, rule: throttle.perUsername },
        { key: addressKey, rule: throttle.perIp },
      ];
      const lockedMs = await reserveAttempts(ctx.db, keys, ctx.now);
      if (lockedMs > 0) throw new ApiFailure("api.password_locked", { seconds: Math.ceil(lockedMs / 1000) });
      const [user] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, auth.userId));
      if (!user || !(await ctx.services.hasher.verify(user.passwordHash, payload.password1))) {
        await recordFailures(ctx.db, keys, ctx.now);
        await auditCall(ctx.db, ctx, { action: "password_change_failed", ...accountTenant(auth) });
        throw new ApiFailure("api.password_wrong");
      }
      // the password is proven: what follows is no guess
      await clearFailures(ctx.db, userKey);
      await releaseAttempts(ctx.db, [addressKey]);
      if (payload.password2.length < MIN_PASSWORD_LENGTH) throw new ApiFailure("api.password_short", { min: MIN_PASSWORD_LENGTH });
      if (payload.password2 !== payload.password3) throw new ApiFailure("api.password_mismatch");
      const passwordHash = await ctx.services.hasher.hash(payload.password2);
      await ctx.db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, updatedAt: ctx.now }).where(eq(users.id, auth.userId));
        await revokeUserSessions(tx, auth.userId, ctx.now, ctx.tokenHash ?? undefined);
        await auditCall(tx, ctx, { action: "password_change", ...accountTenant(auth) });
      });
      return { messageKey: "api.password_changed" };
    },
  });
}
