/** Rules of the report declarations (common/catalogue.ts ReportDecl) that the server and the SPA share. */
import type { FieldDecl, ReportDecl } from "./catalogue";

/** The dimensions a report may be read by, the default first. */
export function reportDimensions(report: ReportDecl): readonly FieldDecl[] {
  return report.dimensions ?? [report.dimension];
}
