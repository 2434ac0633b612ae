/** PostgreSQL's SQLSTATE codes the server reacts to, and how to find one in a driver's error. */

export const UNIQUE_VIOLATION = "23505";
export const FOREIGN_KEY_VIOLATION = "23503";

/** Whether a database error (or one it wraps, as drizzle does) carries this SQLSTATE. */
export function hasErrorCode(err: unknown, code: string): boolean {
  for (let e: unknown = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}
