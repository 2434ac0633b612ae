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

export interface Dashboard {
  audience: DashboardAudience;
  figures: DashboardFigure[];
}
