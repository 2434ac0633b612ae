/** Every /weapi/ operation of the server. */
import { entities } from "../../resources.config";
import { registerMerchantOperations } from "../payments/merchants";
import type { OperationRegistry } from "../protocol/registry";
import { registerCatalogueOperations } from "./catalogue/crud";
import { registerDailyReportOperations } from "./dailyReport";
import { registerRenewalOperations } from "./renewal";
import { registerSessionOperations } from "./session";
import { registerSiteOperations } from "./site";

export function registerOperations(registry: OperationRegistry): void {
  registerSessionOperations(registry);
  registerSiteOperations(registry);
  registerMerchantOperations(registry);
  registerRenewalOperations(registry);
  registerDailyReportOperations(registry);
  registerCatalogueOperations(registry, entities);
}
