/** adminapi: login, getuserinfo, logout (spec 7, DESIGN 4 and 5). */
import { z } from "zod";
import { accountActor, accountTenant, auditCall, writeAudit } from "../../auth/audit";
import { loadAuthority, type Authority } from "../../auth/authority";
import { createSession, revokeSession } from "../../auth/sessions";
import { usernameMatches } from "../../auth/usernames";
import { clearFailures, ipKey, recordFailures, releaseAttempts, reserveAttempts, usernameKey } from "../../auth/throttle";
import { users } from "../../db/schema";
import { ApiFailure } from "../../protocol/envelope";
import { ANY_SIGNED_IN, type OperationContext, type OperationRegistry } from "../../protocol/registry";
import { loadSiteSettings } from "../site/siteSettings";

const loginPayload = z.object({
  username: z.string().trim().min(1).max(50),
  password: z.string().min(1).max(200),
});

/** The session facts the SPA keeps in its cookies (login data.items.data). */
export function loginFacts(auth: Authority, kfurl: string): Record<string, string> {
  const provider = auth.provider;
  return {
    user_type: auth.userType,
    login_usertype: auth.userType,
    username: auth.username,
    name: auth.name,
    servicer_ver: auth.facts.servicer_ver,
    sysid: auth.sysid === null ? "" : String(auth.sysid),
    schid: auth.schid === null ? "" : String(auth.schid),
    is_superadmin: auth.facts.is_superadmin,
    is_show_fee: auth.facts.is_show_fee,
    select_paymode: auth.facts.select_paymode,
    xcx_upload: auth.facts.xcx_upload,
    open_activity_mode: provider?.openActivityMode ?? "",
    service_name: provider?.title ?? "",
    service_end_time: provider?.endTime ?? "",
    kfurl,
  };
}

async function login(ctx: OperationContext, payload: z.infer<typeof loginPayload>) {
  const { db, now, services } = ctx;
  const userKey = usernameKey(payload.username);
  const addressKey = ipKey(ctx.ip);
  // counted before the password is checked, so that requests arriving together get no more checks than the rules
  // allow; the username first, so that a burst on one account does not use up its address's allowance
  const keys = [
    { key: userKey, rule: services.throttle.perUsername },
    { key: addressKey, rule: services.throttle.perIp },
  ];
  const lockedMs = await reserveAttempts(db, keys, now);
  if (lockedMs > 0) throw new ApiFailure("api.login_locked", { seconds: Math.ceil(lockedMs / 1000) });

  // "SYSADMIN" or a full-width spelling is sysadmin, counted under sysadmin's key above
  const [user] = await db
    .select({ id: users.id, passwordHash: users.passwordHash, sysid: users.sysid, schid: users.schid })
    .from(users)
    .where(usernameMatches(payload.username));
  const passwordOk = user ? await services.hasher.verify(user.passwordHash, payload.password) : await services.hasher.verifyNothing(payload.password);
  if (!user || !passwordOk) {
    // the attempts counted above stay as this failure
    await recordFailures(db, keys, now);
    // a wrong password for an account is its tenant's business; an unknown username is nobody's
    await writeAudit(db, accountActor({ userId: user?.id ?? null, username: payload.username }, ctx.ip), { action: "login_failed", ...(user ? accountTenant(user) : { sysid: null, schId: null }) });
    throw new ApiFailure("api.login_failed");
  }
  const auth = await loadAuthority(db, user.id);
  if (!auth || !auth.usable) {
    await releaseAttempts(db, [userKey, addressKey]);
    await writeAudit(db, accountActor({ userId: user.id, username: payload.username }, ctx.ip), { action: "login_refused", detail: { reason: "disabled" }, ...accountTenant(user) });
    throw new ApiFailure("api.account_disabled");
  }
  await clearFailures(db, userKey);
  await releaseAttempts(db, [addressKey]);
  const token = await createSession(db, { userId: user.id, now, ip: ctx.ip, userAgent: ctx.userAgent });
  await auditCall(db, { auth, ip: ctx.ip }, { action: "login", ...accountTenant(auth) });
  const settings = await loadSiteSettings(db);
  return { data: { token, items: { data: loginFacts(auth, settings.kfurl) } } };
}

export function registerSessionOperations(registry: OperationRegistry): void {
  registry.add({ path: "adminapi", method: "login", needsToken: false, schema: loginPayload, handler: login });

  registry.add({
    path: "adminapi",
    method: "getuserinfo",
    needsToken: true,
    roles: ANY_SIGNED_IN,
    effect: "account",
    async handler(ctx) {
      const auth = ctx.auth!;
      return {
        data: {
          items: {
            roles: auth.roles,
            name: auth.name,
            avatar: auth.avatar,
            introduction: auth.introduction,
            username: auth.username,
            user_type: auth.userType,
          },
        },
      };
    },
  });

  registry.add({
    path: "adminapi",
    method: "logout",
    needsToken: true,
    roles: ANY_SIGNED_IN,
    effect: "account",
    async handler(ctx) {
      await revokeSession(ctx.db, ctx.tokenHash!, ctx.now);
      await auditCall(ctx.db, ctx, { action: "logout", ...accountTenant(ctx.auth!) });
      return { messageKey: "api.logout_ok" };
    },
  });
}
