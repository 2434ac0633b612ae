/**
 * A lookup page (PageRef `{kind: "lookup"}`): scan or type. One value, typed (or typed by a scanner, Enter ending
 * it) or read from a QR code with the camera (src/lib/QrScanner.tsx), looks a record up with the page's finding
 * operation; the record is shown as a card of its declared fields (RecordCard), its rows (an order's items) as cards
 * under it; one button confirms it with the confirming operation, sending the same value and how it was entered.
 * A record confirmed already says by whom and when instead. On a phone first: a big field (the numeric keyboard for
 * digits), the camera's button across the width.
 */
import { Alert, Button, Card, Empty, Grid, Input, Space, Typography } from "antd";
import { CameraOutlined, CheckCircleOutlined, SearchOutlined } from "@ant-design/icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { FieldDecl, LookupRecordDecl, MenuEntry, MenuGroup, PageRef } from "../../common/catalogue";
import { timeText } from "../../common/businessTime";
import { feedback } from "../../providers/feedback";
import { operationByName } from "../../resources.config";
import { canOpenCamera, QrScanner } from "../lib/QrScanner";
import { displayValue, type Translate } from "./fields";
import { RecordCard } from "./RecordCard";
import { useDeclaredOperation } from "./useDeclaredOperation";

export type LookupPageRef = Extract<PageRef, { kind: "lookup" }>;

type Answer = Record<string, unknown>;

/** The field and its button, big enough for a thumb and for a code read at arm's length (20 px digits). */
const CONTROL_HEIGHT = 48;

/** The answer with the values of its nested objects under their paths too ("student.name"), as the declared fields name them. */
export function flatRecord(answer: Answer, prefix = "", into: Answer = {}): Answer {
  for (const [key, value] of Object.entries(answer)) {
    const name = prefix + key;
    into[name] = value;
    if (value && typeof value === "object" && !Array.isArray(value)) flatRecord(value as Answer, `${name}.`, into);
  }
  return into;
}

