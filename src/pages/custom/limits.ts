/** Limits of the renewal operations (contract of issue 3), checked here before the server checks them too. */
export const MAX_CODES_PER_BATCH = 1000;
export const MAX_TERM_MONTHS = 120;
export const REMARK_MAX_LENGTH = 200;
