/** Download centre (spec 2.1): files exported for the current provider appear here once exports exist. */
import { Card, Empty } from "antd";
import { useTranslation } from "react-i18next";

export function DownloadList() {
  const { t } = useTranslation();
  return (
    <Card title={t("shell.download")} data-testid="download-list">
      <Empty description={t("pages.download_empty")} />
    </Card>
  );
}