/** A value as a message's parameter reads it: a time in China time to the minute, a choice by its label. */
function paramText(field: FieldDecl, value: unknown, t: Translate): string {
  if (value === undefined || value === null) return "";
  if (field.type === "datetime") return timeText(value, "minute");
  const option = field.options?.find((o) => o.value === String(value));
  return option ? t(option.label) : String(value);
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

/** The record found: a card of its fields, its rows under it. */
function FoundRecord({ decl, record, t }: { decl: LookupRecordDecl; record: Answer; t: Translate }) {
  const saidWhenDone = new Set(Object.values(decl.done?.params ?? {}));
  const fields = decl.fields.filter((f) => !saidWhenDone.has(f.name));
  const items = decl.items;
  const rows = items && Array.isArray(record[items.name]) ? (record[items.name] as Answer[]) : [];
  return (
    <Space direction="vertical" size={8} style={{ width: "100%" }}>
      <RecordCard
        record={record}
        titleField={fields.find((f) => f.name === decl.titleField)}
        statusField={decl.status ? fields.find((f) => f.name === decl.status) : undefined}
        fields={fields}
        cell={(f, value) => displayValue(f, value, t, record)}
        buttons={[]}
        t={t}
      />
      {items && rows.length > 0 && (
        <div data-testid="lookup-items">
          <Typography.Text type="secondary">
            {t(items.label)} ({rows.length})
          </Typography.Text>
          <Space direction="vertical" size={6} style={{ width: "100%", marginTop: 4 }}>
            {rows.map((row, i) => (
              <RecordCard
                key={i}
                record={row}
                titleField={items.fields.find((f) => f.name === items.titleField)}
                fields={items.fields.filter((f) => !isEmpty(row[f.name]))}
                cell={(f, value) => displayValue(f, value, t, row)}
                buttons={[]}
                t={t}
              />
            ))}
          </Space>
        </div>
      )}
    </Space>
  );
}

export default function LookupPage({ page, entry }: { page: LookupPageRef; group: MenuGroup; entry: MenuEntry }) {
  const { t } = useTranslation();
  const translate: Translate = (key, options) => t(key, options);
  // the catalogue refuses to load a lookup page naming an undeclared operation (catalogue/assemble.ts)
  const findOperation = operationByName(page.find)!;
  const confirmOperation = operationByName(page.confirm.operation)!;
  const valueField = findOperation.fields.find((f) => f.name === page.field);
  const find = useDeclaredOperation<Answer>(findOperation);
  const confirm = useDeclaredOperation<Answer>(confirmOperation);
  const [value, setValue] = useState("");
  const [scanning, setScanning] = useState(false);
  // the record found, with the value that found it and how that value was entered
  const [found, setFound] = useState<{ value: string; scanned: boolean; answer: Answer } | null>(null);
  const canScan = page.scan === true && canOpenCamera();
  // a desk's keyboard or scanner types at once; a phone opens its keyboard when the clerk taps the field
  const [pointerFine] = useState(() => typeof matchMedia === "function" && matchMedia("(pointer: fine)").matches);
  // on a phone the field keeps the width, its button its icon (the label still read to a screen reader)
  const narrow = !Grid.useBreakpoint().sm;

  const lookUp = async (typed: string, scanned: boolean) => {
    const trimmed = typed.trim();
    if (!trimmed) return;
    setValue(trimmed);
    setFound(null);
    // a failure's message is shown by the client
    const answer = await find.call({ [page.field]: trimmed }).catch(() => null);
    if (answer) setFound({ value: trimmed, scanned, answer });
  };

  const confirmFound = async () => {
    if (!found) return;
    const via = page.confirm.via;
    const payload = { [page.field]: found.value, ...(via ? { [via.field]: found.scanned ? via.scanned : via.typed } : {}) };
    const answer = await confirm.call(payload).catch(() => null);
    if (!answer) return;
    const after = page.confirm.then === "answer" ? answer : await find.call({ [page.field]: found.value }).catch(() => null);
    feedback().success(t(page.confirm.success, { replace: after ?? answer }));
    setFound(after ? { ...found, answer: after } : null);
    setValue("");
  };

  const record = found ? flatRecord(found.answer) : null;
  const done = page.record.done;
  const doneField = (name: string) => page.record.fields.find((f) => f.name === name)!;
  const isDone = record && done && !isEmpty(record[done.when]);
  const offered = record && page.confirm.offeredWhen.values.includes(String(record[page.confirm.offeredWhen.field] ?? ""));

  return (
    <Card title={t(entry.title)} style={{ maxWidth: 720 }} styles={{ body: { padding: 16 } }}>
      {scanning ? (
        <QrScanner
          onCode={(code) => {
            setScanning(false);
            void lookUp(code, true);
          }}
          onClose={() => setScanning(false)}
        />
      ) : (
        <Space direction="vertical" size="middle" style={{ width: "100%" }}>
          <Space.Compact style={{ width: "100%" }}>
            <Input
              size="large"
              inputMode={page.numeric ? "numeric" : "text"}
              enterKeyHint="search"
              autoComplete="off"
              autoFocus={pointerFine}
              value={value}
              onChange={(e) => setValue(e.target.value)}
              onPressEnter={() => void lookUp(value, false)}
              placeholder={t(page.placeholder)}
              maxLength={valueField?.max}
              style={{ height: CONTROL_HEIGHT, fontSize: 20, letterSpacing: page.numeric ? 1 : undefined }}
              aria-label={t(valueField?.label ?? page.placeholder)}
              data-testid="lookup-value"
            />
            <Button
              size="large"
              type="primary"
              icon={<SearchOutlined />}
              loading={find.isPending}
              onClick={() => void lookUp(value, false)}
              style={{ height: CONTROL_HEIGHT, minWidth: CONTROL_HEIGHT + 8 }}
              aria-label={t(findOperation.submit)}
              data-testid="lookup-find"
            >
              {!narrow && t(findOperation.submit)}
            </Button>
          </Space.Compact>
          {canScan && (
            <Button size="large" block icon={<CameraOutlined />} onClick={() => setScanning(true)} data-testid="lookup-scan">
              {t(page.scanButton ?? "crud.lookup_scan")}
            </Button>
          )}
          {record ? (
            <Space direction="vertical" size="middle" style={{ width: "100%" }} data-testid="lookup-record">
              <FoundRecord decl={page.record} record={record} t={translate} />
              {isDone ? (
                <Alert
                  type="success"
                  showIcon
                  icon={<CheckCircleOutlined />}
                  message={t(done.message, Object.fromEntries(Object.entries(done.params).map(([param, name]) => [param, paramText(doneField(name), record[name], translate)])))}
                  data-testid="lookup-done"
                />
              ) : offered ? (
                <Button type="primary" size="large" block icon={<CheckCircleOutlined />} loading={confirm.isPending} onClick={() => void confirmFound()} data-testid="lookup-confirm">
                  {t(page.confirm.button ?? confirmOperation.submit)}
                </Button>
              ) : (
                <Alert type="warning" showIcon message={t(page.confirm.unavailable)} data-testid="lookup-unavailable" />
              )}
            </Space>
          ) : (
            <Empty description={t(page.hint)} />
          )}
        </Space>
      )}
    </Card>
  );
}
