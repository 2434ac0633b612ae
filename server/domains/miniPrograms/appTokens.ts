/**
 * An app's tokens from its owner's authorisation, kept sealed on the app (mini_programs.auth_*): WeChat's authorizer
 * access and refresh tokens, Alipay's app_auth_token and app_refresh_token. The access token is renewed from the
 * refresh token by one process at a time (a transaction-scoped lock on the app), shortly before it ends; the
 * refresh token is replaced only by a newer one the platform answers, never dropped but by the owner's unauthorisation.
 */
import { eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { miniPrograms } from "../../db/schema";
import type { Clock } from "../../lib/clock";
import type { PaymentSecrets } from "../../payments/secrets";
import { PublisherError } from "./publisher";

/** a token is renewed this long before it ends (WeChat advises renewing its two-hour tokens at about 1 h 50) */
export const RENEW_BEFORE_MS = 10 * 60_000;
/** first key of pg_advisory_xact_lock(key, n): renewing the WeChat platform's token (n 0) or an app's (n its id) */
export const TOKEN_LOCK_SPACE = 7_411;

export interface AppTokens {
  accessToken: string;
  refreshToken: string;
  /** seconds */
  expiresIn: number;
}

export interface TokenServices {
  db: Db;
  clock: Clock;
  paymentSecrets: PaymentSecrets;
}

const sealedAs = {
  refresh: (appId: number) => `mini_programs.auth_refresh_token:${appId}`,
  access: (appId: number) => `mini_programs.auth_access_token:${appId}`,
};

/** Keeps an app's tokens sealed on it: the authorisation is the platform's from now on. */
export async function keepAppTokens(services: Omit<TokenServices, "db">, db: DbOrTx, appId: number, tokens: AppTokens): Promise<void> {
  const seconds = Number.isFinite(tokens.expiresIn) && tokens.expiresIn > 0 ? tokens.expiresIn : 7200;
  await db
    .update(miniPrograms)
    .set({
      auth_status: "authorized",
      auth_refresh_token: services.paymentSecrets.encrypt(tokens.refreshToken, sealedAs.refresh(appId)),
      auth_access_token: services.paymentSecrets.encrypt(tokens.accessToken, sealedAs.access(appId)),
      auth_token_expires_at: new Date(services.clock.now().getTime() + seconds * 1000),
    })
    .where(eq(miniPrograms.id, appId));
}

/**
 * The app's access token, renewed by `renew` (from the refresh token) when it is about to end. `beforeRenewing` runs
 * first, outside the transaction: what the renewal needs from the database (on the embedded one, the transaction holds
 * its one connection until it ends).
 */
export async function appAccessToken<T>(services: TokenServices, appId: number, beforeRenewing: () => Promise<T>, renew: (refreshToken: string, prepared: T) => Promise<AppTokens>): Promise<string> {
  const read = async (db: DbOrTx) => (await db.select().from(miniPrograms).where(eq(miniPrograms.id, appId)))[0];
  const usable = (row: Awaited<ReturnType<typeof read>>) =>
    row?.auth_access_token && row.auth_token_expires_at && row.auth_token_expires_at.getTime() - RENEW_BEFORE_MS > services.clock.now().getTime()
      ? services.paymentSecrets.decrypt(row.auth_access_token, sealedAs.access(appId))
      : undefined;
  const current = usable(await read(services.db));
  if (current) return current;
  const prepared = await beforeRenewing();
  return services.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${TOKEN_LOCK_SPACE}::integer, ${appId}::integer)`);
    const row = await read(tx);
    const made = usable(row);
    if (made) return made;
    // never authorised, or authorised away: WeChat's word for a refresh token it does not know
    if (!row?.auth_refresh_token || row.auth_status !== "authorized") throw new PublisherError(61023, "refresh_token is invalid");
    const tokens = await renew(services.paymentSecrets.decrypt(row.auth_refresh_token, sealedAs.refresh(appId)), prepared);
    await keepAppTokens(services, tx, appId, tokens);
    return tokens.accessToken;
  });
}
