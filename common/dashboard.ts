/** The dashboard's answer (the `dashboard` operation), shared by the server that computes it and the page that shows it. */

/** A list filter the link opens the list with: a value, or a day range [start, end] (either may be ""). */
export type LinkFilter = string | [string, string];

/**
 * What a figure counts, for the SPA to link: a list of an entity (narrowed by its list filters to the records
 * counted), a report or a route by name.
 */
export type DashboardLink = { entity: string; filters?: Record<string, LinkFilter> } | { report: string } | { route: string };

export interface DashboardFigure {
  /** translation key dashboard.figure.{key} */
  key: string;
  value: number;
  /** the lists it counts, in order of preference */
  links: DashboardLink[];
  /** "warning": needs attention soon; "danger": needs it now */
  tone?: "warning" | "danger";
  /** how the value reads: an amount of money (value in fen), a percentage; absent: a count */
  format?: "money" | "percent";
}

export type DashboardAudience = "platform" | "provider" | "staff" | "school" | "pickup";

/** A day of fee collection: what was paid and what was refunded, in fen. */
export interface CollectionDay {
  /** YYYY-MM-DD, China's business day */
  day: string;
  paid: number;
  refunded: number;
}

/** An open activity with bills still owed: how many and how much (fen). */
export interface UnpaidActivity {
  activity_id: number;
  title: string;
  sch_id: number;
  school: string;
  unpaid_bills: number;
  unpaid_amount: number;
}

export interface DashboardCollection {
  /** the last COLLECTION_DAYS days, oldest first, today last */
  days: CollectionDay[];
  /** the days' totals, in fen: what the payment statistics (paycount_servicev2) answer over the same days */
  total: { paid: number; refunded: number };
  /** the open activities with the most unpaid bills, most first (at most UNPAID_ACTIVITIES) */
  unpaid: UnpaidActivity[];
}

/** How many days the collection chart shows, and how many activities the unpaid list. */
export const COLLECTION_DAYS = 30;
export const UNPAID_ACTIVITIES = 5;

export interface Dashboard {
  audience: DashboardAudience;
  figures: DashboardFigure[];
  /** fee collection over time, for those who collect fees (providers, their staff, schools) */
  collection?: DashboardCollection;
}
