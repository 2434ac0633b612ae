/**
 * Command palette (Ctrl/Cmd-K, DESIGN 7): the routes the user may open plus actions (switch school/provider, back
 * to the operator console when an operator acts in a provider, as the avatar menu offers, language, log out). Loaded with the first Ctrl/Cmd-K (see LazyCommandPalette), then kbar owns the shortcut.
 */
import {
  KBarAnimator,
  KBarPortal,
  KBarPositioner,
  KBarProvider,
  KBarResults,
  KBarSearch,
  useKBar,
  useMatches,
  useRegisterActions,
  type Action,
} from "@refinedev/kbar";
import { theme } from "antd";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { changeLanguage, LANGUAGES } from "../../providers/i18n";
import type { SearchableRoute } from "./routes";

const LANGUAGE_NAMES = { zh: "中文", en: "English", es: "Español" } as const;

export interface PaletteCommands {
  routes: SearchableRoute[];
  canSwitchSchool: boolean;
  canSwitchProvider: boolean;
  /** an operator acting in a provider's console: the avatar menu's "back to the operator console" */
  canReturnToOperator: boolean;
  onSwitch: () => void;
  onReturnToOperator: () => void;
  onLogout: () => void;
}

function Results() {
  const { results } = useMatches();
  const { token } = theme.useToken();
  return (
    <KBarResults
      items={results}
      onRender={({ item, active }) =>
        typeof item === "string" ? (
          <div style={{ padding: "8px 16px", fontSize: 12, opacity: 0.6 }}>{item}</div>
        ) : (
          <div style={{ padding: "10px 16px", background: active ? token.controlItemBgActive : "transparent", cursor: "pointer" }}>
            {item.name}
          </div>
        )
      }
    />
  );
}

function Palette({ routes, canSwitchSchool, canSwitchProvider, canReturnToOperator, onSwitch, onReturnToOperator, onLogout }: PaletteCommands) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const actions = useMemo<Action[]>(() => {
    const pages: Action[] = routes.map((r) => ({
      id: `route:${r.path}`,
      name: r.groupTitle ? `${t(r.groupTitle)} > ${t(r.title)}` : t(r.title),
      keywords: r.path,
      section: t("shell.palette_pages"),
      perform: () => navigate(r.path),
    }));
    const commands: Action[] = [];
    if (canSwitchSchool) commands.push({ id: "switch-school", name: t("shell.switch_school"), section: t("shell.palette_actions"), perform: onSwitch });
    if (canSwitchProvider) commands.push({ id: "switch-provider", name: t("shell.switch_provider"), section: t("shell.palette_actions"), perform: onSwitch });
    if (canReturnToOperator) commands.push({ id: "return-operator", name: t("shell.return_to_operator"), section: t("shell.palette_actions"), perform: onReturnToOperator });
    LANGUAGES.forEach((lang) =>
      commands.push({
        id: `language:${lang}`,
        name: `${t("shell.language")}: ${LANGUAGE_NAMES[lang]}`,
        section: t("shell.palette_actions"),
        perform: () => void changeLanguage(lang),
      }),
    );
    commands.push({ id: "logout", name: t("shell.logout"), section: t("shell.palette_actions"), perform: onLogout });
    return [...pages, ...commands];
    // names change with the language
  }, [routes, canSwitchSchool, canSwitchProvider, canReturnToOperator, onSwitch, onReturnToOperator, onLogout, navigate, t, i18n.language]);
  useRegisterActions(actions, [actions]);
  const { query } = useKBar();
  // it was loaded by a Ctrl/Cmd-K press: open at once
  useEffect(() => query.toggle(), [query]);

  return (
    <KBarPortal>
      <KBarPositioner style={{ zIndex: 2000, background: "rgba(0,0,0,0.35)" }}>
        <KBarAnimator
          style={{ width: 560, maxWidth: "90vw", fontFamily: token.fontFamily, background: token.colorBgElevated, color: token.colorText, borderRadius: 8, overflow: "hidden", boxShadow: token.boxShadow }}
        >
          <KBarSearch
            data-testid="command-palette-search"
            defaultPlaceholder={t("shell.palette_placeholder")}
            style={{ width: "100%", padding: "12px 16px", fontSize: 16, border: 0, outline: "none", background: "transparent", color: "inherit" }}
          />
          <Results />
        </KBarAnimator>
      </KBarPositioner>
    </KBarPortal>
  );
}

export default function CommandPalette(props: PaletteCommands) {
  return (
    <KBarProvider>
      <Palette {...props} />
    </KBarProvider>
  );
}
