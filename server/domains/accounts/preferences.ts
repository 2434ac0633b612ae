/**
 * A user's own preferences of the console, on the server so that they follow the user to every browser: so far
 * the columns of each list (src/engine/listColumns.ts, key `columns:{resource}`, e.g. `columns:actcode@schoolv2`). `userpreflist` answers all of
 * the caller's at once (a user has few), `userprefset` {key, value} saves one and a null value forgets it. Every
 * signed-in user, whatever their term, and only their own; not audited, since nothing of the business changes.
 */
import { and, count, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { userPreferences } from "../../db/schema";
import { ApiFailure } from "../../protocol/envelope";
import { ANY_SIGNED_IN, type OperationRegistry } from "../../protocol/registry";

/** what one user may keep: enough for every list of the console several times over */
export const MAX_PREFERENCES = 200;
/** a value's JSON, at most */
export const MAX_PREFERENCE_BYTES = 4096;

const setPayload = z.object({
  key: z.string().regex(/^[A-Za-z0-9_.:@-]{1,100}$/),
  /** an object or a list; null forgets the key */
  value: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown()), z.null()]),
});

export function registerPreferenceOperations(registry: OperationRegistry): void {
  registry.add({
    path: "adminapiv2",
    method: "userpreflist",
    needsToken: true,
    roles: ANY_SIGNED_IN,
    effect: "account",
    async handler(ctx) {
      const rows = await ctx.db
        .select({ key: userPreferences.key, value: userPreferences.value })
        .from(userPreferences)
        .where(eq(userPreferences.userId, ctx.auth!.userId))
        .orderBy(userPreferences.key);
      return { data: { items: rows } };
    },
  });

  registry.add({
    path: "adminapiv2",
    method: "userprefset",
    needsToken: true,
    roles: ANY_SIGNED_IN,
    effect: "account",
    schema: setPayload,
    async handler(ctx, payload) {
      const userId = ctx.auth!.userId;
      if (payload.value === null) {
        await ctx.db.delete(userPreferences).where(and(eq(userPreferences.userId, userId), eq(userPreferences.key, payload.key)));
        return {};
      }
      if (Buffer.byteLength(JSON.stringify(payload.value), "utf8") > MAX_PREFERENCE_BYTES) {
        throw new ApiFailure("api.preference_too_large", { field: "value", max: MAX_PREFERENCE_BYTES });
      }
      await ctx.db.transaction(async (tx) => {
        // one user's saves one at a time, so that the count below holds
        await tx.execute(sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
        const [{ n }] = await tx.select({ n: count() }).from(userPreferences).where(eq(userPreferences.userId, userId));
        const [existing] = await tx
          .select({ key: userPreferences.key })
          .from(userPreferences)
          .where(and(eq(userPreferences.userId, userId), eq(userPreferences.key, payload.key)));
        if (!existing && Number(n) >= MAX_PREFERENCES) throw new ApiFailure("api.preferences_full", { max: MAX_PREFERENCES });
        await tx
          .insert(userPreferences)
          .values({ userId, key: payload.key, value: payload.value, updatedAt: ctx.now })
          .onConflictDoUpdate({ target: [userPreferences.userId, userPreferences.key], set: { value: payload.value, updatedAt: ctx.now } });
      });
      return {};
    },
  });
}
