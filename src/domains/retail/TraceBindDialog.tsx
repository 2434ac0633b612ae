/**
 * Binding trace-source codes at packing or at pickup (the code's action tracesourcebind, keyed by the code, which no
 * record's button offers): the order number typed or scanned, its items with the codes each holds of its quantity,
 * then each garment's code scanned into the chosen item (a scanner types the code and Enter, or the camera reads the
 * label's QR code). Each answer is shown in place, in the server's words, and the next item still short of its codes
 * is chosen once one is complete. The codes' list and the order's page refresh after.
 */
import { Alert, Button, Empty, Input, List, Modal, Radio, Space, Tag, Typography, type InputRef } from "antd";
import { CameraOutlined, ScanOutlined, SearchOutlined } from "@ant-design/icons";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "@refinedev/core";
import { traceSourceBind, traceSourceEntity } from "../../../catalogue/traceSources";
import { weapi } from "../../../providers/weapi";
import { useRefreshEntities } from "../../engine/useDeclaredOperation";
import { canOpenCamera, QrScanner } from "../../lib/QrScanner";

const PATH = "adminapiv2";

interface OrderItem {
  id: number;
  title: string;
  spec_values?: Record<string, string>;
  qty: number;
}

interface FoundOrder {
  id: number;
  order_no: string;
  items: OrderItem[];
  codes: { code: string; order_item_id: number }[];
}

