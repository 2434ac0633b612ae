/**
 * The home page's fee collection for those who collect fees: the last 30 days' payments and refunds as bars
 * (CollectionBars), and the open activities with the most unpaid bills, each opening its record page (its bills by
 * state) when the user's menu has one.
 */
import { Card, Col, Row, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { DashboardCollection as Collection, UnpaidActivity } from "../../common/dashboard";
import { formatNumber } from "../../common/money";
import { useRoles } from "../lib/session";
import { refreshTab } from "../shell/tabs";
import { CollectionBars, moneyText } from "./CollectionBars";
import { recordRoute } from "./dashboardLinks";

function UnpaidItem({ activity, showSchool }: { activity: UnpaidActivity; showSchool: boolean }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const roles = useRoles();
  // the activity's record page lists its bills by state
  const route = recordRoute("activity", activity.activity_id, roles);
  const title = route ? (
    <Link to={route} onClick={() => refreshTab(route.split("?")[0]!)} data-testid={`dashboard-unpaid-link-${activity.activity_id}`}>
      {activity.title}
    </Link>
  ) : (
    activity.title
  );
  return (
    <div
      data-testid={`dashboard-unpaid-${activity.activity_id}`}
      style={{ display: "flex", justifyContent: "space-between", gap: 12, padding: "8px 0", borderBottom: `1px solid ${token.colorBorderSecondary}` }}
    >
      <div style={{ minWidth: 0 }}>
        <div style={{ fontWeight: 500 }}>{title}</div>
        {showSchool && <div style={{ color: token.colorTextSecondary, fontSize: 12 }}>{activity.school}</div>}
      </div>
      <div style={{ textAlign: "right", fontVariantNumeric: "tabular-nums", flexShrink: 0 }}>
        <div>
          {t("dashboard.collection.unpaid_bills")}: <span data-testid="unpaid-bills">{formatNumber(activity.unpaid_bills, i18n.language)}</span>
        </div>
        <div style={{ color: token.colorTextSecondary, fontSize: 12 }}>
          {t("dashboard.collection.unpaid_amount")}: {moneyText(activity.unpaid_amount, i18n.language)}
        </div>
      </div>
    </div>
  );
}

export function DashboardCollection({ collection, showSchool }: { collection: Collection; showSchool: boolean }) {
  const { t } = useTranslation();
  return (
    <Row gutter={[12, 12]} style={{ marginTop: 12 }}>
      <Col xs={24} xl={14}>
        <Card size="small" title={t("dashboard.collection.chart_title")} data-testid="dashboard-collection-chart">
          <CollectionBars days={collection.days} total={collection.total} />
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <Card size="small" title={t("dashboard.collection.unpaid_title")} data-testid="dashboard-unpaid">
          {collection.unpaid.length === 0 ? (
            <Typography.Text type="secondary">{t("dashboard.collection.none_unpaid")}</Typography.Text>
          ) : (
            // plain rows: antd's List would bring its pagination into the home page's chunk
            collection.unpaid.map((activity) => <UnpaidItem key={activity.activity_id} activity={activity} showSchool={showSchool} />)
          )}
        </Card>
      </Col>
    </Row>
  );
}
