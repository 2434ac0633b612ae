/** The catalogue's reports (resources.config.ts) with the sources of their figures. */
import { reports } from "../../../resources.config";
import { registerReportOperations } from "../../engine/reports";
import type { OperationRegistry } from "../../protocol/registry";
import { studentReportSources } from "./students";

export function registerReports(registry: OperationRegistry): void {
  registerReportOperations(registry, reports, { ...studentReportSources });
}
