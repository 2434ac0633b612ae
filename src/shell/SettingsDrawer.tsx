/**
 * Settings drawer (spec 2.4, 9; DESIGN 7): eight theme colours, dark mode, tags view, fixed header, sidebar logo.
 */
import { CheckOutlined } from "@ant-design/icons";
import { Divider, Drawer, Space, Switch, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import { THEME_COLOURS, updateSettings, useSettings, type LayoutSettings } from "../lib/settings";

type SwitchSetting = keyof Pick<LayoutSettings, "dark" | "tagsView" | "fixedHeader" | "sidebarLogo">;
const SWITCHES: { key: SwitchSetting; label: string }[] = [
  { key: "dark", label: "settings.dark" },
  { key: "tagsView", label: "settings.tags_view" },
  { key: "fixedHeader", label: "settings.fixed_header" },
  { key: "sidebarLogo", label: "settings.sidebar_logo" },
];

export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const settings = useSettings();
  return (
    <Drawer title={t("settings.title")} open={open} onClose={onClose} width={300} data-testid="settings-drawer">
      <div>{t("settings.theme_colour")}</div>
      <Space wrap style={{ marginTop: 8 }}>
        {THEME_COLOURS.map((colour) => (
          <Tooltip key={colour} title={colour}>
            <button
              type="button"
              aria-label={colour}
              aria-pressed={settings.themeColour === colour}
              data-testid={`settings-colour-${colour.slice(1)}`}
              onClick={() => updateSettings({ themeColour: colour })}
              style={{ width: 28, height: 28, borderRadius: 4, border: 0, background: colour, color: "#fff", cursor: "pointer" }}
            >
              {settings.themeColour === colour && <CheckOutlined />}
            </button>
          </Tooltip>
        ))}
      </Space>
      <Divider />
      {SWITCHES.map(({ key, label }) => (
        <div key={key} style={{ display: "flex", justifyContent: "space-between", marginBottom: 16 }}>
          <span>{t(label)}</span>
          <Switch data-testid={`settings-${key}`} checked={settings[key]} onChange={(checked) => updateSettings({ [key]: checked })} />
        </div>
      ))}
    </Drawer>
  );
}
