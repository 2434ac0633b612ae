/**
 * A payment channel's onboarding material and the step it waits for (custom page "paychnlmaterial"): the review
 * (paychnlinfo, opened from a channel's row) and the submission of the material (paychnl_infoadd, where the
 * channel is chosen on the page, or named by `?id=`). It shows the material as the reviewer checks it (every part,
 * the settlement account whole, the missing parts flagged), the channel's state and the reason of a rejection;
 * then what the user may do: an operator reviews a submitted channel here (approve with the sub-merchant id, or
 * reject with the reason), a provider edits its draft or rejected channel and submits it, and the channel's other
 * actions are offered by role and state as on its row.
 */
import { Alert, Button, Card, Descriptions, Empty, Form, Grid, Input, Radio, Select, Space, Spin, Tag, Typography } from "antd";
import { EditOutlined, RollbackOutlined } from "@ant-design/icons";
import { useEffect, useState, type ReactNode } from "react";
import { useCustomMutation, useGo, useList, useOne, usePermissions, type BaseRecord, type HttpError } from "@refinedev/core";
import { useTranslation } from "react-i18next";
import { useParams, useSearchParams } from "react-router";
import type { FieldDecl } from "../../../common/catalogue";
import { channelStates, gatewayOptions, materialFields, paychnlEntity, paychnlReview } from "../../../catalogue/fees";
import { scope, type CustomAnswer } from "../../../providers/dataProvider";
import { feedback } from "../../../providers/feedback";
import { submitOnlyByButton } from "../../lib/forms";
import { ActionButton, actionAllowed, editAllowed, useEntityActions, withActionRunner } from "../../engine/EntityActions";
import { fieldRules, type Translate } from "../../engine/fields";
import { useRefreshEntities } from "../../engine/useDeclaredOperation";
import type { CustomPageProps } from "..";
import { groupedDigits, isOperator, siblingRoute, type Channel } from "./shared";
import { isBlank } from "../../../common/fieldExtras";

function optionText(options: readonly { value: string; label: string }[], value: unknown, t: Translate): string {
  const option = options.find((o) => o.value === String(value));
  return option ? t(option.label) : String(value ?? "");
}


export function StateTag({ status }: { status: string }) {
  const { t } = useTranslation();
  const state = channelStates.find((o) => o.value === status);
  return <Tag color={state?.tone}>{state ? t(state.label) : status}</Tag>;
}

