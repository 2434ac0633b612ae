/**
 * Home page: who is logged in and in which scope (reports come with a later issue). Titles and term ends come
 * from the shell's scope, so a renewal shows here at once.
 */
import { Card, Descriptions, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { normaliseUserType } from "../../common/roleKeys";
import { sessionValues } from "../../providers/session";
import { useSessionUser } from "../lib/session";
import { useScope } from "../shell/renewal/termReload";

export function Dashboard() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const session = sessionValues();
  const scope = useScope();
  const providerTitle = scope.providerTitle ?? session.serviceName;
  const providerEnd = scope.providerEndTime ?? session.serviceEndTime;
  const type = normaliseUserType(session.userType);
  const items = [
    { key: "username", label: t("pages.username"), children: user?.username },
    { key: "type", label: t("pages.user_type"), children: t(`pages.type_${type}`) },
    { key: "version", label: t("pages.version"), children: session.servicerVer || "v1" },
    ...(providerTitle ? [{ key: "provider", label: t("pages.provider"), children: <span data-testid="dashboard-provider">{providerTitle}</span> }] : []),
    ...(providerEnd ? [{ key: "end", label: t("pages.provider_end_time"), children: <span data-testid="dashboard-provider-end">{providerEnd}</span> }] : []),
    ...(session.schid ? [{ key: "school", label: t("pages.school"), children: <span data-testid="dashboard-school">{scope.schoolTitle ?? "-"}</span> }] : []),
    ...(session.schid && scope.schoolEndTime ? [{ key: "school-end", label: t("pages.school_end_time"), children: <span data-testid="dashboard-school-end">{scope.schoolEndTime}</span> }] : []),
    {
      key: "roles",
      label: t("pages.roles"),
      children: (
        <Space wrap size={4}>
          {(user?.roles ?? []).map((r) => (
            <Tag key={r}>{r}</Tag>
          ))}
        </Space>
      ),
    },
  ];
  return (
    <Card data-testid="dashboard">
      <Typography.Title level={4}>{t("pages.welcome", { name: user?.name ?? "" })}</Typography.Title>
      <Descriptions column={1} bordered size="small" items={items} />
    </Card>
  );
}
