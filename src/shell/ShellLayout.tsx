/**
 * The console layout (spec 2.4, DESIGN 7): sidebar, top bar, tab bar, pages kept alive per tab, footer,
 * watermark, settings drawer, customer-service button (in the footer on a phone, where floating it would cover the
 * page) and the command palette.
 */
import { CustomerServiceOutlined } from "@ant-design/icons";
import { FloatButton, Layout, theme, Watermark } from "antd";
import { Activity, useEffect, useMemo, useState, type ReactElement } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Routes, useLocation } from "react-router";
import { businessDay } from "../../common/term";
import { canReachPath } from "../../providers/accessControl";
import { getCookie, setCookie } from "../../providers/session";
import { useMediaQuery } from "../lib/mediaQuery";
import { useRoles, useSessionUser } from "../lib/session";
import { useSettings } from "../lib/settings";
import { useSiteSettings } from "../lib/site";
import { LazyCommandPalette } from "./LazyCommandPalette";
import { ExpiryReminder } from "./renewal/ExpiryReminder";
import { ScopeContext, useScopeInfo } from "./renewal/termReload";
import { findRoute, searchableRoutes } from "./routes";
import { SettingsDrawer } from "./SettingsDrawer";
import { Sidebar } from "./Sidebar";
import { TabBar } from "./TabBar";
import { openTab, useTabs } from "./tabs";
import { TopBar } from "./TopBar";
import { useLeaveGuard } from "./unsavedChanges";
import { useShellActions } from "./useShellActions";

export const MOBILE_WIDTH = 992;

/** Spec 9 watermark values. */
export const WATERMARK = { gap: 200, width: 300, rotate: -40, opacity: 0.05, fontSize: 18 } as const;

/** The watermark's text colour: black on the light theme, white on the dark one, at the same faint opacity. */
export function watermarkColour(dark: boolean): string {
  return dark ? `rgba(255,255,255,${WATERMARK.opacity})` : `rgba(0,0,0,${WATERMARK.opacity})`;
}

/** Below antd's lg breakpoint: the same media query as the top bar's Grid.useBreakpoint, answered at once. */
const MOBILE_QUERY = `(max-width: ${MOBILE_WIDTH - 0.02}px)`;

function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_QUERY);
}

