/**
 * Sidebar (spec 2.4): logo (switchable), the vertical menu from the catalogue for the user's role keys, hidden
 * entries omitted, single-child groups collapsed, external links in a new tab, hidden routes highlighting
 * their parent entry. Labels longer than the sidebar's 205 px wrap onto a second line. An entry listing records that
 * wait for the user's decision (refund requests, channels to review) carries their count, and so does its group.
 */
import { HomeOutlined } from "@ant-design/icons";
import { Badge, Layout, Menu, theme, type MenuProps } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import { activeMenuKey, sidebarItems, type SidebarItem } from "../../common/menu";
import { waitingEntries } from "../../common/waiting";
import { entityByName, menus } from "../../resources.config";
import { NamedIcon } from "../lib/icons";
import { useRoles } from "../lib/session";
import { useSettings } from "../lib/settings";
import { useSiteSettings } from "../lib/site";
import { useWaitingCounts } from "../lib/waiting";
import { HOME_PATH } from "./routes";

export const SIDEBAR_WIDTH = 205;

type MenuItem = Required<MenuProps>["items"][number];

export function Sidebar({ collapsed, mobile, onNavigate }: { collapsed: boolean; mobile: boolean; onNavigate: () => void }) {
  const { t } = useTranslation();
  const roles = useRoles();
  const settings = useSettings();
  const { token } = theme.useToken();
  const site = useSiteSettings();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const items = useMemo(() => sidebarItems(menus, roles), [roles]);
  const byKey = useMemo(() => {
    const map = new Map<string, SidebarItem>();
    const walk = (list: SidebarItem[]) => list.forEach((i) => (map.set(i.key, i), i.children && walk(i.children)));
    walk(items);
    return map;
  }, [items]);

  // what waits for the user's decision, on the entries listing it (and on their group while it is closed)
  const waiting = useWaitingCounts();
  const badges = useMemo(() => {
    const map = new Map<string, number>();
    for (const count of waiting) {
      if (count.count === 0) continue;
      for (const path of waitingEntries(menus, roles, count, entityByName(count.entity)?.stateField)) map.set(path, (map.get(path) ?? 0) + count.count);
    }
    return map;
  }, [waiting, roles]);
  const badgeOf = (item: SidebarItem): number => (item.children ? item.children.reduce((sum, child) => sum + badgeOf(child), 0) : (badges.get(item.key) ?? 0));

  const toMenuItem = (item: SidebarItem): MenuItem => {
    const waitingHere = badgeOf(item);
    return {
      key: item.key,
      icon: <NamedIcon name={item.icon} />,
      // a label longer than the sidebar's width wraps onto a second line (src/index.css): never cut
      label: (
        <span className="console-menu-label" data-testid={`menu-${item.key}`}>
          {t(item.title)}
          {waitingHere > 0 && (
            <Badge
              count={waitingHere}
              size="small"
              overflowCount={99}
              style={{ marginInlineStart: 6 }}
              title={t("dashboard.waiting_badge", { count: waitingHere })}
              data-testid={`waiting-badge-${item.key}`}
            />
          )}
        </span>
      ),
      children: item.children?.map(toMenuItem),
    };
  };
  const menuItems: MenuItem[] = [
    { key: HOME_PATH, icon: <HomeOutlined />, label: <span data-testid={`menu-${HOME_PATH}`}>{t("shell.dashboard")}</span> },
    ...items.map(toMenuItem),
  ];
  const selected = pathname === HOME_PATH ? HOME_PATH : (activeMenuKey(menus, pathname) ?? pathname);
  const openGroup = items.find((i) => i.children?.some((c) => c.key === selected))?.key;

  const onClick: MenuProps["onClick"] = ({ key }) => {
    const item = byKey.get(key);
    if (item?.external && item.path) window.open(item.path, "_blank", "noopener");
    else navigate(item?.path ?? key);
    onNavigate();
  };

  // a phone's closed sidebar is gone, not a zero-width strip: a collapsed menu there would still pop its open
  // group up over the top bar
  if (mobile && collapsed) return null;

  return (
    <Layout.Sider
      data-testid="sidebar"
      className="console-sidebar"
      width={SIDEBAR_WIDTH}
      collapsed={collapsed}
      collapsedWidth={mobile ? 0 : 54}
      trigger={null}
      // the light sider follows the dark algorithm when dark mode is on
      theme="light"
      style={{
        height: "100vh",
        position: mobile ? "fixed" : "sticky",
        top: 0,
        left: 0,
        zIndex: mobile ? 1001 : 10,
        overflow: "auto",
        borderRight: "1px solid rgba(5,5,5,0.06)",
      }}
    >
      {settings.sidebarLogo && (
        <Link to={HOME_PATH} data-testid="sidebar-logo" style={{ display: "flex", alignItems: "center", gap: 8, height: 50, padding: "0 16px", overflow: "hidden" }}>
          {site.icon && <img src={site.icon} alt="" style={{ width: 28, height: 28 }} />}
          {!collapsed && <strong style={{ whiteSpace: "nowrap", color: token.colorText }}>{site.title}</strong>}
        </Link>
      )}
      <Menu
        mode="inline"
        items={menuItems}
        selectedKeys={[selected]}
        defaultOpenKeys={openGroup ? [openGroup] : []}
        // a smaller step than antd's 24 px leaves a nested label room for a long word ("Administradores")
        inlineIndent={16}
        onClick={onClick}
        style={{ borderInlineEnd: 0 }}
      />
    </Layout.Sider>
  );
}
