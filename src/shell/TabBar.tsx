/**
 * Tab bar (spec 2.4): one tab per visited page, the dashboard affixed, right-click menu with refresh, close,
 * close others, close all (width 105); the active tab follows the route. Closing or refreshing the tab of a
 * form with unsaved changes asks first.
 */
import { Dropdown, Tabs, type MenuProps } from "antd";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { HOME_PATH } from "./routes";
import { closeAllTabs, closeOtherTabs, closeTab, refreshTab, useTabs, type TabView } from "./tabs";
import { confirmDiscard } from "./unsavedChanges";

export const CONTEXT_MENU_WIDTH = 105;

export function TabBar() {
  const { t } = useTranslation();
  const tabs = useTabs();
  const { pathname } = useLocation();
  const navigate = useNavigate();

  const close = (key: string) =>
    confirmDiscard([key], () => {
      const left = closeTab(key);
      if (key === pathname) navigate(left[left.length - 1]?.path ?? HOME_PATH);
    });
  // the closable tabs but one (none kept: all of them)
  const closableBut = (kept?: string) => tabs.filter((tab) => !tab.affix && tab.key !== kept).map((tab) => tab.key);

  const contextMenu = (tab: TabView): MenuProps => ({
    style: { width: CONTEXT_MENU_WIDTH },
    items: [
      { key: "refresh", label: <span data-testid="tab-menu-refresh">{t("shell.tab_refresh")}</span> },
      { key: "close", label: <span data-testid="tab-menu-close">{t("shell.tab_close")}</span>, disabled: tab.affix },
      { key: "others", label: <span data-testid="tab-menu-close-others">{t("shell.tab_close_others")}</span> },
      { key: "all", label: <span data-testid="tab-menu-close-all">{t("shell.tab_close_all")}</span> },
    ],
    onClick: ({ key, domEvent }) => {
      // the menu sits in a portal, but React bubbles its click through the tab's label to the tab, which
      // would activate (and so reopen) the tab being closed
      domEvent.stopPropagation();
      if (key === "refresh") {
        confirmDiscard([tab.key], () => {
          refreshTab(tab.key);
          if (tab.key !== pathname) navigate(tab.path);
        });
      } else if (key === "close") close(tab.key);
      else if (key === "others") {
        confirmDiscard(closableBut(tab.key), () => {
          closeOtherTabs(tab.key);
          if (tab.key !== pathname) navigate(tab.path);
        });
      } else {
        confirmDiscard(closableBut(), () => {
          closeAllTabs();
          navigate(HOME_PATH);
        });
      }
    },
  });

  return (
    <Tabs
      data-testid="tab-bar"
      type="editable-card"
      size="small"
      hideAdd
      activeKey={pathname}
      // a tab click goes by the address, not by the tab shown: the tab just chosen may not be rendered yet (the
      // router renders a switch as a transition), and a click back on the tab still shown must not be lost
      onTabClick={(key) => {
        if (key !== window.location.pathname) navigate(tabs.find((tab) => tab.key === key)?.path ?? key);
      }}
      onEdit={(key, action) => action === "remove" && typeof key === "string" && close(key)}
      tabBarStyle={{ margin: 0, paddingInline: 4 }}
      items={tabs.map((tab) => ({
        key: tab.key,
        closable: !tab.affix,
        label: (
          <Dropdown trigger={["contextMenu"]} menu={contextMenu(tab)}>
            <span data-testid={`tab-${tab.key}`} data-active={tab.key === pathname ? "true" : "false"}>
              {t(tab.title)}
            </span>
          </Dropdown>
        ),
      }))}
    />
  );
}
