/**
 * Top bar (spec 2.4): breadcrumb on the left; on the right search, admin QR code, user manual, download centre
 * (when a provider id is known), welcome text, login type label, school expiry date, size, fullscreen,
 * language, settings and the avatar dropdown.
 */
import {
  DownloadOutlined,
  FontSizeOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  QrcodeOutlined,
  QuestionCircleOutlined,
  SearchOutlined,
  SettingOutlined,
  UserOutlined,
} from "@ant-design/icons";
import { Avatar, Badge, Button, Dropdown, Layout, Tag, Tooltip, Typography, type MenuProps } from "antd";
import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import { normaliseUserType } from "../../common/roleKeys";
import { getCookie } from "../../providers/session";
import { LanguageSwitch } from "../LanguageSwitch";
import { clearNewDownload, useNewDownload } from "../lib/newDownload";
import { useSessionUser } from "../lib/session";
import { UI_SIZES, updateSettings, useSettings, type UiSize } from "../lib/settings";
import { Breadcrumbs } from "./Breadcrumbs";
import { useFullscreen } from "./fullscreen";
import { ChangePasswordDialog } from "./ChangePasswordDialog";
import { auditLogPath, DOWNLOAD_PATH, HELP_PATH, HOME_PATH, type SearchableRoute } from "./routes";
import { HeaderSearch } from "./HeaderSearch";
import { PhoneHeaderMenu } from "./PhoneHeaderMenu";
import type { Scope } from "./renewal/termReload";
import { useShellActions } from "./useShellActions";

// the QR library loads with the dialog, not with the console
const QrDialog = lazy(() => import("./QrDialog"));
const QuickRenewDialog = lazy(() => import("./renewal/QuickRenewDialog"));
const DailyReportDialog = lazy(() => import("./renewal/DailyReportDialog"));

/** Spec 2.4 labels of the login type; none for system. */
const LOGIN_TYPE_LABELS: Record<string, string> = {
  pickup: "shell.type_pickup",
  school: "shell.type_school",
  service: "shell.type_service",
  service_schadmin: "shell.type_service_schadmin",
};

export function FullscreenToggle() {
  const { t } = useTranslation();
  const { full, toggle } = useFullscreen();
  return (
    <Tooltip title={t("shell.fullscreen")}>
      <Button type="text" data-testid="header-fullscreen" icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={toggle} />
    </Tooltip>
  );
}

function SizeSelector() {
  const { t } = useTranslation();
  const { size } = useSettings();
  return (
    <Dropdown
      trigger={["click"]}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: UI_SIZES.map((s) => ({ key: s, label: <span data-testid={`size-${s}`}>{t(`shell.size_${s}`)}</span> })),
        onClick: ({ key }) => updateSettings({ size: key as UiSize }),
      }}
    >
      <Tooltip title={t("shell.size")}>
        <Button type="text" data-testid="header-size" icon={<FontSizeOutlined />} />
      </Tooltip>
    </Dropdown>
  );
}

export interface TopBarProps {
  collapsed: boolean;
  onToggleSidebar: () => void;
  onOpenSettings: () => void;
  routes: SearchableRoute[];
  /** the provider and school acted in: titles beside the login type, the school's expiry; reload after a renewal */
  scope: Scope;
  /** under 992 px: one compact row, the tools folded into one menu */
  mobile: boolean;
}

