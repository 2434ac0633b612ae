/** Breadcrumb (spec 2.4): starts with Home unless the page is the dashboard. */
import { Breadcrumb } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { findRoute, HOME_PATH } from "./routes";

interface Crumb {
  key: string;
  text: string;
  to?: string;
}

export function Breadcrumbs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const route = findRoute(pathname);
  const crumbs: Crumb[] = [];
  if (pathname === HOME_PATH) {
    crumbs.push({ key: "home", text: t("shell.dashboard") });
  } else {
    crumbs.push({ key: "home", text: t("shell.home"), to: HOME_PATH });
    if (route?.group) crumbs.push({ key: "group", text: t(route.group.title) });
    const parent = route?.entry?.activeMenu;
    const parentEntry = parent ? route?.group?.children.find((e) => e.name === parent) : undefined;
    if (route?.group && parentEntry) crumbs.push({ key: "parent", text: t(parentEntry.title), to: `/${route.group.path}/${parentEntry.name}` });
    if (route) crumbs.push({ key: "page", text: t(route.title) });
  }
  // a group named like its list (v1 activation codes) is said once, keeping the deeper crumb
  const shown = crumbs.filter((crumb, i) => crumbs[i + 1]?.text !== crumb.text);
  return (
    <Breadcrumb
      data-testid="breadcrumb"
      className="console-breadcrumb"
      items={shown.map(({ key, text, to }) => ({ key, title: to ? <Link to={to}>{text}</Link> : text }))}
    />
  );
}
