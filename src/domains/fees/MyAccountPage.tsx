/**
 * A provider's payment accounts at a glance (custom page "myaccountinfo", v2): each of its channels with its state,
 * gateway, sub-merchant and settlement account (masked, as lists carry it), what its schools were settled and
 * what is pending (settlesummary), and the schools that take payments through it; the schools bound to no channel are named too, as they cannot take payments.
 */
import { Alert, Button, Card, Col, Descriptions, Empty, Row, Space, Spin, Statistic, Tag, Typography } from "antd";
import { SettingOutlined } from "@ant-design/icons";
import { useCustom, useGo, useList, usePermissions, type BaseRecord } from "@refinedev/core";
import { useTranslation } from "react-i18next";
import { formatYuan } from "../../../common/money";
import { gatewayOptions } from "../../../catalogue/fees";
import type { CustomPageProps } from "..";
import { StateTag } from "./ChannelMaterialPage";
import { generationRoute, siblingRoute, type Channel, type SchoolBinding } from "./shared";

/** as many channels, schools and bindings as the page reads at once (the server's largest page) */
const PAGE = 100;

export default function MyAccountPage({ group, entry }: CustomPageProps) {
  const { t, i18n } = useTranslation();
  const go = useGo();
  const { data: roles = [] } = usePermissions<string[]>({});
  const { result: channels, query: channelsQuery } = useList<Channel>({ resource: `paychnl@${group.path}`, pagination: { currentPage: 1, pageSize: PAGE }, errorNotification: false });
  const { result: bindings } = useList<SchoolBinding>({ resource: "schoolpaychnl", pagination: { currentPage: 1, pageSize: PAGE }, errorNotification: false });
  const { result: schools } = useList<BaseRecord>({ resource: "school", pagination: { currentPage: 1, pageSize: PAGE }, errorNotification: false });
  // what each channel's schools were settled and what waits for its reconciliation
  const { result: settlement } = useCustom<{ paychnl_id: number; settled: string; pending: string }[]>({
    url: "settlesummary",
    method: "post",
    config: { payload: {} },
    queryOptions: { queryKey: ["settlesummary"] },
    errorNotification: false,
    successNotification: false,
  });
  const settled = new Map((Array.isArray(settlement.data) ? settlement.data : []).map((row) => [Number(row.paychnl_id), row]));

  const schoolsOf = new Map<number, SchoolBinding[]>();
  for (const b of bindings.data) schoolsOf.set(Number(b.paychnl_id), [...(schoolsOf.get(Number(b.paychnl_id)) ?? []), b]);
  const boundSchools = new Set(bindings.data.map((b) => Number(b.sch_id)));
  const unbound = schools.data.filter((s) => !boundSchools.has(Number(s.id)));
  const approved = channels.data.filter((c) => c.status === "approved").length;
  const listRoute = siblingRoute(group, "paychnllist", roles);
  // a school's own channel page, where it is bound to another channel
  const schoolRoute = (schId: number) => generationRoute(group, "school_paychnllist", roles, schId);
  const gateway = (value: unknown) => t(gatewayOptions.find((o) => o.value === value)?.label ?? String(value));

  const schoolTag = (schId: number, title: string, color?: string) => {
    const to = schoolRoute(schId);
    return (
      <Tag key={schId} color={color} style={{ cursor: to ? "pointer" : undefined, marginBottom: 4 }} onClick={() => to && go({ to })}>
        {title}
      </Tag>
    );
  };

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="my-account-page">
      <Card
        title={t(entry.title)}
        extra={
          listRoute && (
            <Button icon={<SettingOutlined />} onClick={() => go({ to: listRoute })}>
              {t("fees.page.manage_channels")}
            </Button>
          )
        }
      >
        <Row gutter={[16, 16]}>
          <Col xs={12} md={6}>
            <Statistic title={t("fees.page.channels")} value={channels.total ?? channels.data.length} />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title={t("fees.page.approved_channels")} value={approved} />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title={t("fees.page.bound_schools")} value={boundSchools.size} />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title={t("fees.page.unbound_schools")} value={unbound.length} valueStyle={unbound.length > 0 ? { color: "#d46b08" } : undefined} />
          </Col>
        </Row>
        {unbound.length > 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 16 }}
            message={t("fees.page.unbound_alert")}
            description={<div>{unbound.map((s) => schoolTag(Number(s.id), String(s.title), "warning"))}</div>}
            data-testid="my-account-unbound"
          />
        )}
      </Card>

      {channelsQuery.isLoading ? (
        <Spin style={{ display: "block", margin: "32px auto" }} />
      ) : channels.data.length === 0 ? (
        <Card>
          <Empty description={t("fees.page.no_channels")} />
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          {channels.data.map((channel) => {
            const bound = schoolsOf.get(Number(channel.id)) ?? [];
            return (
              <Col key={channel.id} xs={24} lg={12} xxl={8}>
                <Card
                  size="small"
                  data-testid={`my-account-channel-${channel.id}`}
                  title={
                    <Space size={6} wrap>
                      <span>{channel.title}</span>
                      <StateTag status={channel.status} />
                    </Space>
                  }
                  style={{ height: "100%" }}
                >
                  <Descriptions size="small" column={1}>
                    <Descriptions.Item label={t("fees.field.gateway")}>{gateway(channel.gateway)}</Descriptions.Item>
                    <Descriptions.Item label={t("fees.field.sub_mchid")}>{channel.sub_mchid ?? "-"}</Descriptions.Item>
                    <Descriptions.Item label={t("fees.field.subject")}>{String(channel.subject ?? "-")}</Descriptions.Item>
                    <Descriptions.Item label={t("fees.field.bank_account")}>
                      <span style={{ whiteSpace: "nowrap" }}>{String(channel.bank_account ?? "-")}</span>
                    </Descriptions.Item>
                  </Descriptions>
                  <Row gutter={16} style={{ margin: "8px 0" }} data-testid={`my-account-settlement-${channel.id}`}>
                    <Col span={12}>
                      <Statistic title={t("settle.account.settled")} value={formatYuan(settled.get(Number(channel.id))?.settled ?? "0.00", i18n.language)} />
                    </Col>
                    <Col span={12}>
                      <Statistic title={t("settle.account.pending")} value={formatYuan(settled.get(Number(channel.id))?.pending ?? "0.00", i18n.language)} valueStyle={{ color: "#d46b08" }} />
                    </Col>
                  </Row>
                  <Typography.Text type="secondary">{bound.length > 0 ? t("fees.page.schools_through", { count: bound.length }) : t("fees.page.no_school_through")}</Typography.Text>
                  {bound.length > 0 && <div style={{ marginTop: 8 }}>{bound.map((b) => schoolTag(Number(b.sch_id), String(b.sch_title ?? b.sch_id), "blue"))}</div>}
                </Card>
              </Col>
            );
          })}
        </Row>
      )}
    </Space>
  );
}