/** The operator's review of a submitted channel, in the page: approve with the sub-merchant id, or reject with why. */
function ReviewForm({ channel }: { channel: Channel }) {
  const { t: translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const [form] = Form.useForm();
  const result = Form.useWatch("result", form) as string | undefined;
  const { mutateAsync, mutation } = useCustomMutation<BaseRecord, HttpError, Record<string, unknown>>();
  const refresh = useRefreshEntities();
  const field = (name: string) => paychnlReview.fields!.find((f) => f.name === name)!;
  const sandbox = channel.gateway === "sandbox";

  const submit = async (values: Record<string, unknown>) => {
    const sent = Object.fromEntries(Object.entries(values).filter(([, v]) => !isBlank(v)));
    try {
      const answer = (await mutateAsync({ url: paychnlReview.name, method: "post", values: { ...scope(), ...sent, id: channel.id }, successNotification: false, errorNotification: false })) as CustomAnswer<BaseRecord>;
      feedback().success(answer.message);
      await refresh([paychnlEntity.name]);
    } catch {
      // the weapi client showed the server's message
    }
  };

  const item = (f: FieldDecl, control: ReactNode, extra?: string) => (
    <Form.Item name={f.name} label={t(f.label)} rules={fieldRules(f, t)} extra={extra}>
      {control}
    </Form.Item>
  );
  return (
    <Card size="small" title={t("fees.page.review_title")} data-testid="channel-review" style={{ marginTop: 16 }}>
      <Typography.Paragraph type="secondary">{t(paychnlReview.confirm)}</Typography.Paragraph>
      <Form form={form} layout="vertical" style={{ maxWidth: 520 }} onFinish={(values: Record<string, unknown>) => void submit(values)} onKeyDown={submitOnlyByButton}>
        {item(
          field("result"),
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            data-testid="review-result"
            options={(field("result").options ?? []).map((o) => ({ value: o.value, label: t(o.label) }))}
          />,
        )}
        {result === "approve" &&
          item(field("sub_mchid"), <Input inputMode="numeric" maxLength={16} placeholder={sandbox ? t("fees.page.sub_mchid_sandbox") : "1900000000"} data-testid="review-sub-mchid" />, sandbox ? t("fees.page.sub_mchid_sandbox_hint") : t("fees.page.sub_mchid_hint"))}
        {result === "reject" && item(field("reason"), <Input.TextArea rows={3} maxLength={200} showCount data-testid="review-reason" />)}
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={mutation.isPending} danger={result === "reject"} disabled={!result} data-testid="review-submit">
            {result === "reject" ? t("fees.review_result.reject") : result === "approve" ? t("fees.review_result.approve") : t(paychnlReview.label)}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}

/** A part of the material: its value, or that it is still missing. */
function materialValue(field: FieldDecl, value: unknown, t: Translate) {
  if (isBlank(value)) return <Typography.Text type="danger">{t("fees.page.missing")}</Typography.Text>;
  // the reviewer compares the whole account with the bank's papers
  if (field.mask) return <span style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}>{groupedDigits(String(value))}</span>;
  return String(value);
}

/** A channel's material, state and next step. */
function ChannelMaterial({ channel, group, operator }: { channel: Channel; group: CustomPageProps["group"]; operator: boolean }) {
  const { t: translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const go = useGo();
  const { data: roles = [] } = usePermissions<string[]>({});
  const narrow = Grid.useBreakpoint().md === false;
  const missing = materialFields.filter((f) => isBlank(channel[f.name]));
  const editRoute = editAllowed(paychnlEntity, channel) ? siblingRoute(group, "paychnledit", roles, channel.id) : undefined;
  // the review is offered in the page itself; the channel's other actions as on its row
  const actions = useEntityActions(paychnlEntity).filter((a) => a.name !== paychnlReview.name && actionAllowed(paychnlEntity, a, channel));
  const reviewing = operator && channel.status === "submitted";

  return (
    <>
      <Descriptions size="small" column={narrow ? 1 : 2} style={{ marginBottom: 16 }} data-testid="channel-summary">
        <Descriptions.Item label={t("fees.field.channel_title")}>{channel.title}</Descriptions.Item>
        {/* the operators review every provider's channels: whose this one is */}
        {operator && typeof channel.sysid_title === "string" && <Descriptions.Item label={t("field.provider")}>{channel.sysid_title}</Descriptions.Item>}
        <Descriptions.Item label={t("fees.field.channel_status")}>
          <StateTag status={channel.status} />
        </Descriptions.Item>
        <Descriptions.Item label={t("fees.field.gateway")}>{optionText(gatewayOptions, channel.gateway, t)}</Descriptions.Item>
        <Descriptions.Item label={t("fees.field.sub_mchid")}>{channel.sub_mchid ?? "-"}</Descriptions.Item>
      </Descriptions>
      {channel.status === "rejected" && channel.reject_reason && (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} message={t("fees.page.rejected_because")} description={channel.reject_reason} data-testid="channel-rejected" />
      )}
      {channel.status === "submitted" && !operator && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t("fees.page.awaiting_review")} />}
      {missing.length > 0 && editAllowed(paychnlEntity, channel) && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t("fees.page.incomplete", { count: missing.length })} data-testid="channel-incomplete" />
      )}
      {/* on a phone each label stands above its value, so a long account keeps to the screen */}
      <Descriptions
        bordered
        size="small"
        column={1}
        layout={narrow ? "vertical" : "horizontal"}
        title={t("fees.page.material")}
        data-testid="channel-material"
        styles={{ label: { width: narrow ? undefined : 220 } }}
      >
        {materialFields.map((f) => (
          <Descriptions.Item key={f.name} label={t(f.label)}>
            {materialValue(f, channel[f.name], t)}
          </Descriptions.Item>
        ))}
      </Descriptions>
      {(editRoute || actions.length > 0) && (
        <Space wrap style={{ marginTop: 16 }}>
          {editRoute && (
            <Button icon={<EditOutlined />} onClick={() => go({ to: editRoute })} data-testid="channel-edit">
              {translate("crud.edit")}
            </Button>
          )}
          {actions.map((action) => (
            <ActionButton key={action.name} entity={paychnlEntity} action={action} record={channel} />
          ))}
        </Space>
      )}
      {reviewing && <ReviewForm channel={channel} />}
    </>
  );
}

