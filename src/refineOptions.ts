/**
 * refine's options for the console. Queries are not retried on their own: the weapi client shows every
 * failure once (a FAIL envelope is the server's answer, a network error its own toast), so each retry would
 * repeat the toast and keep the page loading for seconds; a page whose data failed offers a retry instead.
 */
import type { IRefineOptions } from "@refinedev/core";

export const REFINE_OPTIONS: IRefineOptions = {
  disableTelemetry: true,
  syncWithLocation: true,
  warnWhenUnsavedChanges: false,
  reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false } } } },
};