export function TopBar({ collapsed, onToggleSidebar, onOpenSettings, routes, scope, mobile }: TopBarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSessionUser();
  const settings = useSettings();
  const actions = useShellActions();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [qrOpen, setQrOpen] = useState(false);
  // the renewal dialog stays mounted after its first opening: its payment result outlives it
  const [renewMounted, setRenewMounted] = useState(false);
  const [renewOpen, setRenewOpen] = useState(false);
  const [dailyReportOpen, setDailyReportOpen] = useState(false);
  const userType = normaliseUserType(getCookie("select_user_type"));
  const typeLabel = LOGIN_TYPE_LABELS[userType];
  const sysid = getCookie("select_sysid");
  const hasProvider = Boolean(sysid);
  const isProvider = userType === "service" && hasProvider;
  const schoolEndTime = scope.schoolEndTime;
  // a school user's tag names its school; a provider-side user's names the provider, and the school it
  // chose on the selection page has a tag of its own
  const scopeTitle = userType === "school" ? scope.schoolTitle : scope.providerTitle;
  const managedSchool = userType !== "school" && scope.schoolId ? scope.schoolTitle : undefined;
  const welcome = t("shell.welcome", { name: user?.name ?? "", username: user?.username ?? "" });
  const openRenew = () => {
    setRenewMounted(true);
    setRenewOpen(true);
  };
  // a phone's bar keeps to one row: the search opens in the breadcrumb's place, the other tools fold into a menu
  const [searchOpen, setSearchOpen] = useState(false);
  // an export asked for leaves a dot on the download centre's icon until the download centre is opened
  const newDownload = useNewDownload();
  const { pathname } = useLocation();
  const inDownloads = pathname === DOWNLOAD_PATH;
  useEffect(() => {
    if (inDownloads && newDownload) clearNewDownload();
  }, [inDownloads, newDownload]);

  const auditPath = auditLogPath(user?.roles ?? []);
  const avatarItems: MenuProps["items"] = [
    { key: "home", label: <span data-testid="avatar-home">{t("shell.home")}</span> },
    { key: "password", label: <span data-testid="avatar-password">{t("dialog.change_password")}</span> },
    ...(actions.canSwitchSchool ? [{ key: "school", label: <span data-testid="avatar-switch-school">{t("shell.switch_school")}</span> }] : []),
    ...(actions.canSwitchProvider ? [{ key: "provider", label: <span data-testid="avatar-switch-provider">{t("shell.switch_provider")}</span> }] : []),
    ...(actions.canReturnToOperator ? [{ key: "operator", label: <span data-testid="avatar-return-operator">{t("shell.return_to_operator")}</span> }] : []),
    ...(isProvider ? [{ key: "daily-report", label: <span data-testid="avatar-daily-report">{t("renewal.daily_title")}</span> }] : []),
    ...(auditPath ? [{ key: "audit", label: <span data-testid="avatar-audit-log">{t("audit.title")}</span> }] : []),
    { type: "divider" },
    { key: "logout", label: <span data-testid="avatar-logout">{t("shell.logout")}</span> },
  ];
  const onAvatarClick: MenuProps["onClick"] = ({ key }) => {
    if (key === "home") navigate(HOME_PATH);
    else if (key === "password") setPasswordOpen(true);
    else if (key === "school" || key === "provider") actions.onSwitch();
    else if (key === "operator") actions.onReturnToOperator();
    else if (key === "daily-report") setDailyReportOpen(true);
    else if (key === "audit" && auditPath) navigate(auditPath);
    else if (key === "logout") actions.onLogout();
  };

  return (
    <Layout.Header
      data-testid="top-bar"
      style={{
        display: "flex",
        flexWrap: "nowrap",
        alignItems: "center",
        columnGap: mobile ? 4 : 12,
        height: "auto",
        minHeight: 50,
        lineHeight: "50px",
        paddingInline: 8,
        background: "transparent",
        position: settings.fixedHeader ? "sticky" : "relative",
        top: 0,
        zIndex: 9,
      }}
    >
      <Button type="text" data-testid="sidebar-toggle" aria-label={t("shell.toggle_sidebar")} icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} onClick={onToggleSidebar} />
      {/* on a desktop everything stays on one row: the breadcrumb keeps its width (up to 40%), the scope tag and the welcome text give way */}
      <div style={mobile ? { flex: "1 1 0", minWidth: 0, overflow: "hidden" } : { flex: "0 0 auto", maxWidth: "40%", overflow: "hidden" }}>
        {mobile && searchOpen ? <HeaderSearch routes={routes} block onClose={() => setSearchOpen(false)} /> : <Breadcrumbs />}
      </div>
      <div
        className="console-topbar-tools"
        style={{
          display: "flex",
          alignItems: "center",
          gap: 4,
          flex: mobile ? "none" : "1 1 auto",
          minWidth: 0,
          flexWrap: "nowrap",
          marginInlineStart: "auto",
          justifyContent: "flex-end",
          whiteSpace: "nowrap",
        }}
      >
        {mobile ? (
          <>
            {!searchOpen && <Button type="text" data-testid="header-search-open" aria-label={t("shell.search")} icon={<SearchOutlined />} onClick={() => setSearchOpen(true)} />}
            <PhoneHeaderMenu
              scopeTag={typeLabel && `${t(typeLabel)}${scopeTitle ? `: ${scopeTitle}` : ""}`}
              managedSchool={managedSchool && t("shell.managing_school", { title: managedSchool })}
              welcome={welcome}
              expiry={userType === "school" && schoolEndTime ? t("shell.expiry", { date: schoolEndTime }) : undefined}
              onRenew={userType === "school" ? openRenew : undefined}
              onQr={() => setQrOpen(true)}
              onManual={() => navigate(HELP_PATH)}
              onDownload={hasProvider ? () => navigate(DOWNLOAD_PATH) : undefined}
              newDownload={newDownload}
              onSettings={onOpenSettings}
            />
          </>
        ) : (
          <>
            <HeaderSearch routes={routes} />
            <Tooltip title={t("shell.qr")}>
              <Button type="text" data-testid="header-qr" icon={<QrcodeOutlined />} onClick={() => setQrOpen(true)} />
            </Tooltip>
            <Tooltip title={t("help.centre.title")}>
              <Link to={HELP_PATH} data-testid="header-manual" aria-label={t("help.centre.title")}>
                <Button type="text" icon={<QuestionCircleOutlined />} />
              </Link>
            </Tooltip>
            {hasProvider && (
              <Tooltip title={newDownload ? t("downloads.new_file") : t("shell.download")}>
                <Link to={DOWNLOAD_PATH} data-testid="header-download" aria-label={newDownload ? t("downloads.new_file") : t("shell.download")}>
                  <Badge dot={newDownload} offset={[-6, 6]} data-testid={newDownload ? "header-download-new" : undefined}>
                    <Button type="text" icon={<DownloadOutlined />} />
                  </Badge>
                </Link>
              </Tooltip>
            )}
            {typeLabel && (
              <Tag color="blue" data-testid="header-login-type" className="console-topbar-yields" style={{ minWidth: 64, overflow: "hidden", textOverflow: "ellipsis", marginInlineEnd: 0 }} title={scopeTitle}>
                {t(typeLabel)}
                {scopeTitle ? `: ${scopeTitle}` : ""}
              </Tag>
            )}
            {managedSchool && (
              <Tag color="geekblue" data-testid="header-school" className="console-topbar-yields" style={{ minWidth: 64, overflow: "hidden", textOverflow: "ellipsis", marginInlineEnd: 0 }} title={managedSchool}>
                {t("shell.managing_school", { title: managedSchool })}
              </Tag>
            )}
            {userType === "school" && (
              <Button type="link" data-testid="header-renew" onClick={openRenew}>
                {t("renewal.renew")}
              </Button>
            )}
            {userType === "school" && schoolEndTime && (
              <Typography.Text type="secondary" data-testid="header-expiry" style={{ whiteSpace: "nowrap" }}>
                {t("shell.expiry", { date: schoolEndTime })}
              </Typography.Text>
            )}
            {/* the welcome gives way before the scope tags: which school or provider one acts in matters more */}
            <Typography.Text data-testid="header-welcome" className="console-topbar-yields" style={{ minWidth: 48, flexShrink: 4, lineHeight: "normal" }} ellipsis={{ tooltip: true }}>
              {welcome}
            </Typography.Text>
            <SizeSelector />
            <FullscreenToggle />
            <LanguageSwitch />
            <Tooltip title={t("settings.title")}>
              <Button type="text" data-testid="header-settings" icon={<SettingOutlined />} onClick={onOpenSettings} />
            </Tooltip>
          </>
        )}
        <Dropdown trigger={["click"]} menu={{ items: avatarItems, onClick: onAvatarClick }}>
          <Avatar data-testid="avatar-dropdown" src={user?.avatar || undefined} icon={<UserOutlined />} style={{ cursor: "pointer" }} />
        </Dropdown>
      </div>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      {qrOpen && (
        <Suspense fallback={null}>
          <QrDialog open={qrOpen} onClose={() => setQrOpen(false)} />
        </Suspense>
      )}
      {renewMounted && (
        <Suspense fallback={null}>
          <QuickRenewDialog open={renewOpen} onClose={() => setRenewOpen(false)} onRenewed={scope.reload} />
        </Suspense>
      )}
      {dailyReportOpen && (
        <Suspense fallback={null}>
          <DailyReportDialog open={dailyReportOpen} onClose={() => setDailyReportOpen(false)} sysid={sysid} />
        </Suspense>
      )}
    </Layout.Header>
  );
}
