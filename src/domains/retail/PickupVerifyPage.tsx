/**
 * The pickup clerk's page (custom page "pickupverify", /shop/pickuprec): a code typed or the payer's QR code scanned
 * (src/lib/QrScanner.tsx), the order it names shown as the clerk
 * checks it (who, what, paid), then handed over with one button. Works on a phone first.
 */
import { Alert, Button, Card, Descriptions, Empty, Input, List, Space, Tag, Typography } from "antd";
import { CameraOutlined, CheckCircleOutlined, SearchOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { pickupFindOperation, pickupVerifyOperation } from "../../../catalogue/retail";
import { feedback } from "../../../providers/feedback";
import { useDeclaredOperation } from "../../engine/useDeclaredOperation";
import { canOpenCamera, QrScanner } from "../../lib/QrScanner";
import type { CustomPageProps } from "..";

interface FoundOrder {
  order_no: string;
  status: string;
  amount: string;
  paid_at: string | null;
  student: { name: string; student_no: string };
  school_title: string;
  pickup_point: string;
  items: { title: string; spec_values: Record<string, string>; qty: number; amount: string }[];
  verified: { name: string; at: string } | null;
}

export default function PickupVerifyPage({ entry }: CustomPageProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState("");
  const [via, setVia] = useState<"code" | "scan">("code");
  const [scanning, setScanning] = useState(false);
  const [order, setOrder] = useState<FoundOrder | null>(null);
  const find = useDeclaredOperation<FoundOrder>(pickupFindOperation);
  const verify = useDeclaredOperation<FoundOrder>(pickupVerifyOperation);
  const canScan = canOpenCamera();

  const lookUp = async (value: string, how: "code" | "scan") => {
    const trimmed = value.trim();
    if (!trimmed) return;
    setVia(how);
    setCode(trimmed);
    setOrder(null);
    // a failure's message is shown by the client
    setOrder(await find.call({ code: trimmed }).catch(() => null));
  };
  const handOver = async () => {
    const done = await verify.call({ code, via }).catch(() => null);
    if (!done) return;
    feedback().success(t("retail.pickup.verified", { order_no: done.order_no }));
    setOrder(done);
  };

  return (
    <Card title={t(entry.title)} style={{ maxWidth: 720 }}>
      {scanning ? (
        <QrScanner
          onCode={(value) => {
            setScanning(false);
            void lookUp(value, "scan");
          }}
          onClose={() => setScanning(false)}
        />
      ) : (
        <Space direction="vertical" size="middle" style={{ width: "100%" }}>
          <Space.Compact style={{ width: "100%" }}>
            <Input
              size="large"
              inputMode="numeric"
              autoComplete="off"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              onPressEnter={() => void lookUp(code, "code")}
              placeholder={t("retail.scan.placeholder")}
              maxLength={32}
              data-testid="pickup-code"
            />
            <Button size="large" type="primary" icon={<SearchOutlined />} loading={find.isPending} onClick={() => void lookUp(code, "code")} data-testid="pickup-find">
              {t("retail.action.find")}
            </Button>
          </Space.Compact>
          {canScan && (
            <Button size="large" block icon={<CameraOutlined />} onClick={() => setScanning(true)} data-testid="pickup-scan">
              {t("retail.scan.open")}
            </Button>
          )}
          {order ? (
            <Card size="small" data-testid="pickup-order">
              <Descriptions column={1} size="small">
                <Descriptions.Item label={t("collection.field.order_no")}>{order.order_no}</Descriptions.Item>
                <Descriptions.Item label={t("collection.field.student")}>
                  {order.student.name} ({order.student.student_no}) · {order.school_title}
                </Descriptions.Item>
                <Descriptions.Item label={t("retail.entity.pickuppoint")}>{order.pickup_point}</Descriptions.Item>
                <Descriptions.Item label={t("retail.field.order_amount")}>¥{order.amount}</Descriptions.Item>
              </Descriptions>
              <List
                size="small"
                dataSource={order.items}
                renderItem={(item) => (
                  <List.Item extra={<Typography.Text strong>× {item.qty}</Typography.Text>}>
                    <Space direction="vertical" size={2}>
                      <Typography.Text>{item.title}</Typography.Text>
                      <Space size={4} wrap>
                        {Object.entries(item.spec_values).map(([name, value]) => (
                          <Tag key={name}>
                            {name} {value}
                          </Tag>
                        ))}
                      </Space>
                    </Space>
                  </List.Item>
                )}
              />
              {order.verified ? (
                <Alert type="success" showIcon icon={<CheckCircleOutlined />} message={t("retail.pickup.done_by", { name: order.verified.name, time: new Date(order.verified.at).toLocaleString() })} data-testid="pickup-verified" />
              ) : order.status === "undelivered" ? (
                <Button type="primary" size="large" block icon={<CheckCircleOutlined />} loading={verify.isPending} onClick={() => void handOver()} data-testid="pickup-verify">
                  {t("retail.action.verify")}
                </Button>
              ) : (
                <Alert type="warning" showIcon message={t("retail.pickup.refunded")} />
              )}
            </Card>
          ) : (
            <Empty description={t("retail.scan.hint")} />
          )}
        </Space>
      )}
    </Card>
  );
}
