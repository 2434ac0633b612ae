/**
 * The catalogue's entry point: the domain modules of catalogue/ (entities and the pages they bind to route names)
 * and the menu trees of both generations (spec 2.2, 2.3), assembled into one catalogue. Server tables, validation
 * and CRUD operations and the SPA's resources, lists, forms and menus all come from here.
 */
import type { Catalogue, EntityDecl, MenuGroup, OperationDecl, ReportDecl, SettingsDecl } from "./common/catalogue";
import { accounts } from "./catalogue/accounts";
import { assembleCatalogue } from "./catalogue/assemble";
import { collection } from "./catalogue/collection";
import { forms } from "./catalogue/collectionForms";
import { payments } from "./catalogue/collectionPayments";
import { refunds } from "./catalogue/collectionRefunds";
import { fees } from "./catalogue/fees";
import { imports } from "./catalogue/imports";
import { notices } from "./catalogue/notices";
import { v1Menus } from "./catalogue/menus.v1";
import { v2Menus } from "./catalogue/menus.v2";
import { providers } from "./catalogue/providers";
import { renewals } from "./catalogue/renewals";
import { reconciliation } from "./catalogue/reconciliation";
import { reports as reportsDomain } from "./catalogue/reports";
import { retail } from "./catalogue/retail";
import { goods } from "./catalogue/goods";
import { goodsStatistics } from "./catalogue/goodsStatistics";
import { shopOrders } from "./catalogue/shopOrders";
import { afterSales } from "./catalogue/afterSales";
import { devices } from "./catalogue/devices";
import { expressTemplates } from "./catalogue/expressTemplates";
import { shopFace } from "./catalogue/shopFace";
import { shopPages } from "./catalogue/shopPages";
import { photos } from "./catalogue/photos";
import { customerService } from "./catalogue/customerService";
import { fulfilment } from "./catalogue/fulfilment";
import { traceSources } from "./catalogue/traceSources";
import { schools } from "./catalogue/schools";
import { settlements } from "./catalogue/settlements";
import { statistics } from "./catalogue/statistics";
import { site } from "./catalogue/site";
import { help } from "./catalogue/help";
import { audit } from "./catalogue/audit";
import { clients } from "./catalogue/clients";
import { miniPrograms } from "./catalogue/miniPrograms";
import { registrations } from "./catalogue/registrations";
import { website } from "./catalogue/website";

export { serviceEntity } from "./catalogue/providers";
export { schoolEntity } from "./catalogue/schools";
export { actcodeAddOperation, actcodeEntity, actcodeVoid, mealEntity, schoolRenewEntity, serviceDelayEntity, serviceDelayOperation } from "./catalogue/renewals";

export const catalogue: Catalogue = assembleCatalogue({ providers, schools, renewals, accounts, registrations, clients, miniPrograms, site, website, help, audit, reports: reportsDomain, imports, fees, collection, forms, payments, refunds, reconciliation, settlements, statistics, notices, retail, goods, shopOrders, afterSales, shopFace, shopPages, photos, customerService, expressTemplates, devices, fulfilment, traceSources, goodsStatistics }, [v1Menus, v2Menus]);

export const entities: EntityDecl[] = catalogue.entities;

export const menus: MenuGroup[] = catalogue.menus;

export const operations: OperationDecl[] = catalogue.operations;

export const settingsPages: SettingsDecl[] = catalogue.settings;

export const reports: ReportDecl[] = catalogue.reports;

export function entityByName(name: string): EntityDecl | undefined {
  return entities.find((e) => e.name === name);
}

export function settingsByName(name: string): SettingsDecl | undefined {
  return settingsPages.find((s) => s.name === name);
}

export function reportByName(name: string): ReportDecl | undefined {
  return reports.find((r) => r.name === name);
}

export function operationByName(name: string): OperationDecl | undefined {
  return operations.find((o) => o.name === name);
}
