/**
 * A school's payment channel (custom page "schoolpaychnl", school_paychnllist, opened from a school's row): the
 * channel the school takes payments through, binding it to another approved channel of its provider
 * (schoolpaychnlset; switching from one channel to another is confirmed first, naming both), and the provider's schools with the channel each takes payments through, each opening its
 * own page.
 */
import { Alert, App as AntdApp, Button, Card, Descriptions, Form, List, Select, Space, Tag, Typography } from "antd";
import { LinkOutlined, RollbackOutlined } from "@ant-design/icons";
import { useEffect } from "react";
import { useGo, useList, useOne, usePermissions, type BaseRecord } from "@refinedev/core";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { gatewayOptions, schoolPaychnlEntity, schoolPaychnlSetOperation } from "../../../catalogue/fees";
import { scope } from "../../../providers/dataProvider";
import { feedback } from "../../../providers/feedback";
import { displayValue } from "../../engine/fields";
import { useDeclaredOperation } from "../../engine/useDeclaredOperation";
import type { CustomPageProps } from "..";
import { StateTag } from "./ChannelMaterialPage";
import { generationRoute, siblingRoute, type Channel, type SchoolBinding } from "./shared";

/** as many schools and bindings as the page lists at once (the server's largest page) */
const PAGE = 100;

const boundAt = schoolPaychnlEntity.fields.find((f) => f.name === "bound_at")!;

