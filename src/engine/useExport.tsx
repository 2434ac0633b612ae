/**
 * An export is a job of the download centre: the export operation answers the job's id at once, and the user is
 * told where the file will be, with a link to it, while the page stays usable; the header's download icon keeps a
 * dot until the user has been to the download centre.
 */
import { App as AntdApp } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { weapi } from "../../providers/weapi";
import { markNewDownload } from "../lib/newDownload";
import { DOWNLOAD_PATH } from "../shell/routes";

/** `start` calls the export operation with the payload and, once its job is queued, points to the download centre. */
export function useExport(): { start: (path: string, operation: string, payload: Record<string, unknown>) => Promise<void>; starting: boolean } {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  // the message is drawn by antd's App, which need not sit inside the router: the link navigates by the page's hook
  const navigate = useNavigate();
  const [starting, setStarting] = useState(false);
  const start = async (path: string, operation: string, payload: Record<string, unknown>) => {
    setStarting(true);
    try {
      const res = await weapi<{ items?: { job_id: number } }>(path, operation, payload);
      if (res.return_code !== "SUCCESS" || !res.data?.items) return;
      // the toast goes; a dot on the header's download icon stays until the download centre is opened
      markNewDownload();
      void message.success({
        content: (
          <span data-testid="export-started">
            {t("downloads.started")}{" "}
            <a
              href={DOWNLOAD_PATH}
              onClick={(event) => {
                event.preventDefault();
                void navigate(DOWNLOAD_PATH);
              }}
            >
              {t("downloads.open")}
            </a>
          </span>
        ),
        duration: 6,
      });
    } catch {
      // the client showed the error
    } finally {
      setStarting(false);
    }
  };
  return { start, starting };
}
