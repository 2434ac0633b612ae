/**
 * The menu entries of spec 2.2 (older generation) and 2.3 (newer generation), written from the spec, each with
 * the role keys that the spec gives it. The browser tests compare a user's sidebar with these entries,
 * narrowed to the pages the catalogue has built so far (entries of later issues stay out of the menu).
 */
import { hasAnyRole } from "../../common/roleKeys";
import { isBuilt, routePath } from "../../common/menu";
import { menus } from "../../resources.config";

interface SpecEntry {
  path: string;
  roles: readonly string[];
}

const entries: SpecEntry[] = [];
function spec(group: string, roles: readonly string[], names: string): void {
  for (const name of names.split(/\s+/).filter(Boolean)) entries.push({ path: `/${group}/${name}`, roles });
}

// 2.2 older menu groups
spec("service", ["system"], "servicelist serviceadd serviceedit");
spec("activity", ["school"], "activitylist activityadd activityedit studentlist studentadd studentedit");
spec("activity", ["paymode"], "projectlist projectadd projectedit");
spec("school", ["service"], "schoollist schooladd schooledit school_paychnllist devicelist deviceadd deviceedit schoolimportlog");
spec("school", ["service", "school"], "recharge schoolrenewlist schoolrenewinfo");
spec("school", ["school"], "gradelist gradeadd gradeedit classeslist classesadd classesedit");
spec("order", ["service", "school"], "orderlist orderinfo orderprints");
spec("datacount", ["system", "service"], "paycount_service");
spec("datacount", ["system", "service", "school"], "paycount");
spec("datacount", ["service"], "schoolcount");
spec("datacount", ["school"], "activitycount gradecount classescount classescount_info studentcount class_statis sex_statis");
spec("pay", ["system", "service"], "paychnllist paychnl_info paychnl_infoadd");
spec("pay", ["system"], "paychnlinfo");
spec("pay", ["service"], "paychnladd paychnledit");
spec("help", ["system"], "catelist cateadd cateedit probllist probladd probledit");
spec("meal", ["system"], "meallist mealadd mealedit");
spec("actcode", ["system", "service"], "actcodelist");
spec("actcode", ["system"], "actcodeadd");
spec("users", ["superadmin"], "users_adminlist users_adminadd");
spec("users", ["system", "service"], "userslist usersadd usersedit");
spec("homes", ["system"], "syshome articlelist articleadd articleedit");
spec("sysadmin", ["system"], "sysset");
spec("sysadmin", ["service"], "agentnoticeset");
spec("sysadmin", ["system", "xcxupload"], "microappset");
spec("specadmin", ["service"], "sepclist");
spec("client", ["system"], "clientlist");
spec("goodsdata", ["service"], "service_activitylist service_activityadd service_activityedit service_projectlist service_projectadd service_projectedit goodslogs");
spec("registeradmin", ["system"], "registeradmin");