export default function SchoolChannelPage({ group, entry }: CustomPageProps) {
  const { t } = useTranslation();
  const go = useGo();
  const { data: roles = [] } = usePermissions<string[]>({});
  const { id } = useParams();
  const [form] = Form.useForm<{ paychnl_id?: string }>();
  const { call, isPending } = useDeclaredOperation(schoolPaychnlSetOperation);
  const { modal } = AntdApp.useApp();

  const { result: school } = useOne<BaseRecord>({ resource: `school@${group.path}`, id: id ?? "", queryOptions: { enabled: Boolean(id) }, errorNotification: false });
  const { result: schoolList } = useList<BaseRecord>({ resource: `school@${group.path}`, pagination: { currentPage: 1, pageSize: PAGE }, errorNotification: false });
  // read by the entity's name: no page lists the bindings themselves
  const { result: bindings, query: bindingsQuery } = useList<SchoolBinding>({ resource: "schoolpaychnl", pagination: { currentPage: 1, pageSize: PAGE }, errorNotification: false });
  const { result: channelList } = useList<Channel>({ resource: "paychnl", pagination: { currentPage: 1, pageSize: PAGE }, errorNotification: false });

  const channels = new Map(channelList.data.map((c) => [Number(c.id), c]));
  const bySchool = new Map(bindings.data.map((b) => [Number(b.sch_id), b]));
  const current = id ? bySchoolChannel(Number(id)) : undefined;
  const approved = channelList.data.filter((c) => c.status === "approved");

  function bySchoolChannel(schId: number): { binding: SchoolBinding; channel?: Channel } | undefined {
    const binding = bySchool.get(schId);
    return binding && { binding, channel: channels.get(Number(binding.paychnl_id)) };
  }

  useEffect(() => {
    form.setFieldsValue({ paychnl_id: current ? String(current.binding.paychnl_id) : undefined });
    // the school's channel, once read (or after the page moves to another school)
  }, [form, id, current?.binding.paychnl_id]);

  const bind = async (paychnl_id: string) => {
    if (!id) return;
    try {
      const bound = await call({ ...scope(), sch_id: id, paychnl_id });
      feedback().success(t("fees.page.bound", { channel: String(bound.paychnl_title ?? "") }));
      await bindingsQuery.refetch();
    } catch {
      // the weapi client showed the server's message, naming the channel
    }
  };

  /** Binds the chosen channel; a school switching from another channel is asked first, both named. */
  const choose = ({ paychnl_id }: { paychnl_id?: string }) => {
    if (!id || !paychnl_id) return;
    const from = current?.channel;
    if (from && String(from.id) === paychnl_id) {
      feedback().success(t("fees.page.already_bound", { channel: from.title }));
      return;
    }
    const to = channels.get(Number(paychnl_id));
    if (!from || !to) {
      void bind(paychnl_id);
      return;
    }
    modal.confirm({
      title: t("fees.page.switch_title"),
      content: <span data-testid="school-channel-switch-text">{t("fees.page.switch_confirm", { school: String(school?.title ?? ""), from: from.title, to: to.title })}</span>,
      okText: t("fees.page.switch_ok"),
      cancelText: t("common.cancel"),
      okButtonProps: { "data-testid": "school-channel-switch-ok" } as Record<string, string>,
      onOk: () => bind(paychnl_id),
    });
  };

  const listRoute = siblingRoute(group, entry.activeMenu ?? "schoollist", roles);
  const channelsRoute = generationRoute(group, "paychnllist", roles);
  const gateway = (value: unknown) => t(gatewayOptions.find((o) => o.value === value)?.label ?? String(value));

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="school-channel-page">
      <Card
        title={t(entry.title)}
        extra={
          listRoute && (
            <Button icon={<RollbackOutlined />} onClick={() => go({ to: listRoute })}>
              {t("crud.back")}
            </Button>
          )
        }
      >
        <Descriptions size="small" column={1} data-testid="school-channel-school">
          <Descriptions.Item label={t("field.school")}>
            <Typography.Text strong>{school?.title ? String(school.title) : "-"}</Typography.Text>
          </Descriptions.Item>
        </Descriptions>
        {current?.channel ? (
          <Descriptions size="small" column={1} style={{ marginBottom: 16 }} data-testid="school-channel-current">
            <Descriptions.Item label={t("fees.field.paychnl")}>
              <Space size={4} wrap>
                <span>{current.channel.title}</span>
                <StateTag status={current.channel.status} />
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t("fees.field.gateway")}>{gateway(current.channel.gateway)}</Descriptions.Item>
            <Descriptions.Item label={t("fees.field.sub_mchid")}>{current.channel.sub_mchid ?? "-"}</Descriptions.Item>
            {current.binding.bound_at && (
              // as every list and detail page shows a time
              <Descriptions.Item label={t("fees.field.bound_at")}>{displayValue(boundAt, current.binding.bound_at, t)}</Descriptions.Item>
            )}
          </Descriptions>
        ) : (
          !bindingsQuery.isLoading && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t("fees.page.no_school_channel")} data-testid="school-channel-none" />
        )}
        {current?.channel && current.channel.status !== "approved" && (
          <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t("fees.page.channel_not_taking")} />
        )}
        {approved.length === 0 && !bindingsQuery.isLoading ? (
          <Alert type="info" showIcon message={t("fees.page.no_approved_channel")} />
        ) : (
          <Form form={form} layout="vertical" style={{ maxWidth: 520 }} onFinish={choose}>
            <Form.Item name="paychnl_id" label={t("fees.page.take_payments_through")} rules={[{ required: true, message: t("validation.select_required", { label: t("fees.field.paychnl") }) }]}>
              <Select
                data-testid="school-channel-choice"
                placeholder={t("fees.page.choose_channel")}
                options={approved.map((c) => ({ value: String(c.id), label: `${c.title} · ${gateway(c.gateway)} · ${c.sub_mchid ?? ""}` }))}
              />
            </Form.Item>
            <Form.Item>
              <Button type="primary" htmlType="submit" loading={isPending} data-testid="school-channel-bind">
                {t(schoolPaychnlSetOperation.submit)}
              </Button>
            </Form.Item>
          </Form>
        )}
        {channelsRoute && (
          <Typography.Link onClick={() => go({ to: channelsRoute })}>
            <LinkOutlined /> {t("fees.page.manage_channels")}
          </Typography.Link>
        )}
      </Card>

      <Card title={t("fees.page.schools_and_channels")} size="small">
        <List
          size="small"
          dataSource={[...schoolList.data]}
          data-testid="school-channel-list"
          renderItem={(row) => {
            const bound = bySchoolChannel(Number(row.id));
            const open = siblingRoute(group, entry.name, roles, String(row.id));
            return (
              <List.Item
                key={String(row.id)}
                style={{ cursor: open ? "pointer" : undefined, background: String(row.id) === id ? "rgba(22, 119, 255, 0.06)" : undefined, paddingInline: 8 }}
                onClick={() => open && go({ to: open })}
              >
                <Typography.Text strong={String(row.id) === id}>{String(row.title)}</Typography.Text>
                {bound?.channel ? (
                  <Space size={4} wrap style={{ justifyContent: "flex-end" }}>
                    <span>{bound.channel.title}</span>
                    <StateTag status={bound.channel.status} />
                  </Space>
                ) : (
                  <Tag color="warning">{t("fees.page.unbound")}</Tag>
                )}
              </List.Item>
            );
          }}
        />
      </Card>
    </Space>
  );
}
