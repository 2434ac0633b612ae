/** The catalogue's reports (resources.config.ts) with the sources of their figures. */
import { reports } from "../../../resources.config";
import { registerReportOperations, type ReportSources } from "../../engine/reports";
import type { OperationRegistry } from "../../protocol/registry";
import { collectionReportSources } from "./collection";
import { goodsReportSources } from "./goods";
import { studentReportSources } from "./students";

/** Every report's source of figures, by report name. */
export const reportSources: ReportSources = { ...studentReportSources, ...collectionReportSources, ...goodsReportSources };

export function registerReports(registry: OperationRegistry): void {
  registerReportOperations(registry, reports, reportSources);
}