// 2.3 newer menu groups
spec("servicev2", ["systemv2"], "servicelist serviceadd serviceedit servicedelayv2 serviceactcode servicedelaylist");
spec("schoolv2", ["systemv2"], "schoollists meallist mealadd mealedit actcodeadd");
spec("schoolv2", ["servicev2", "schoolv2", "service_schadminv2"], "schoollist gradelist classeslist");
spec("schoolv2", ["servicev2"], "schooladd schooledit school_paychnllist");
spec("schoolv2", ["servicev2", "schoolv2"], "recharge schoolrenewlist schoolrenewinfo");
spec("schoolv2", ["servicev2", "service_schadminv2"], "schoolimportlog");
spec("schoolv2", ["systemv2", "servicev2"], "actcodelist");
spec("goods", ["servicev2"], "goodslist goodsadd goodsedit goodscatelist goodscateadd goodscateedit tracesourcelist");
spec("shop", ["servicev2"], "orderlist shoporderinfo orderdeliveryimportlog saleslist shopordersalesinfo");
spec("shop", ["servicev2", "pickup"], "pickuprec pickupreclist pickuprecinfo pickuprecsalesinfo");
spec("activity", ["servicev2", "service_schadminv2"], "activitylist");
spec("activity", ["servicev2"], "payendaction payendactionadd payendactionedit payendactionbind activityact studentlist studentadd studentedit activityimportlog qrchnllist qrchnladd qrchnledit");
spec("order", ["servicev2", "schoolv2", "service_schadminv2"], "orderlistv2 orderinfov2 orderprintsv2");
spec("order", ["servicev2", "pickup"], "pickuprec pickupreclist");
spec("order", ["servicev2"], "saleslist zdorderdeliveryimportlog");
spec("help", ["systemv2"], "catelist cateadd cateedit probllist probladd probledit");
spec("sysadminv2", ["systemv2"], "sysset wechatxcxmanages");
spec(
  "sysadminv2",
  ["servicev2"],
  "notifyset agentnoticeset shopdefaultset distrilist expresstpl shopthemeset bannerlist shopdiylist shopdiy shopdiyedit saleaddresslist " +
    "photolist qwkfset qwkflist devicelist devicemtprint deviceadd deviceedit shophelp acvitifyformlist activityformact " +
    "paychnllist paychnlinfo paychnl_info paychnl_infoadd paychnladd paychnledit myaccountinfo payaccountlist",
);
spec("sysadminv2", ["systemv2", "xcxuploadv2"], "channellist chnlset wxprivacy wxxcxinfo wxpublish aliprivacy alixcxinfo alipublish microappset");
spec("usersv2", ["superadminv2"], "users_adminlist users_adminadd");
spec("usersv2", ["systemv2", "servicev2"], "userslist usersadd usersedit");
spec("datacount", ["servicev2", "service_schadminv2"], "paycount_servicev2 paycountv2 schoolcountv2");
spec("datacount", ["schoolv2"], "activitycountv2 gradecountv2 classescountv2 classescount_infov2 class_statisv2");
spec("datacount", ["servicev2"], "goods_statisv2 payrecord refundrecord settlerecord");
spec("clientv2", ["systemv2"], "clientlist");
spec("registeradminv2", ["systemv2"], "registeradmin");
spec("homesv2", ["systemv2"], "syshome articlelist articleadd articleedit");

/** Route paths of the visible menu entries whose pages exist in this build (catalogue: built and not hidden). */
function builtMenuEntries(): Map<string, string> {
  const built = new Map<string, string>();
  for (const group of menus) {
    for (const entry of group.children) {
      if (!entry.hidden && isBuilt(entry)) built.set(routePath(group, entry), group.path);
    }
  }
  return built;
}

export interface ExpectedMenu {
  /** route paths of the page entries, sorted */
  leaves: string[];
  /** keys of the groups shown as groups (two or more entries), sorted */
  groups: string[];
}

/** What the spec gives these role keys, among the built pages. */
export function expectedMenu(roles: readonly string[]): ExpectedMenu {
  const built = builtMenuEntries();
  const leaves = [...new Set(entries.filter((e) => built.has(e.path) && hasAnyRole(roles, e.roles)).map((e) => e.path))].sort();
  const perGroup = new Map<string, number>();
  for (const leaf of leaves) {
    const group = `/${built.get(leaf)}`;
    perGroup.set(group, (perGroup.get(group) ?? 0) + 1);
  }
  const alwaysShown = new Set(menus.filter((g) => g.alwaysShow).map((g) => `/${g.path}`));
  const groups = [...perGroup].filter(([key, n]) => n > 1 || alwaysShown.has(key)).map(([key]) => key).sort();
  return { leaves, groups };
}

/** Every spec entry that the catalogue does not declare at all (a missing menu entry). */
export function specEntriesMissingFromCatalogue(): string[] {
  const declared = new Set(menus.flatMap((g) => g.children.map((e) => routePath(g, e))));
  return [...new Set(entries.map((e) => e.path))].filter((p) => !declared.has(p));
}
