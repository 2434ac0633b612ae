/**
 * The catalogue's menus against spec 2.2 / 2.3: for every demo account, the routes its role keys reach. The
 * expectations below are written from the spec text (group by group), not derived from resources.config.ts, with
 * the one page an issue adds beyond the spec's menus: the audit log (issue 35), a hidden entry of the system settings
 * group opened from the avatar's menu, for the operators and the providers.
 */
import { describe, expect, it } from "vitest";
import * as icons from "@ant-design/icons";
import { reachableEntries, sidebarItems } from "../../common/menu";
import { canReachPath } from "../../providers/accessControl";
import { menus } from "../../resources.config";

type Reach = Record<string, string[]>;

// ---- older generation (spec 2.2) ----
const sysv1: Reach = {
  "/service": ["servicelist", "serviceadd", "serviceedit"],
  "/datacount": ["paycount_service", "paycount"],
  "/pay": ["paychnllist", "paychnlinfo", "paychnl_info", "paychnl_infoadd"],
  "/help": ["catelist", "cateadd", "cateedit", "probllist", "probladd", "probledit"],
  "/meal": ["meallist", "mealadd", "mealedit"],
  "/actcode": ["actcodelist", "actcodeadd"],
  "/users": ["users_adminlist", "users_adminadd", "userslist", "usersadd", "usersedit"],
  "/homes": ["syshome", "articlelist", "articleadd", "articleedit"],
  "/sysadmin": ["sysset", "microappset", "auditlog"],
  "/client": ["clientlist"],
  "/registeradmin": ["registeradmin"],
};

const svcv1: Reach = {
  "/school": [
    "schoollist", "schooladd", "schooledit", "school_paychnllist", "devicelist", "deviceadd", "deviceedit", "schoolimportlog",
    "recharge", "schoolrenewlist", "schoolrenewinfo",
  ],
  "/order": ["orderlist", "orderinfo", "orderprints"],
  "/datacount": ["paycount_service", "paycount", "schoolcount"],
  "/pay": ["paychnllist", "paychnl_info", "paychnl_infoadd", "paychnladd", "paychnledit"],
  "/actcode": ["actcodelist"],
  "/users": ["userslist", "usersadd", "usersedit"],
  "/sysadmin": ["agentnoticeset", "auditlog"],
  "/specadmin": ["sepclist"],
  "/goodsdata": [
    "service_activitylist", "service_activityadd", "service_activityedit",
    "service_projectlist", "service_projectadd", "service_projectedit", "goodslogs",
  ],
};

const schoolv1: Reach = {
  "/activity": [
    "activitylist", "activityadd", "activityedit", "studentlist", "studentadd", "studentedit",
    "projectlist", "projectadd", "projectedit",
  ],
  "/school": [
    "recharge", "schoolrenewlist", "schoolrenewinfo",
    "gradelist", "gradeadd", "gradeedit", "classeslist", "classesadd", "classesedit",
  ],
  "/order": ["orderlist", "orderinfo", "orderprints"],
  "/datacount": [
    "paycount", "activitycount", "gradecount", "classescount", "classescount_info", "studentcount", "class_statis", "sex_statis",
  ],
};

// ---- newer generation (spec 2.3) ----
const sysop: Reach = {
  "/servicev2": ["servicelist", "serviceadd", "serviceedit", "servicedelayv2", "serviceactcode", "servicedelaylist"],
  "/schoolv2": ["schoollists", "meallist", "mealadd", "mealedit", "actcodelist", "actcodeadd"],
  "/help": ["catelist", "cateadd", "cateedit", "probllist", "probladd", "probledit"],
  "/sysadminv2": [
    "sysset", "channellist", "chnlset", "wxprivacy", "wxxcxinfo", "wxpublish", "aliprivacy", "alixcxinfo", "alipublish",
    "microappset", "wechatxcxmanages", "auditlog",
  ],
  "/usersv2": ["userslist", "usersadd", "usersedit"],
  "/clientv2": ["clientlist"],
  "/registeradminv2": ["registeradmin"],
  "/homesv2": ["syshome", "articlelist", "articleadd", "articleedit"],
};

const sysadmin: Reach = { ...sysop, "/usersv2": ["users_adminlist", "users_adminadd", "userslist", "usersadd", "usersedit"] };

