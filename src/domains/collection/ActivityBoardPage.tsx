/**
 * An activity's board (custom page "activityboard" at route activityact, opened from an activity's row): the
 * activity's figures (bills, paid, unpaid, the collection rate, collected against due), each class's figures,
 * and the students still to pay, narrowed to a class by choosing its row; the activity is opened and closed
 * here (`activityact`), and an unpaid bill waived or adjusted from its row.
 */
import { Button, Card, Col, Empty, Popconfirm, Progress, Row, Space, Statistic, Table, Tag, Typography } from "antd";
import { useCustom, useCustomMutation, useList, useTranslation, type BaseRecord, type HttpError } from "@refinedev/core";
import { useState } from "react";
import { useParams } from "react-router";
import { activityAct, activityEntity, billEntity } from "../../../catalogue/collection";
import { scope } from "../../../providers/dataProvider";
import { feedback } from "../../../providers/feedback";
import { ActionButton, actionAllowed, useEntityActions } from "../../engine/EntityActions";
import { displayValue, type Translate } from "../../engine/fields";
import { useRefreshEntities } from "../../engine/useDeclaredOperation";
import type { CustomPageProps } from "..";
import type { ActivityBoard, BoardRow } from "../../../common/activityBoard";

const UNPAID_PAGE_SIZE = 20;

export default function ActivityBoardPage({ entry }: CustomPageProps) {
  const { translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const { id } = useParams();
  const [classId, setClassId] = useState<number | null>(null);
  const [page, setPage] = useState(1);
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

  const unpaid = useList<BaseRecord>({
    resource: billEntity.name,
    filters: [
      { field: "activity_id", operator: "eq", value: id },
      { field: "status", operator: "eq", value: "unpaid" },
      ...(classId ? [{ field: "class_id", operator: "eq" as const, value: classId }] : []),
    ],
    pagination: { currentPage: page, pageSize: UNPAID_PAGE_SIZE },
    queryOptions: { enabled: Boolean(id) },
    errorNotification: false,
  });

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
    await query.refetch();
  };

  const status = board?.activity.status;
  const statusField = activityEntity.fields.find((f) => f.name === "status")!;
  const total = board?.total;
  const billColumns = billEntity.fields.filter((f) => ["student_id", "class_id", "amount"].includes(f.name));

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
            <Statistic title={`${translate("collection.board.collected")} / ${translate("collection.board.due")}`} value={`¥${total.collected} / ¥${total.due}`} />
          </Col>
        </Row>
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
          { key: "rate", title: translate("collection.board.rate"), dataIndex: "rate", render: (rate: number) => <Progress percent={rate} size="small" style={{ minWidth: 120 }} /> },
          { key: "collected", title: translate("collection.board.collected"), dataIndex: "collected", align: "right", render: (v: string) => `¥${v}` },
          { key: "due", title: translate("collection.board.due"), dataIndex: "due", align: "right", render: (v: string) => `¥${v}` },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {translate("collection.board.unpaid_students")} ({unpaid.result.total ?? 0})
        {classId !== null && (
          <Tag closable style={{ marginLeft: 8 }} onClose={() => setClassId(null)}>
            {board?.classes.find((c) => c.class_id === classId)?.class_title}
          </Tag>
        )}
      </Typography.Title>
      <Table<BaseRecord>
        size="small"
        rowKey="id"
        loading={unpaid.query.isLoading}
        dataSource={[...unpaid.result.data]}
        scroll={{ x: "max-content" }}
        data-testid="board-unpaid"
        pagination={{ current: page, pageSize: UNPAID_PAGE_SIZE, total: unpaid.result.total, onChange: setPage, showSizeChanger: false, size: "small" }}
        columns={[
          ...billColumns.map((f) => ({ key: f.name, title: translate(f.label), dataIndex: f.name, render: (value: unknown, row: BaseRecord) => displayValue(f, value, t, row) })),
          {
            key: "actions",
            title: translate("crud.actions"),
            render: (_: unknown, row: BaseRecord) => (
              <Space wrap>
                {billActions
                  .filter((action) => actionAllowed(billEntity, action, row))
                  .map((action) => (
                    <ActionButton key={action.name} entity={billEntity} action={action} record={row} onDone={() => void query.refetch()} />
                  ))}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
