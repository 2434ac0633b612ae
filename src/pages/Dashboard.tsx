/**
 * Home page: who is logged in and in which scope, then the figures the caller's role cares about (the
 * `dashboard` operation: providers, schools, students, terms ending soon, renewals, fee collection, with the last
 * 30 days' chart and the activities most owed for those who collect fees). Each figure links to the list it
 * counts when the user's menu has one (the first of the figure's links that the role keys reach; dashboardLinks.ts),
 * and none otherwise. Titles and term ends come from the shell's scope, so a renewal shows here at once, and the
 * figures are read again whenever the page shows again or the scope's dates move.
 */
import { Button, Card, Descriptions, Empty, Space, Spin, Typography, theme } from "antd";
import { ReloadOutlined, RightOutlined } from "@ant-design/icons";
import { useEffect, useRef } from "react";
import { useCustom } from "@refinedev/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { normaliseUserType } from "../../common/roleKeys";
import { scope as tenantScope } from "../../providers/dataProvider";
import { sessionValues } from "../../providers/session";
import type { Dashboard as DashboardData, DashboardFigure } from "../../common/dashboard";
import { formatNumber } from "../../common/money";
import { useRoles, useSessionUser } from "../lib/session";
import { useScope } from "../shell/renewal/termReload";
import { refreshTab } from "../shell/tabs";
import { moneyText } from "./CollectionBars";
import { DashboardCollection } from "./DashboardCollection";
import { DashboardWaiting } from "./DashboardWaiting";
import { figureRoute } from "./dashboardLinks";

type Load = { state: "loading" } | { state: "failed" } | { state: "done"; data: DashboardData };

/**
 * The caller's figures through refine's cache (the data provider's `custom`), in the tenant the user acts in;
 * read again when the scope's dates move (a renewal). A failure shows on the page, not as a toast.
 */
function useDashboard(datesKey: string): { load: Load; retry: () => void } {
  const { query, result } = useCustom<DashboardData>({
    url: "dashboard",
    method: "post",
    config: { payload: tenantScope() },
    meta: { silent: true },
    errorNotification: false,
    successNotification: false,
  });
  const { refetch } = query;
  const shownDates = useRef(datesKey);
  useEffect(() => {
    if (shownDates.current === datesKey) return;
    shownDates.current = datesKey;
    void refetch();
  }, [datesKey, refetch]);
  const data = result.data;
  // the figures shown stay while they are read again; a failure or an answer without figures shows as failed
  const load: Load =
    query.isSuccess && Array.isArray(data?.figures) ? { state: "done", data } : query.isFetching || query.isPending ? { state: "loading" } : { state: "failed" };
  return { load, retry: () => void refetch() };
}

/** A figure as it reads: money in yuan (its value is in fen), a percentage, or a count. */
function figureText(figure: DashboardFigure, language: string): string {
  if (figure.format === "money") return moneyText(figure.value, language);
  if (figure.format === "percent") return `${figure.value.toLocaleString(language, { maximumFractionDigits: 1 })}%`;
  return formatNumber(figure.value, language);
}

function FigureCard({ figure, route }: { figure: DashboardFigure; route: string | undefined }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const title = t(`dashboard.figure.${figure.key}`);
  const colour = figure.tone === "danger" && figure.value > 0 ? token.colorError : figure.tone === "warning" && figure.value > 0 ? token.colorWarning : undefined;
  const card = (
    <Card size="small" hoverable={Boolean(route)} style={{ height: "100%" }} data-testid={`dashboard-figure-${figure.key}`}>
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "flex-start", gap: 8, color: token.colorTextSecondary }}>
        <span>{title}</span>
        {route && <RightOutlined style={{ fontSize: 12, marginTop: 5, color: token.colorTextTertiary }} />}
      </div>
      {/* an amount of six figures keeps to a phone's half-width card */}
      <div style={{ fontSize: "clamp(17px, 4.6vw, 24px)", lineHeight: "36px", marginTop: 4, color: colour ?? token.colorText, fontVariantNumeric: "tabular-nums" }} data-testid={`dashboard-figure-${figure.key}-value`}>
        {figureText(figure, i18n.language)}
      </div>
    </Card>
  );
  if (!route) return card;
  return (
    <Link
      to={route}
      // a list already open in a tab keeps its own filters: it opens afresh with the figure's
      onClick={() => refreshTab(route.split("?")[0]!)}
      aria-label={t("dashboard.open", { title })}
      data-testid={`dashboard-link-${figure.key}`}
      style={{ display: "block", height: "100%" }}
    >
      {card}
    </Link>
  );
}

function Figures({ load, onRetry }: { load: Load; onRetry: () => void }) {
  const { t } = useTranslation();
  const roles = useRoles();
  if (load.state === "loading") {
    return <Spin style={{ display: "block", margin: "24px auto" }} data-testid="dashboard-loading" />;
  }
  if (load.state === "failed") {
    return (
      <Space wrap data-testid="dashboard-load-failed">
        <Typography.Text type="warning">{t("dashboard.load_failed")}</Typography.Text>
        <Button size="small" icon={<ReloadOutlined />} onClick={onRetry} data-testid="dashboard-retry">
          {t("dashboard.retry")}
        </Button>
      </Space>
    );
  }
  const { audience, figures, collection } = load.data;
  return (
    <div data-testid="dashboard-figures" data-audience={audience}>
      <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(min(160px, 40%), 1fr))", gap: 12 }}>
        {/* what waits for the user's decision comes first */}
        <DashboardWaiting />
        {figures.map((figure) => (
          <FigureCard key={figure.key} figure={figure} route={figureRoute(figure.links, roles)} />
        ))}
      </div>
      {/* a school's activities are all its own: no school named beside them */}
      {collection && <DashboardCollection collection={collection} showSchool={audience !== "school"} />}
      {audience === "pickup" && (
        <div data-testid="dashboard-pickup-empty">
          <Empty style={{ marginTop: 24 }} description={t("dashboard.pickup_empty")} />
        </div>
      )}
    </div>
  );
}

export function Dashboard() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const session = sessionValues();
  const scope = useScope();
  const { load, retry } = useDashboard(`${scope.providerEndTime}|${scope.schoolEndTime}`);
  const providerTitle = scope.providerTitle ?? session.serviceName;
  const providerEnd = scope.providerEndTime ?? session.serviceEndTime;
  const type = normaliseUserType(session.userType);
  const items = [
    { key: "username", label: t("pages.username"), children: user?.username },
    { key: "type", label: t("pages.user_type"), children: t(`pages.type_${type}`) },
    ...(providerTitle ? [{ key: "provider", label: t("pages.provider"), children: <span data-testid="dashboard-provider">{providerTitle}</span> }] : []),
    ...(providerEnd ? [{ key: "end", label: t("pages.provider_end_time"), children: <span data-testid="dashboard-provider-end">{providerEnd}</span> }] : []),
    ...(session.schid ? [{ key: "school", label: t("pages.school"), children: <span data-testid="dashboard-school">{scope.schoolTitle ?? "-"}</span> }] : []),
    ...(session.schid && scope.schoolEndTime ? [{ key: "school-end", label: t("pages.school_end_time"), children: <span data-testid="dashboard-school-end">{scope.schoolEndTime}</span> }] : []),
  ];
  return (
    <Card data-testid="dashboard">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t("pages.welcome", { name: user?.name ?? "" })}
      </Typography.Title>
      <Figures load={load} onRetry={retry} />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t("dashboard.account")}
      </Typography.Title>
      <Descriptions column={{ xs: 1, sm: 1, md: 2 }} bordered size="small" items={items} />
    </Card>
  );
}