const providerSysadminV2 = [
  "notifyset", "agentnoticeset", "shopdefaultset", "distrilist", "expresstpl", "shopthemeset", "bannerlist",
  "shopdiylist", "shopdiy", "shopdiyedit", "saleaddresslist", "photolist", "qwkfset", "qwkflist",
  "devicelist", "devicemtprint", "deviceadd", "deviceedit", "shophelp", "acvitifyformlist", "activityformact",
  // the pay group; "payment accounts" has no route name in the spec
  "paychnllist", "paychnlinfo", "paychnl_info", "paychnl_infoadd", "paychnladd", "paychnledit", "myaccountinfo", "payaccountlist",
];
const uploadSysadminV2 = ["channellist", "chnlset", "wxprivacy", "wxxcxinfo", "wxpublish", "aliprivacy", "alixcxinfo", "alipublish", "microappset"];

const harbour: Reach = {
  "/schoolv2": [
    "schoollist", "gradelist", "classeslist", "schooladd", "schooledit", "school_paychnllist",
    "recharge", "schoolrenewlist", "schoolrenewinfo", "schoolimportlog", "actcodelist",
  ],
  "/goods": ["goodslist", "goodsadd", "goodsedit", "goodscatelist", "goodscateadd", "goodscateedit", "tracesourcelist"],
  "/shop": [
    "orderlist", "shoporderinfo", "orderdeliveryimportlog", "saleslist", "shopordersalesinfo",
    "pickuprec", "pickupreclist", "pickuprecinfo", "pickuprecsalesinfo",
  ],
  "/activity": [
    "activitylist", "payendaction", "payendactionadd", "payendactionedit", "payendactionbind", "activityact",
    "studentlist", "studentadd", "studentedit", "activityimportlog", "qrchnllist", "qrchnladd", "qrchnledit",
  ],
  "/order": ["orderlistv2", "orderinfov2", "orderprintsv2", "pickuprec", "pickupreclist", "saleslist", "zdorderdeliveryimportlog"],
  "/sysadminv2": [...providerSysadminV2, "auditlog"],
  "/usersv2": ["userslist", "usersadd", "usersedit"],
  "/datacount": ["paycount_servicev2", "paycountv2", "schoolcountv2", "goods_statisv2", "payrecord", "refundrecord", "settlerecord"],
};

const svc: Reach = { ...harbour, "/sysadminv2": [...providerSysadminV2, ...uploadSysadminV2, "auditlog"] };

const staff: Reach = {
  "/schoolv2": ["schoollist", "gradelist", "classeslist", "schoolimportlog"],
  "/activity": ["activitylist"],
  "/order": ["orderlistv2", "orderinfov2", "orderprintsv2"],
  "/datacount": ["paycount_servicev2", "paycountv2", "schoolcountv2"],
};

const pickup: Reach = {
  "/shop": ["pickuprec", "pickupreclist", "pickuprecinfo", "pickuprecsalesinfo"],
  "/order": ["pickuprec", "pickupreclist"],
};

const school: Reach = {
  "/schoolv2": ["schoollist", "gradelist", "classeslist", "recharge", "schoolrenewlist", "schoolrenewinfo"],
  "/order": ["orderlistv2", "orderinfov2", "orderprintsv2"],
  "/datacount": ["activitycountv2", "gradecountv2", "classescountv2", "classescount_infov2", "class_statisv2"],
};

/** Demo accounts (DESIGN 11) with their role keys and the generation of their provider. */
const accounts: { username: string; roles: string[]; generation: "v1" | "v2"; reach: Reach }[] = [
  { username: "sysadmin", roles: ["systemv2", "superadminv2"], generation: "v2", reach: sysadmin },
  { username: "sysop", roles: ["systemv2"], generation: "v2", reach: sysop },
  { username: "sysv1", roles: ["system", "superadmin"], generation: "v1", reach: sysv1 },
  { username: "svc", roles: ["servicev2", "xcxuploadv2", "is_show_fee"], generation: "v2", reach: svc },
  { username: "staff", roles: ["service_schadminv2"], generation: "v2", reach: staff },
  { username: "pickup", roles: ["pickup"], generation: "v2", reach: pickup },
  { username: "school", roles: ["schoolv2"], generation: "v2", reach: school },
  { username: "harbour", roles: ["servicev2"], generation: "v2", reach: harbour },
  { username: "svcv1", roles: ["service"], generation: "v1", reach: svcv1 },
  { username: "schoolv1", roles: ["paymode", "school"], generation: "v1", reach: schoolv1 },
];

function reached(roles: string[]): Reach {
  const out: Reach = {};
  for (const { group, entry } of reachableEntries(menus, roles)) (out[`/${group.path}`] ??= []).push(entry.name);
  return out;
}

