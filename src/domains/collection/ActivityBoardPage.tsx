/**
 * An activity's board (custom page "activityboard" at route activityact, opened from an activity's row): the
 * activity's figures (bills, paid, unpaid, the collection rate, collected against due), each class's figures,
 * and the students still to pay (`arrearslist`: longest open first, with the guardian, whose mobile number is masked
 * and shown whole on a click, audited, and the reminders sent),
 * narrowed to a class by choosing its row; bills paid an amount other than they owe now (changed while an order was
 * open) are flagged, to settle by hand; the activity is opened and closed here (`activityact`), and an unpaid
 * bill's guardian reminded, or the bill waived or adjusted, from its row or for a selection.
 */
import { Alert, Button, Card, Col, Empty, Grid, Popconfirm, Progress, Row, Space, Statistic, Table, Tag, Typography } from "antd";
import { useCustom, useCustomMutation, useTranslation, type BaseRecord, type HttpError } from "@refinedev/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { activityAct, activityEntity, billEntity } from "../../../catalogue/collection";
import { scope } from "../../../providers/dataProvider";
import { weapi } from "../../../providers/weapi";
import { feedback } from "../../../providers/feedback";
import { formatYuan } from "../../../common/money";
import { timeText } from "../../../common/businessTime";
import { ActionButton, actionAllowed, BulkActionBar, useEntityActions, withActionRunner } from "../../engine/EntityActions";
import { NOTICES_PATH } from "../../shell/routes";
import { displayValue, type Translate } from "../../engine/fields";
import { useRefreshEntities } from "../../engine/useDeclaredOperation";
import type { CustomPageProps } from "..";
import { GuardianPhone } from "./GuardianPhone";
import type { ActivityBoard, BoardRow } from "../../../common/activityBoard";

const UNPAID_PAGE_SIZE = 20;
/** a bill open this long is shown in red */
const LONG_OPEN_DAYS = 30;

/** an unpaid bill as arrearslist answers it */
interface ArrearsRow extends BaseRecord {
  id: number;
  status: string;
  student_id: number;
  student_title: string;
  class_id: number;
  class_title: string;
  amount: string;
  created_at: string;
  days_open: number;
  guardian_name: string | null;
  guardian_phone: string | null;
  reminded_at: string | null;
  reminders: number;
}