function ChannelMaterialPage({ group, entry }: CustomPageProps) {
  const { t } = useTranslation();
  const go = useGo();
  const { data: roles = [] } = usePermissions<string[]>({});
  const operator = isOperator(roles);
  const { id: routeId } = useParams();
  const [search] = useSearchParams();
  const [chosen, setChosen] = useState<string | undefined>(search.get("id") ?? undefined);
  const id = routeId ?? chosen;
  const resource = `paychnl@${group.path}`;
  const { result: channel, query } = useOne<Channel>({ resource, id: id ?? "", queryOptions: { enabled: Boolean(id) }, errorNotification: false });
  // the page on its own: the channels to choose from, those waiting for the user's step first
  const { result: channels, query: listQuery } = useList<Channel>({
    resource,
    pagination: { currentPage: 1, pageSize: 100 },
    queryOptions: { enabled: !routeId },
    errorNotification: false,
  });
  const waiting = (c: Channel) => (operator ? c.status === "submitted" : c.status === "draft" || c.status === "rejected");
  const choices = [...channels.data].sort((a, b) => Number(waiting(b)) - Number(waiting(a)));
  const listRoute = siblingRoute(group, entry.activeMenu ?? "paychnllist", roles);
  const addRoute = operator ? undefined : siblingRoute(group, "paychnladd", roles);
  // on its own, the page opens on the first channel waiting for the user's step
  const firstWaiting = routeId || chosen ? undefined : choices.find(waiting);
  useEffect(() => {
    if (firstWaiting) setChosen(String(firstWaiting.id));
  }, [firstWaiting]);
  const nothingWaiting = !routeId && !listQuery.isLoading && !choices.some(waiting);

  return (
    <Card
      title={t(entry.title)}
      extra={
        listRoute && (
          <Button icon={<RollbackOutlined />} onClick={() => go({ to: listRoute })}>
            {t("crud.back")}
          </Button>
        )
      }
      data-testid="channel-material-page"
    >
      {!routeId && (
        <Form layout="vertical" style={{ maxWidth: 520 }}>
          <Typography.Paragraph type="secondary">{t(operator ? "fees.page.choose_to_review" : "fees.page.choose_to_submit")}</Typography.Paragraph>
          {nothingWaiting && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              message={t(operator ? "fees.page.nothing_to_review" : "fees.page.nothing_to_submit")}
              action={
                addRoute && (
                  <Button size="small" type="primary" onClick={() => go({ to: addRoute })}>
                    {t("menu.paychnladd")}
                  </Button>
                )
              }
            />
          )}
          <Form.Item label={t("fees.page.choose_channel")}>
            <Select<string>
              value={chosen}
              onChange={setChosen}
              loading={listQuery.isLoading}
              placeholder={t("fees.page.choose_channel")}
              data-testid="channel-choice"
              notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("fees.page.no_channels")} />}
              options={choices.map((c) => ({
                value: String(c.id),
                label: (
                  <Space size={4}>
                    <span>{c.title}</span>
                    <StateTag status={c.status} />
                  </Space>
                ),
              }))}
            />
          </Form.Item>
        </Form>
      )}
      {id && query.isLoading && <Spin style={{ display: "block", margin: "32px auto" }} />}
      {id && query.isError && <Alert type="error" showIcon message={t("crud.not_found_title")} />}
      {id && channel && !query.isError && <ChannelMaterial channel={channel} group={group} operator={operator} />}
    </Card>
  );
}

export default withActionRunner(ChannelMaterialPage);
