/** Every /weapi/ operation of the server. */
import { entities, settingsPages } from "../../resources.config";
import { registerMerchantOperations } from "../payments/merchants";
import type { OperationRegistry } from "../protocol/registry";
import { registerCatalogueOperations } from "../engine/crud";
import { registerEntityActions } from "../engine/actions";
import { registerImportOperations } from "../engine/imports";
import { registerSettingsOperations } from "../engine/settings";
import { registerDailyReportOperations } from "./providers/dailyReport";
import { serviceHooks } from "./providers/hooks";
import { classesHooks, schoolHooks } from "./schools/hooks";
import { registerRenewalOperations } from "./renewals";
import { registerSessionOperations } from "./accounts/session";
import { registerPreferenceOperations } from "./accounts/preferences";
import { registerAccountOperations } from "./accounts/users";
import { registerSiteOperations } from "./site/site";
import { registerReports } from "./reports";
import { registerDashboardOperations } from "./dashboard";
import { feeEffects, feeHooks, registerFeeOperations, schoolChannel } from "./fees";
import { collectionEffects, collectionHooks, registerCollectionOperations } from "./collection";
import { registerDownloadOperations } from "./downloads";
import { registerNoticeOperations } from "./notices";
import { registerGuardianPhoneOperation } from "./notices/guardianPhone";
import { goodsHooksByEntity } from "./retail/goods";
import { serviceProjectLogHooks } from "./retail/goodsLogs";
import { registerShopApi } from "./retail/shop";
import { fulfilmentEffects, registerPickupOperations } from "./retail/fulfilment";
import { registerShopOrderOperations, shopOrderEffects } from "./retail/shopOrders";
import { afterSaleEffects, registerAfterSaleApi } from "./retail/afterSales";
import { expressTemplateHooks } from "./retail/freight";
import { bannerHooks, saleAddressHooks } from "./retail/shopSettings";
import { registerShopPageOperations, shopPageHooks } from "./retail/shopPages";
import { deviceHooks, printJobEffects } from "./devices/devices";
import { registerPrinting } from "./devices/printing";
import { registerDeliveryImport } from "./retail/deliveryImport";
import { registerTraceSourceOperations, traceSourceEffects, traceSourceHooks } from "./retail/traceSources";
import { registerCustomerService } from "./retail/customerService";
import { registerHelpCentre } from "./help/helpCentre";
import { articleHooks } from "./site/publicSite";
import { registerRegistrationOperations, registerReviewEffect } from "./providers/registrations";
import { clientHooks, clientResetEffect } from "./openapi/clients";
import { miniAppEffects, miniAppHooks } from "./miniPrograms/effects";

export function registerOperations(registry: OperationRegistry): void {
  registerSessionOperations(registry);
  registerAccountOperations(registry);
  registerPreferenceOperations(registry);
  registerSiteOperations(registry);
  registerMerchantOperations(registry);
  registerRenewalOperations(registry);
  registerDailyReportOperations(registry);
  registerCatalogueOperations(registry, entities, { service: serviceHooks, school: schoolHooks, classes: classesHooks, ...feeHooks, ...collectionHooks, ...goodsHooksByEntity, ...traceSourceHooks, serviceproject: serviceProjectLogHooks, saleaddress: saleAddressHooks, expresstemplate: expressTemplateHooks, device: deviceHooks, banner: bannerHooks, shopdiy: shopPageHooks, article: articleHooks, client: clientHooks, miniapp: miniAppHooks });
  registerEntityActions(registry, entities, { ...feeEffects, ...collectionEffects(schoolChannel), ...shopOrderEffects, ...afterSaleEffects, ...fulfilmentEffects, ...traceSourceEffects, ...printJobEffects, registerreview: registerReviewEffect, clientreset: clientResetEffect, ...miniAppEffects });
  registerFeeOperations(registry);
  registerCollectionOperations(registry, schoolChannel);
  registerImportOperations(registry, entities);
  registerSettingsOperations(registry, settingsPages);
  registerReports(registry);
  registerDashboardOperations(registry);
  registerDownloadOperations(registry);
  registerNoticeOperations(registry);
  registerGuardianPhoneOperation(registry);
  // the school shop of the payer page
  registerShopApi(registry);
  registerShopPageOperations(registry);
  registerAfterSaleApi(registry);
  // the provider's shop orders, and pickup verification at the pickup points
  registerShopOrderOperations(registry);
  // receipts of paid orders on the provider's printers
  registerPrinting(registry);
  registerDeliveryImport(registry);
  // the garments' trace-source codes: imported, read on their public page (bound to order items by their action)
  registerTraceSourceOperations(registry);
  registerPickupOperations(registry);
  // the shop's customer-service accounts read from enterprise WeChat
  registerCustomerService(registry);
  // the help page of every signed-in user
  registerHelpCentre(registry);
  // providers who sign up on the public registration pages
  registerRegistrationOperations(registry);
}