/** a label's QR code holds the code, or the address of the garment's page (/h5/{code}/trace/{trace_code}) */
export function scannedTraceCode(value: string): string {
  const text = value.trim();
  const page = /\/trace\/([^/?#]+)\/?(?:[?#].*)?$/.exec(text)?.[1];
  if (!page) return text;
  try {
    return decodeURIComponent(page);
  } catch {
    return page;
  }
}

const specsText = (specs?: Record<string, string>) =>
  Object.entries(specs ?? {})
    .map(([name, value]) => `${name} ${value}`)
    .join(" · ");

export default function TraceBindDialog({ onClose }: { onClose: () => void }) {
  const { translate } = useTranslation();
  const refresh = useRefreshEntities();
  const [orderNo, setOrderNo] = useState("");
  const [order, setOrder] = useState<FoundOrder | null>(null);
  const [itemId, setItemId] = useState<number | null>(null);
  const [code, setCode] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [scanning, setScanning] = useState(false);
  const codeInput = useRef<InputRef>(null);

  const codesOf = async (orderId: number) => {
    const res = await weapi<{ items?: { code: string; order_item_id: number }[] }>(PATH, "tracesourcelist", { order_id: orderId, page: 1, limit: 100 }, { silent: true });
    return res.return_code === "SUCCESS" ? (res.data?.items ?? []) : [];
  };
  const held = (found: FoundOrder, id: number) => found.codes.filter((c) => c.order_item_id === id).length;
  const firstShort = (found: FoundOrder) => found.items.find((i) => held(found, i.id) < i.qty)?.id ?? null;

  const find = async () => {
    const number = orderNo.trim();
    if (!number) return;
    setBusy(true);
    setMessage(null);
    try {
      const list = await weapi<{ items?: { id: number }[] }>(PATH, "shoporderlist", { order_no: number, page: 1, limit: 1 }, { silent: true });
      const id = list.data?.items?.[0]?.id;
      if (list.return_code !== "SUCCESS" || !id) {
        setOrder(null);
        setMessage({ ok: false, text: list.return_code === "SUCCESS" ? translate("retail.trace.bind.order_unknown", { order_no: number }) : list.return_msg });
        return;
      }
      const info = await weapi<{ items?: { id: number; order_no: string; items?: OrderItem[] } }>(PATH, "shoporderinfo", { id }, { silent: true });
      if (info.return_code !== "SUCCESS" || !info.data?.items) return setMessage({ ok: false, text: info.return_msg });
      const found: FoundOrder = { id, order_no: info.data.items.order_no, items: info.data.items.items ?? [], codes: await codesOf(id) };
      setOrder(found);
      setItemId(firstShort(found) ?? found.items[0]?.id ?? null);
      setTimeout(() => codeInput.current?.focus(), 0);
    } finally {
      setBusy(false);
    }
  };

  const bind = async (scanned?: string) => {
    const value = (scanned ?? code).trim();
    if (!order || itemId === null || !value) return;
    setBusy(true);
    try {
      const res = await weapi(PATH, traceSourceBind.name, { code: value, order_item_id: itemId }, { silent: true });
      const ok = res.return_code === "SUCCESS";
      setMessage({ ok, text: res.return_msg });
      if (ok) {
        setCode("");
        const next = { ...order, codes: await codesOf(order.id) };
        setOrder(next);
        // the item complete, the next one still short of its codes
        const current = next.items.find((i) => i.id === itemId);
        if (current && held(next, current.id) >= current.qty) setItemId(firstShort(next) ?? itemId);
        await refresh([traceSourceEntity.name, ...(traceSourceBind.refreshes ?? [])]).catch(() => undefined);
      }
    } finally {
      setBusy(false);
      setTimeout(() => codeInput.current?.select(), 0);
    }
  };

  useEffect(() => setMessage(null), [itemId]);

  return (
    <Modal
      open
      width={640}
      title={translate("retail.trace.bind.title")}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Button onClick={onClose} data-testid="trace-bind-close">
          {translate("import.close")}
        </Button>
      }
    >
      <Space direction="vertical" size="middle" style={{ width: "100%" }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {translate("retail.trace.bind.hint")}
        </Typography.Paragraph>
        <Space.Compact style={{ width: "100%" }}>
          <Input
            autoFocus
            value={orderNo}
            onChange={(e) => setOrderNo(e.target.value)}
            onPressEnter={() => void find()}
            placeholder={translate("collection.field.order_no")}
            prefix={<SearchOutlined />}
            allowClear
            data-testid="trace-bind-order"
          />
          <Button type="primary" loading={busy && !order} onClick={() => void find()} data-testid="trace-bind-find">
            {translate("retail.trace.bind.find_order")}
          </Button>
        </Space.Compact>
        {order && (
          <>
            {order.items.length === 0 ? (
              <Empty />
            ) : (
              <Radio.Group value={itemId} onChange={(e) => setItemId(Number(e.target.value))} style={{ width: "100%" }}>
                <List
                  size="small"
                  bordered
                  dataSource={order.items}
                  data-testid="trace-bind-items"
                  renderItem={(item) => {
                    const count = held(order, item.id);
                    const codes = order.codes.filter((c) => c.order_item_id === item.id).map((c) => c.code);
                    return (
                      <List.Item>
                        <Radio value={item.id} style={{ width: "100%" }} data-testid={`trace-bind-item-${item.id}`}>
                          <Space direction="vertical" size={2}>
                            <span>
                              <Typography.Text strong>{item.title}</Typography.Text> <Typography.Text type="secondary">{specsText(item.spec_values)}</Typography.Text> ×{item.qty}
                            </span>
                            <Space size={[4, 4]} wrap>
                              <Tag color={count >= item.qty ? "success" : "processing"}>{translate("retail.trace.bind.bound_count", { count, qty: item.qty })}</Tag>
                              {codes.map((c) => (
                                <Tag key={c} style={{ fontFamily: "monospace" }}>
                                  {c}
                                </Tag>
                              ))}
                            </Space>
                          </Space>
                        </Radio>
                      </List.Item>
                    );
                  }}
                />
              </Radio.Group>
            )}
            <Space.Compact style={{ width: "100%" }}>
              <Input
                ref={codeInput}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                onPressEnter={() => void bind()}
                placeholder={translate("retail.trace.bind.code_placeholder")}
                prefix={<ScanOutlined />}
                disabled={itemId === null}
                data-testid="trace-bind-code"
              />
              {canOpenCamera() && (
                <Button icon={<CameraOutlined />} disabled={itemId === null || busy} onClick={() => setScanning(true)} aria-label={translate("retail.trace.bind.camera")} data-testid="trace-bind-camera" />
              )}
              <Button type="primary" loading={busy} disabled={itemId === null || !code.trim()} onClick={() => void bind()} data-testid="trace-bind-submit">
                {translate(traceSourceBind.label)}
              </Button>
            </Space.Compact>
            {scanning && (
              <QrScanner
                onCode={(value) => {
                  setScanning(false);
                  const scanned = scannedTraceCode(value);
                  setCode(scanned);
                  void bind(scanned);
                }}
                onClose={() => setScanning(false)}
              />
            )}
          </>
        )}
        {message && <Alert type={message.ok ? "success" : "error"} showIcon message={message.text} data-testid="trace-bind-message" />}
      </Space>
    </Modal>
  );
}
