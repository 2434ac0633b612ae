/**
 * What the full suite needs, and how a caller leaves a part out on purpose. `npm test` runs everything: the
 * server tests on PGlite and on PostgreSQL, and the browser tests in Chromium. A missing PostgreSQL or Chromium
 * fails the run, unless the caller names the part it leaves out in TEST_SKIP (comma-separated: `postgres`,
 * `browser`); the tests left out then show as skipped in the report, with the reason.
 */
export type OptionalPart = "postgres" | "browser";

const PARTS: readonly OptionalPart[] = ["postgres", "browser"];

export function skippedParts(): OptionalPart[] {
  const asked = (process.env.TEST_SKIP ?? "")
    .split(",")
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  const unknown = asked.filter((p) => !PARTS.includes(p as OptionalPart));
  if (unknown.length > 0) throw new Error(`TEST_SKIP names ${unknown.join(", ")}: it takes ${PARTS.join(", ")}`);
  return asked as OptionalPart[];
}

export function isSkipped(part: OptionalPart): boolean {
  return skippedParts().includes(part);
}

/** The reason shown beside a part left out on purpose. */
export function skipReason(): string {
  return `skipped: TEST_SKIP=${process.env.TEST_SKIP ?? ""}`;
}

/** The PostgreSQL server of the test databases (a fresh database is created on it per test file). */
export const DEFAULT_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres";