export function ShellLayout({ pages }: { pages: ReactElement }) {
  const { t } = useTranslation();
  const location = useLocation();
  const { pathname, search } = location;
  const roles = useRoles();
  const user = useSessionUser();
  const settings = useSettings();
  const site = useSiteSettings();
  const tabs = useTabs();
  const mobile = useIsMobile();
  const actions = useShellActions();
  const { token } = theme.useToken();
  // a navigation that would discard a form's unsaved changes asks first
  useLeaveGuard();
  // mobile: the sidebar is an overlay, closed at first and after each navigation
  const [sidebarOpen, setSidebarOpen] = useState(() => !mobile && getCookie("sidebarStatus") !== "0");
  const [settingsOpen, setSettingsOpen] = useState(false);
  useEffect(() => {
    // entering the mobile layout closes the overlay; back on desktop the remembered state returns
    setSidebarOpen(!mobile && getCookie("sidebarStatus") !== "0");
  }, [mobile]);
  const scope = useScopeInfo();
  // spec 4.2: a school's and a provider's own term (an operator acting in a provider renews nothing)
  const expiryKind = actions.loginType === "school" ? "school" : actions.loginType === "service" ? "provider" : undefined;

  const found = findRoute(pathname);
  const route = found?.noTab ? undefined : found;
  const reachable = canReachPath(roles, pathname);
  useEffect(() => {
    if (route && reachable) openTab(pathname, `${pathname}${search}`, route.title, route.affix);
  }, [route, reachable, pathname, search]);

  const routes = useMemo(() => searchableRoutes(roles, Boolean(getCookie("select_sysid"))), [roles]);
  const toggleSidebar = () => {
    const next = !sidebarOpen;
    // the cookie keeps the desktop preference; the mobile overlay does not change it
    if (!mobile) setCookie("sidebarStatus", next ? "1" : "0");
    setSidebarOpen(next);
  };

  let content: ReactElement;
  if (!reachable) content = <Navigate to="/401" replace />;
  else if (!route) content = <Routes>{pages}</Routes>;
  else if (!settings.tagsView) content = <Routes key={pathname}>{pages}</Routes>;
  else {
    // keep-alive: every open tab stays mounted (hidden), each with its own fixed location
    const open = tabs.some((tab) => tab.key === pathname) ? tabs : [...tabs, { key: pathname, path: `${pathname}${search}`, version: 0 }];
    content = (
      <>
        {open.map((tab) => {
          const active = tab.key === pathname;
          const [tabPath, tabSearch = ""] = tab.path.split("?");
          return (
            <Activity key={`${tab.key}#${tab.version}`} mode={active ? "visible" : "hidden"}>
              <div data-testid={active ? "page-active" : undefined}>
                <Routes location={active ? location : { pathname: tabPath, search: tabSearch ? `?${tabSearch}` : "" }}>{pages}</Routes>
              </div>
            </Activity>
          );
        })}
      </>
    );
  }

  // the site settings as saved now; the login's cookie serves until they are read
  const kfurl = site.kfurl || getCookie("kfurl");
  const siderCollapsed = !sidebarOpen;

  return (
    <Layout style={{ minHeight: "100vh" }} data-testid="console-layout" data-device={mobile ? "mobile" : "desktop"}>
      <Sidebar collapsed={siderCollapsed} mobile={mobile} onNavigate={() => mobile && setSidebarOpen(false)} />
      {mobile && sidebarOpen && (
        <div onClick={() => setSidebarOpen(false)} style={{ position: "fixed", inset: 0, background: "rgba(0,0,0,0.3)", zIndex: 1000 }} />
      )}
      <Layout>
        <div style={{ background: token.colorBgContainer, position: settings.fixedHeader ? "sticky" : "relative", top: 0, zIndex: 9, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
          <TopBar
            collapsed={siderCollapsed}
            onToggleSidebar={toggleSidebar}
            onOpenSettings={() => setSettingsOpen(true)}
            routes={routes}
            scope={scope}
            mobile={mobile}
          />
          {settings.tagsView && <TabBar />}
        </div>
        <Watermark
          content={[site.title, user?.name ?? ""].filter(Boolean)}
          gap={[WATERMARK.gap, WATERMARK.gap]}
          width={WATERMARK.width}
          rotate={WATERMARK.rotate}
          font={{ color: watermarkColour(settings.dark), fontSize: WATERMARK.fontSize }}
          style={{ flex: 1 }}
        >
          <Layout.Content style={{ padding: 16 }}>
            <ScopeContext value={scope}>{content}</ScopeContext>
          </Layout.Content>
        </Watermark>
        {/* where the customer-service button floats (a desktop), the page ends below it: the last rows and the
            pagination scroll clear of it */}
        <Layout.Footer style={{ textAlign: "center", padding: kfurl && !mobile ? "12px 16px 72px" : "12px 16px" }} data-testid="footer">
          {/* the copyright runs to this year, China's (the platform's business day) */}
          {t("shell.footer", { name: getCookie("service_name") || site.title, year: businessDay(new Date()).slice(0, 4) })}
          {/* on a phone the customer-service link closes the page, where a floating button would cover its content */}
          {kfurl && mobile && (
            <div style={{ marginTop: 8 }}>
              <a href={kfurl} target="_blank" rel="noopener noreferrer" data-testid="customer-service">
                <CustomerServiceOutlined /> {t("shell.customer_service")}
              </a>
            </div>
          )}
        </Layout.Footer>
      </Layout>
      <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      {expiryKind && (
        <ExpiryReminder
          kind={expiryKind}
          endTime={expiryKind === "school" ? scope.schoolEndTime : scope.providerEndTime}
          sysid={getCookie("select_sysid")}
          onRenewed={scope.reload}
        />
      )}
      {kfurl && !mobile && (
        <FloatButton
          data-testid="customer-service"
          icon={<CustomerServiceOutlined />}
          tooltip={t("shell.customer_service")}
          href={kfurl}
          target="_blank"
        />
      )}
      <LazyCommandPalette
        routes={routes}
        canSwitchSchool={actions.canSwitchSchool}
        canSwitchProvider={actions.canSwitchProvider}
        canReturnToOperator={actions.canReturnToOperator}
        onSwitch={actions.onSwitch}
        onReturnToOperator={actions.onReturnToOperator}
        onLogout={actions.onLogout}
      />
    </Layout>
  );
}
