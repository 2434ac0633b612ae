/**
 * Usernames are one name without regard to case and Unicode width: "SYSADMIN", "SysAdmin" and a full-width
 * "ＳＹＳＡＤＭＩＮ" are sysadmin. The database keeps them unique in that form (the unique index on
 * lower(normalize(username, NFKC)) of server/db/schema.ts), logins find the account by it, and the login throttle
 * counts attempts under it, so every spelling of a name is the same account and the same count of guesses.
 */
import { sql, type SQL } from "drizzle-orm";
import { users } from "../db/schema";
import type { Translate } from "../lib/i18n";
import { ApiFailure } from "../protocol/envelope";

/**
 * The compared form of a username: NFKC (full-width letters, compatibility characters), then lower case. Stored
 * usernames are ASCII (the form's pattern), where this is exactly the index's lower(normalize(..., NFKC)); a name
 * typed with other characters is compared in this one form, which is also its throttle key, so no two spellings
 * reach one account under two keys.
 */
export function normaliseUsername(username: string): string {
  return username.normalize("NFKC").toLowerCase();
}

/** the indexed form of the stored username */
const storedForm = sql`lower(normalize(${users.username}, NFKC))`;

/** The account whose username is `username` in the compared form (read through the unique index). */
export function usernameMatches(username: string): SQL {
  return sql`${storedForm} = ${normaliseUsername(username)}`;
}

/**
 * A new username already taken, whatever its case or width (found first, or by the unique index when two adds
 * race): one FAIL naming the field, which says nothing of whose account holds it.
 */
export function usernameUnavailable(t: Translate): ApiFailure {
  return new ApiFailure("api.username_unavailable", {}, { errors: [{ field: "username", message: t("api.username_unavailable") }] });
}
