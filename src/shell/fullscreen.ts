/** Fullscreen (spec 2.4): whether the console fills the screen, and the toggle (a warning where unsupported). */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { feedback } from "../../providers/feedback";

export function useFullscreen(): { full: boolean; toggle: () => void } {
  const { t } = useTranslation();
  const [full, setFull] = useState(Boolean(document.fullscreenElement));
  useEffect(() => {
    const onChange = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, []);
  const toggle = () => {
    if (!document.fullscreenEnabled) {
      feedback().warning(t("shell.fullscreen_unsupported"));
      return;
    }
    void (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen());
  };
  return { full, toggle };
}
