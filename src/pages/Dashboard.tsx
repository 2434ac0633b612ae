/** Home page: who is logged in and in which scope (reports come with a later issue). */
import { Card, Descriptions, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { normaliseUserType } from "../../common/roleKeys";
import { sessionValues } from "../../providers/session";
import { useSessionUser } from "../lib/session";

export function Dashboard() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const session = sessionValues();
  const type = normaliseUserType(session.userType);
  const items = [
    { key: "username", label: t("pages.username"), children: user?.username },
    { key: "type", label: t("pages.user_type"), children: t(`pages.type_${type}`) },
    { key: "version", label: t("pages.version"), children: session.servicerVer || "v1" },
    ...(session.serviceName ? [{ key: "provider", label: t("pages.provider"), children: session.serviceName }] : []),
    ...(session.serviceEndTime ? [{ key: "end", label: t("pages.provider_end_time"), children: session.serviceEndTime }] : []),
    ...(session.schid ? [{ key: "school", label: t("pages.school_id"), children: session.schid }] : []),
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
