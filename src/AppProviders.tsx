/**
 * Theme, size and locale for the whole SPA, and a message instance for the weapi client's toast bridge. The
 * console adds antd's <App> (message, modal, notification) in its own lazy chunk: see ConsoleFeedback.
 */
import { ConfigProvider, message, theme } from "antd";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { lazyConfirm, registerFeedback } from "../providers/feedback";
import type { Language } from "../providers/i18n";
import { useAntdLocale } from "./lib/antdLocale";
import { usePrefersReducedMotion } from "./lib/mediaQuery";
import { antdSize, useSettings } from "./lib/settings";

function MessageBridge() {
  const [api, holder] = message.useMessage({ maxCount: 3 });
  useEffect(
    () =>
      registerFeedback({
        error: (text, duration) => void api.error(text, duration),
        warning: (text, duration) => void api.warning(text, duration),
        success: (text, duration) => void api.success(text, duration),
        confirm: lazyConfirm,
      }),
    [api],
  );
  return holder;
}

export function AppProviders({ children }: { children: ReactNode }) {
  const settings = useSettings();
  const { i18n } = useTranslation();
  const lang = (["zh", "en", "es"].includes(i18n.language) ? i18n.language : "en") as Language;
  const { componentSize, compact } = antdSize(settings.size);
  const locale = useAntdLocale(lang);
  const reducedMotion = usePrefersReducedMotion();
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const algorithm = [settings.dark ? theme.darkAlgorithm : theme.defaultAlgorithm, ...(compact ? [theme.compactAlgorithm] : [])];
  return (
    <ConfigProvider
      locale={locale}
      componentSize={componentSize}
      theme={{ token: { colorPrimary: settings.themeColour, motion: !reducedMotion }, algorithm }}
    >
      <MessageBridge />
      {children}
    </ConfigProvider>
  );
}
