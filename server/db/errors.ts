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

/** The name of the constraint a database error (or one it wraps) names, e.g. the unique index a write hit. */
export function errorConstraint(err: unknown): string | undefined {
  for (let e: unknown = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const constraint = (e as { constraint?: unknown }).constraint;
    if (typeof constraint === "string" && constraint) return constraint;
  }
  return undefined;
}
