/**
 * Custom pages of the catalogue (PageRef `{kind: "custom", id}`): page id -> lazy component. Each page is its
 * own chunk, loaded with the console when first opened.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import type { BaseRecord } from "@refinedev/core";
import { ReadOutlined, SyncOutlined } from "@ant-design/icons";
import type { MenuEntry, MenuGroup } from "../../common/catalogue";

export interface CustomPageProps {
  /** the menu group and entry the page is opened from (its generation, list routes and title) */
  group: MenuGroup;
  entry: MenuEntry;
}

export const customPages: Record<string, LazyExoticComponent<ComponentType<CustomPageProps>>> = {
  recharge: lazy(() => import("./renewals/RechargePage")),
  actcodeadd: lazy(() => import("./renewals/ActcodeAddPage")),
  servicedelayv2: lazy(() => import("./renewals/ServiceDelayPage")),
  paychnlmaterial: lazy(() => import("./fees/ChannelMaterialPage")),
  schoolpaychnl: lazy(() => import("./fees/SchoolChannelPage")),
  myaccountinfo: lazy(() => import("./fees/MyAccountPage")),
  activityboard: lazy(() => import("./collection/ActivityBoardPage")),
  payendactionbind: lazy(() => import("./forms/PayEndActionBindPage")),
  vouchers: lazy(() => import("./collection/VoucherPrintPage")),
  devicemtprint: lazy(() => import("./devices/ManualPrintPage")),
  photolist: lazy(() => import("./retail/PhotoLibraryPage")),
};

export interface RecordToolProps {
  /** the record as its list or detail page read it */
  record: BaseRecord;
  onClose: () => void;
}

/**
 * Record tools (an entity's `recordTools`): a button on each record's row, card and detail page opening a dialog
 * that works from the record alone, loaded when first opened.
 */
export const recordTools: Record<string, { label: string; dialog: LazyExoticComponent<ComponentType<RecordToolProps>> }> = {
  qrposter: { label: "collection.poster.open", dialog: lazy(() => import("./collection/QrPosterDialog")) },
};

/**
 * List tools (an entity's `listTools`): a button on its list page (with its icon, an upload's by default) opening a
 * dialog of its own, loaded when first opened, or a page of the server's in a tab of its own.
 */
export interface ListToolProps {
  onClose: () => void;
  /** the filters the list's page always sends (a log page of one kind of import) */
  filters?: Record<string, string>;
}

export type ListTool = { label: string; icon?: ComponentType } & ({ dialog: LazyExoticComponent<ComponentType<ListToolProps>> } | { href: string });

export const listTools: Record<string, ListTool> = {
  deliveryimport: { label: "retail.delivery_import.button", dialog: lazy(() => import("./retail/DeliveryImportDialog")) },
  tracesourceimport: { label: "retail.trace.import.button", dialog: lazy(() => import("./retail/TraceImportDialog")) },
  tracesourcebind: { label: "retail.trace.bind.button", dialog: lazy(() => import("./retail/TraceBindDialog")) },
  qwkfsync: { label: "qwkf.sync.button", dialog: lazy(() => import("./retail/QwkfSyncDialog")), icon: SyncOutlined },
  // the open API's readable documentation, beside its clients (a page of the server's, in a tab of its own)
  openapidocs: { label: "clients.docs", href: "/openapi/v1/docs", icon: ReadOutlined },
};

export interface ActionContextProps {
  /** the record the decision is about, as its list or detail page read it */
  record: BaseRecord;
}

/**
 * What a decision is about (an action's `context`): shown above the fields of its dialog for one record, loaded
 * when first opened.
 */
export const actionContexts: Record<string, LazyExoticComponent<ComponentType<ActionContextProps>>> = {
  refundreview: lazy(() => import("./refunds/RefundReviewContext")),
};
