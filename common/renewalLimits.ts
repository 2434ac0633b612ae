/** Limits of the renewal operations: the server enforces them, the SPA's forms check them first. */
export const MAX_CODES_PER_BATCH = 1000;
export const MAX_TERM_MONTHS = 120;
export const REMARK_MAX_LENGTH = 200;
