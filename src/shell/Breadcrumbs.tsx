/** Breadcrumb (spec 2.4): starts with Home unless the page is the dashboard. */
import { Breadcrumb } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { findRoute, HOME_PATH } from "./routes";

export function Breadcrumbs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const route = findRoute(pathname);
  const items: { key: string; title: React.ReactNode }[] = [];
  if (pathname === HOME_PATH) {
    items.push({ key: "home", title: t("shell.dashboard") });
  } else {
    items.push({ key: "home", title: <Link to={HOME_PATH}>{t("shell.home")}</Link> });
    if (route?.group) items.push({ key: "group", title: t(route.group.title) });
    const parent = route?.entry?.activeMenu;
    if (route?.group && parent) {
      const parentEntry = route.group.children.find((e) => e.name === parent);
      if (parentEntry) items.push({ key: "parent", title: <Link to={`/${route.group.path}/${parent}`}>{t(parentEntry.title)}</Link> });
    }
    if (route) items.push({ key: "page", title: t(route.title) });
  }
  return <Breadcrumb data-testid="breadcrumb" items={items} />;
}