function ActivityBoardPage({ entry }: CustomPageProps) {
  const { translate, getLocale } = useTranslation();
  const language = getLocale();
  const t: Translate = (key, options) => translate(key, options);
  const { id } = useParams();
  const [classId, setClassId] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const narrow = Grid.useBreakpoint().md === false;
  const refresh = useRefreshEntities();

  const { query, result } = useCustom<ActivityBoard>({
    url: "activityboard",
    method: "post",
    config: { payload: { ...scope(), id } },
    queryOptions: { enabled: Boolean(id), queryKey: ["activityboard", id] },
    errorNotification: false,
    successNotification: false,
  });
  const board = query.isSuccess ? result.data : undefined;

  // the arrears: the unpaid bills, longest open first, with the guardian and the reminders sent
  const arrears = useQuery({
    queryKey: ["arrearslist", id, classId, page],
    enabled: Boolean(id),
    queryFn: async () => {
      const res = await weapi<{ items: ArrearsRow[]; total: number }>("adminapiv2", "arrearslist", { ...scope(), activity_id: id, page, limit: UNPAID_PAGE_SIZE, ...(classId ? { class_id: classId } : {}) });
      return res.return_code === "SUCCESS" ? { items: res.data?.items ?? [], total: Number(res.data?.total ?? 0) } : { items: [], total: 0 };
    },
  });
  const unpaidRows = arrears.data?.items ?? [];
  const unpaidTotal = arrears.data?.total ?? 0;
  const [selected, setSelected] = useState<ArrearsRow[]>([]);
  const afterBillAction = () => {
    setSelected([]);
    void arrears.refetch();
    void query.refetch();
  };

  const mayAct = useEntityActions(activityEntity).some((a) => a.name === activityAct.name);
  const billActions = useEntityActions(billEntity);
  const { mutateAsync, mutation } = useCustomMutation<BaseRecord, HttpError, Record<string, unknown>>();
  const act = async (value: "open" | "close") => {
    try {
      const answer = await mutateAsync({ url: activityAct.name, method: "post", values: { ...scope(), id, act: value }, successNotification: false, errorNotification: false });
      feedback().success((answer as { message?: string }).message ?? "");
    } catch {
      // the weapi client showed the server's message
      return;
    }
    await refresh([activityEntity.name, billEntity.name]);
    await Promise.all([query.refetch(), arrears.refetch()]);
  };

  const status = board?.activity.status;
  const statusField = activityEntity.fields.find((f) => f.name === "status")!;
  const total = board?.total;
  const fieldLabel = (name: string) => billEntity.fields.find((f) => f.name === name)!.label;
  // the number masked, shown whole on a click (audited)
  const guardianOf = (row: ArrearsRow) => (row.guardian_name || row.guardian_phone ? <GuardianPhone billId={row.id} name={row.guardian_name} masked={row.guardian_phone} /> : null);
  const daysOpen = (row: ArrearsRow) => (
    <Typography.Text type={row.days_open >= LONG_OPEN_DAYS ? "danger" : undefined}>{translate("notices.arrears.days", { count: row.days_open })}</Typography.Text>
  );
  const reminded = (row: ArrearsRow) =>
    row.reminded_at ? (
      <span data-testid={`reminded-${row.id}`} title={translate("common.china_time")}>
        {translate("notices.arrears.times", { count: row.reminders, at: timeText(row.reminded_at, "minute").slice(5) })}
      </span>
    ) : (
      <Typography.Text type="secondary">{translate("notices.arrears.never")}</Typography.Text>
    );

  return (
    <Card
      loading={query.isLoading}
      title={
        <Space wrap>
          <span>{translate(entry.title)}</span>
          {board && <Typography.Text type="secondary">{board.activity.title}</Typography.Text>}
          {status && displayValue(statusField, status, t)}
        </Space>
      }
      extra={
        mayAct && (
          <Space wrap>
            {status === "draft" && (
              <Popconfirm title={translate("collection.act_confirm")} okText={translate("common.confirm")} cancelText={translate("common.cancel")} onConfirm={() => act("open")}>
                <Button type="primary" loading={mutation.isPending} data-testid="board-open">
                  {translate("collection.board.open")}
                </Button>
              </Popconfirm>
            )}
            {status === "open" && (
              <Popconfirm title={translate("collection.act_confirm")} okText={translate("common.confirm")} cancelText={translate("common.cancel")} okButtonProps={{ danger: true }} onConfirm={() => act("close")}>
                <Button danger loading={mutation.isPending} data-testid="board-close">
                  {translate("collection.board.close")}
                </Button>
              </Popconfirm>
            )}
          </Space>
        )
      }
    >
      {status === "draft" && <Typography.Paragraph type="secondary">{translate("collection.board.not_open")}</Typography.Paragraph>}
      {total && (
        <Row gutter={[16, 16]} style={{ marginBottom: 16 }} data-testid="board-total">
          <Col xs={12} md={4}>
            <Statistic title={translate("collection.board.bills")} value={total.bills} />
          </Col>
          <Col xs={12} md={4}>
            <Statistic title={translate("collection.board.paid")} value={total.paid} valueStyle={{ color: "#389e0d" }} />
          </Col>
          <Col xs={12} md={4}>
            <Statistic title={translate("collection.board.unpaid")} value={total.unpaid} valueStyle={{ color: total.unpaid > 0 ? "#d46b08" : undefined }} />
          </Col>
          <Col xs={12} md={4}>
            <Statistic title={translate("collection.board.rate")} value={total.rate} suffix="%" data-testid="board-rate" />
          </Col>
          <Col xs={24} md={8}>
            <Statistic title={`${translate("collection.board.collected")} / ${translate("collection.board.due")}`} value={`${formatYuan(total.collected, language)} / ${formatYuan(total.due, language)}`} />
          </Col>
        </Row>
      )}
      {total && total.differs > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="board-differs"
          message={`${translate("collection.board.differs")}: ${total.differs}`}
          description={translate("collection.board.differs_hint")}
        />
      )}
      <Table<BoardRow>
        size="small"
        rowKey={(row) => String(row.class_id)}
        dataSource={board?.classes ?? []}
        pagination={false}
        scroll={{ x: "max-content" }}
        locale={{ emptyText: <Empty description={translate("collection.board.not_open")} /> }}
        onRow={(row) => ({ onClick: () => setClassId((chosen) => (chosen === row.class_id ? null : row.class_id)), style: { cursor: "pointer" } })}
        rowClassName={(row) => (row.class_id === classId ? "ant-table-row-selected" : "")}
        data-testid="board-classes"
        columns={[
          { key: "class", title: translate("collection.board.class"), dataIndex: "class_title" },
          { key: "bills", title: translate("collection.board.bills"), dataIndex: "bills", align: "right" },
          { key: "paid", title: translate("collection.board.paid"), dataIndex: "paid", align: "right" },
          { key: "unpaid", title: translate("collection.board.unpaid"), dataIndex: "unpaid", align: "right" },
          {
            key: "differs",
            title: translate("collection.board.differs"),
            dataIndex: "differs",
            align: "right",
            render: (differs: number) => (differs > 0 ? <Tag color="error">{differs}</Tag> : differs),
          },
          { key: "rate", title: translate("collection.board.rate"), dataIndex: "rate", render: (rate: number) => <Progress percent={rate} size="small" style={{ minWidth: 120 }} /> },
          { key: "collected", title: translate("collection.board.collected"), dataIndex: "collected", align: "right", render: (v: string) => formatYuan(v, language) },
          { key: "due", title: translate("collection.board.due"), dataIndex: "due", align: "right", render: (v: string) => formatYuan(v, language) },
        ]}
      />
      <Space style={{ marginTop: 24, marginBottom: 8, justifyContent: "space-between", width: "100%" }} wrap>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {translate("collection.board.unpaid_students")} ({unpaidTotal})
          {classId !== null && (
            <Tag closable style={{ marginLeft: 8 }} onClose={() => setClassId(null)}>
              {board?.classes.find((c) => c.class_id === classId)?.class_title}
            </Tag>
          )}
        </Typography.Title>
        <Link to={NOTICES_PATH} data-testid="board-notices">
          {translate("notices.outbox.open")}
        </Link>
      </Space>
      <BulkActionBar entity={billEntity} actions={billActions.filter((action) => action.bulk)} selected={selected} onDone={afterBillAction} />
      <Table<ArrearsRow>
        size="small"
        rowKey="id"
        loading={arrears.isLoading}
        dataSource={unpaidRows}
        // a phone's rows fit its width, their text wrapping; a wider screen scrolls rather than wraps
        scroll={narrow ? undefined : { x: "max-content" }}
        data-testid="board-unpaid"
        rowSelection={billActions.some((action) => action.bulk) ? { selectedRowKeys: selected.map((row) => row.id), onChange: (_, rows) => setSelected(rows) } : undefined}
        pagination={{ current: page, pageSize: UNPAID_PAGE_SIZE, total: unpaidTotal, onChange: setPage, showSizeChanger: false, size: "small" }}
        columns={[
          {
            key: "student",
            title: translate(fieldLabel("student_id")),
            render: (_: unknown, row: ArrearsRow) =>
              // a phone has no room for the other columns: they go under the name
              narrow ? (
                <Space direction="vertical" size={0}>
                  <Space size={8}>
                    <Typography.Text strong>{row.student_title}</Typography.Text>
                    <span>{formatYuan(row.amount, language)}</span>
                  </Space>
                  <Typography.Text type="secondary">{row.class_title}</Typography.Text>
                  {guardianOf(row)}
                  <Space size={8} wrap>
                    {daysOpen(row)}
                    {reminded(row)}
                  </Space>
                </Space>
              ) : (
                row.student_title
              ),
          },
          { key: "class", title: translate(fieldLabel("class_id")), dataIndex: "class_title", responsive: ["md"] },
          { key: "amount", title: translate(fieldLabel("amount")), align: "right", responsive: ["md"], render: (_: unknown, row: ArrearsRow) => formatYuan(row.amount, language) },
          { key: "guardian", title: translate("notices.arrears.guardian"), responsive: ["md"], render: (_: unknown, row: ArrearsRow) => guardianOf(row) },
          { key: "days_open", title: translate("notices.arrears.days_open"), align: "right", responsive: ["md"], render: (_: unknown, row: ArrearsRow) => daysOpen(row) },
          { key: "reminded", title: translate("notices.arrears.reminded"), responsive: ["md"], render: (_: unknown, row: ArrearsRow) => reminded(row) },
          {
            key: "actions",
            title: translate("crud.actions"),
            render: (_: unknown, row: ArrearsRow) => (
              // on a phone the buttons stack, so that all of them stay on the screen
              <Space wrap direction={narrow ? "vertical" : "horizontal"} size={narrow ? 4 : 8}>
                {billActions
                  .filter((action) => actionAllowed(billEntity, action, row))
                  .map((action) => (
                    <ActionButton key={action.name} entity={billEntity} action={action} record={row} onDone={afterBillAction} />
                  ))}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}

export default withActionRunner(ActivityBoardPage);