function sorted(reach: Reach): Reach {
  const groups = Object.keys(reach).sort();
  return Object.fromEntries(groups.map((group) => [group, [...reach[group]].sort()]));
}

describe("menu reach per demo account (spec 2.2, 2.3)", () => {
  it.each(accounts)("$username reaches exactly the spec's routes", ({ roles, reach }) => {
    expect(sorted(reached(roles))).toEqual(sorted(reach));
  });

  it.each(accounts)("$username reaches only its own generation", ({ roles, generation }) => {
    const generations = new Set(reachableEntries(menus, roles).map((r) => r.group.generation));
    expect([...generations]).toEqual([generation]);
  });

  it("role 'admin' reaches every route", () => {
    const all = menus.reduce((n, g) => n + g.children.length, 0);
    expect(reachableEntries(menus, ["admin"])).toHaveLength(all);
  });
});

describe("route guard on paths both generations use (/help, /activity)", () => {
  it("lets each generation's roles through its own entry of a shared path", () => {
    expect(canReachPath(["systemv2"], "/help/catelist")).toBe(true);
    expect(canReachPath(["system"], "/help/catelist")).toBe(true);
    expect(canReachPath(["servicev2"], "/help/catelist")).toBe(false);
    expect(canReachPath(["servicev2"], "/activity/studentedit/3")).toBe(true);
    expect(canReachPath(["school"], "/activity/studentedit/3")).toBe(true);
    expect(canReachPath(["service_schadminv2"], "/activity/studentlist")).toBe(false);
    expect(canReachPath(["service_schadminv2"], "/activity/activitylist")).toBe(true);
  });
});

describe("sidebar (spec 2.4)", () => {
  /** The sidebar's links, flattened, in order. */
  const links = (items: ReturnType<typeof sidebarItems>): string[] => items.flatMap((item) => ("children" in item && item.children ? links(item.children) : [item.key]));

  it.each(accounts)("shows $username exactly the built, visible entries of its spec routes, in menu order", ({ roles, reach }) => {
    // the entries its roles reach (checked against the spec above), in menu order
    const expected = reachableEntries(menus, roles)
      .filter(({ group, entry }) => entry.page && !entry.hidden && reach[`/${group.path}`]?.includes(entry.name))
      .map(({ group, entry }) => `/${group.path}/${entry.name}`);
    expect(links(sidebarItems(menus, roles))).toEqual([...new Set(expected)]);
  });

  it.each(accounts)("collapses a group of $username with a single visible child into that child", ({ roles }) => {
    for (const item of sidebarItems(menus, roles)) {
      if ("children" in item && item.children) expect(item.children.length, item.key).toBeGreaterThan(1);
    }
  });

  it("keeps hidden routes out of the sidebar and lets them name a visible list of their group", () => {
    for (const group of menus) {
      for (const entry of group.children.filter((e) => e.hidden)) {
        const parent = group.children.find((e) => e.name === entry.activeMenu);
        expect(parent, `/${group.path}/${entry.name} activeMenu`).toBeDefined();
        expect(parent?.hidden, `/${group.path}/${entry.name} parent`).toBeFalsy();
      }
    }
  });
});

describe("catalogue menu declarations", () => {
  it("names icons that @ant-design/icons exports", () => {
    const names = menus.flatMap((g) => [g.icon, ...g.children.map((e) => e.icon)]).filter((n): n is string => Boolean(n));
    const exported = icons as unknown as Record<string, unknown>;
    expect(names.filter((n) => !exported[n])).toEqual([]);
  });

  it("keeps route names unique within a group and record routes parameterised", () => {
    for (const group of menus) {
      const names = group.children.map((e) => e.name);
      expect(new Set(names).size, group.path).toBe(names.length);
      for (const entry of group.children) {
        if (/(edit|info)(v2)?$/.test(entry.name) && entry.name !== "myaccountinfo" && !/xcxinfo$/.test(entry.name)) {
          expect(entry.params, `/${group.path}/${entry.name}`).toEqual([":id"]);
        }
      }
    }
  });

  it("builds pages only for entries the spec gives some account", () => {
    const specRoutes = new Set(accounts.flatMap(({ reach }) => Object.entries(reach).flatMap(([group, names]) => names.map((name) => `${group}/${name}`))));
    const built = menus.flatMap((g) => g.children.filter((e) => e.page).map((e) => `/${g.path}/${e.name}`));
    expect(built.length).toBeGreaterThan(0);
    expect(built.filter((route) => !specRoutes.has(route))).toEqual([]);
  });
});
