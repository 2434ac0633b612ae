/** 404 and 401 pages (spec 2.1). */
import { Button, Result } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { HOME_PATH } from "../shell/routes";

export function ErrorPage({ status }: { status: 404 | 401 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const key = status === 404 ? "not_found" : "forbidden";
  return (
    <Result
      status={status === 404 ? "404" : "403"}
      title={status}
      subTitle={t(`pages.${key}`)}
      data-testid={`error-${status}`}
      extra={
        <Button type="primary" onClick={() => navigate(HOME_PATH)}>
          {t("shell.back_home")}
        </Button>
      }
    />
  );
}
