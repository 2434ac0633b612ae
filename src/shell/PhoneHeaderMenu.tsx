/**
 * The top bar's tools on a phone (under 992 px, spec 9), folded into one "more" button so that the bar keeps to
 * one row: its menu opens with who one is and where one acts (the login type and scope, the welcome, a school's
 * expiry), then renewal (a school), the admin QR code, the help centre, the download centre, fullscreen and the
 * layout settings, then the size and the language to choose from.
 */
import {
  DownloadOutlined,
  EllipsisOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  QrcodeOutlined,
  QuestionCircleOutlined,
  SettingOutlined,
  ShoppingCartOutlined,
} from "@ant-design/icons";
import { Badge, Button, Dropdown, Space, Tag, theme, Typography, type MenuProps } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { changeLanguage, currentLanguage, LANGUAGES, type Language } from "../../providers/i18n";
import { LANGUAGE_NAMES } from "../LanguageSwitch";
import { UI_SIZES, updateSettings, useSettings, type UiSize } from "../lib/settings";
import { useFullscreen } from "./fullscreen";

export interface PhoneHeaderMenuProps {
  /** the login type with the provider or school it acts for (none for the platform) */
  scopeTag?: string;
  /** the school a provider-side user chose to manage */
  managedSchool?: string;
  welcome: string;
  /** a school's term: "Expires on ..." */
  expiry?: string;
  onRenew?: () => void;
  onQr: () => void;
  onManual: () => void;
  /** the download centre, when a provider is known */
  onDownload?: () => void;
  /** a file asked for is in the download centre, not yet looked at: a dot on the menu and on its entry */
  newDownload?: boolean;
  onSettings: () => void;
}

export function PhoneHeaderMenu({ scopeTag, managedSchool, welcome, expiry, onRenew, onQr, onManual, onDownload, newDownload, onSettings }: PhoneHeaderMenuProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { size } = useSettings();
  const fullscreen = useFullscreen();
  const [open, setOpen] = useState(false);
  const language = currentLanguage();
  const item = (key: string, label: string, icon: ReactNode) => ({ key, icon, label: <span data-testid={`more-${key}`}>{label}</span> });

  const items: MenuProps["items"] = [
    ...(onRenew ? [item("renew", t("renewal.renew"), <ShoppingCartOutlined />)] : []),
    item("qr", t("shell.qr"), <QrcodeOutlined />),
    item("manual", t("help.centre.title"), <QuestionCircleOutlined />),
    ...(onDownload
      ? [
          item(
            "download",
            t("shell.download"),
            <Badge dot={newDownload} data-testid={newDownload ? "header-download-new" : undefined}>
              <DownloadOutlined />
            </Badge>,
          ),
        ]
      : []),
    item("fullscreen", t("shell.fullscreen"), fullscreen.full ? <FullscreenExitOutlined /> : <FullscreenOutlined />),
    item("settings", t("settings.title"), <SettingOutlined />),
    { type: "divider" },
    {
      type: "group",
      key: "size",
      label: t("shell.size"),
      children: UI_SIZES.map((s) => ({ key: `size-${s}`, label: <span data-testid={`more-size-${s}`}>{t(`shell.size_${s}`)}</span> })),
    },
    {
      type: "group",
      key: "language",
      label: t("shell.language"),
      children: LANGUAGES.map((l) => ({ key: `language-${l}`, label: <span data-testid={`more-language-${l}`}>{LANGUAGE_NAMES[l]}</span> })),
    },
  ];
  const onClick: MenuProps["onClick"] = ({ key }) => {
    // a choice of size or language shows at once, the menu staying open on it
    if (key.startsWith("size-")) return updateSettings({ size: key.slice("size-".length) as UiSize });
    if (key.startsWith("language-")) return void changeLanguage(key.slice("language-".length) as Language);
    setOpen(false);
    if (key === "renew") onRenew?.();
    else if (key === "qr") onQr();
    else if (key === "manual") onManual();
    else if (key === "download") onDownload?.();
    else if (key === "fullscreen") fullscreen.toggle();
    else if (key === "settings") onSettings();
  };

  const about = (
    <div data-testid="header-more-about" style={{ padding: "8px 12px", maxWidth: 280, borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
      <Space direction="vertical" size={4} style={{ width: "100%" }}>
        {(scopeTag || managedSchool) && (
          <div style={{ display: "flex", flexWrap: "wrap", gap: 4 }}>
            {scopeTag && (
              <Tag color="blue" data-testid="header-login-type" style={{ whiteSpace: "normal", marginInlineEnd: 0 }}>
                {scopeTag}
              </Tag>
            )}
            {managedSchool && (
              <Tag color="geekblue" data-testid="header-school" style={{ whiteSpace: "normal", marginInlineEnd: 0 }}>
                {managedSchool}
              </Tag>
            )}
          </div>
        )}
        <Typography.Text data-testid="header-welcome">{welcome}</Typography.Text>
        {expiry && (
          <Typography.Text type="secondary" data-testid="header-expiry">
            {expiry}
          </Typography.Text>
        )}
      </Space>
    </div>
  );

  return (
    <Dropdown
      trigger={["click"]}
      open={open}
      onOpenChange={(next, info) => {
        // a click on an entry is handled by onClick: a size or a language keeps the menu open
        if (info.source === "trigger") setOpen(next);
      }}
      placement="bottomRight"
      menu={{ items, onClick, selectable: false, selectedKeys: [`size-${size}`, `language-${language}`], style: { boxShadow: "none" } }}
      popupRender={(menu) => (
        <div
          style={{ background: token.colorBgElevated, borderRadius: token.borderRadiusLG, boxShadow: token.boxShadowSecondary, maxHeight: "calc(100vh - 64px)", overflowY: "auto" }}
          data-testid="header-more-menu"
        >
          {about}
          {menu}
        </div>
      )}
    >
      <Badge dot={Boolean(onDownload && newDownload)} offset={[-6, 6]}>
        <Button type="text" icon={<EllipsisOutlined />} aria-label={t("common.more")} data-testid="header-more" />
      </Badge>
    </Dropdown>
  );
}
