/**
 * The import page kind: an Import button beside a list whose entity declares `import`, opening a dialog that
 * offers the template and takes one .xlsx file, then checks it on the server without writing anything (the
 * preview): how many rows are ready, the grades and classes the import would create (a typo there would make a
 * new one) and the values each choice column accepts, or every row error (row, field, message), downloadable.
 * Only then does the user import, and sees what was imported and created. The import runs in the school the user
 * acts in (the data provider's scope) or chooses here; afterwards the entity's lists, those of the records it may
 * have created (grades, classes) and the import log refresh.
 *
 * An import into a record chosen first (`ImportDecl.into`: bills into an activity, a column per fee item) asks for
 * that record before anything else, among those of its allowed states; the template, the check and the import then
 * name it, and its school is the import's.
 */
import { Alert, Button, Descriptions, Form, Grid, Modal, Progress, Result, Select, Space, Steps, Table, Typography, Upload } from "antd";
import type { UploadFile } from "antd";
import { DownloadOutlined, InboxOutlined, UploadOutlined } from "@ant-design/icons";
import { useEffect, useRef, useState } from "react";
import { useInvalidate, useTranslation } from "@refinedev/core";
import type { EntityDecl, FieldDecl, ImportDecl } from "../../common/catalogue";
import { importLogEntity } from "../../catalogue/imports";
import { refTitleKey } from "../../common/fieldRules";
import { hasAnyRole } from "../../common/roleKeys";
import { safeCell } from "../../common/spreadsheetCell";
import { entityByName } from "../../resources.config";
import { DEFAULT_API_PATH, scope } from "../../providers/dataProvider";
import { weapi } from "../../providers/weapi";
import { entityResources } from "./builtPages";
import { FieldControl, valueProps } from "./fields";
import { saveBlob, saveFile, type ExportFile } from "./files";

/** the largest file the server takes (server/engine/imports.ts MAX_IMPORT_BYTES) */
export const IMPORT_MAX_MB = 5;

export interface ImportRowError {
  row: number;
  field: string;
  message: string;
}

/** What the import operation answers in data.items (server/engine/imports.ts ImportAnswer). */
export interface ImportItems {
  log_id?: number;
  preview?: boolean;
  total: number;
  imported: number;
  error_count?: number;
  errors: ImportRowError[];
  /** referred records created (or, checked only, to be created), by reference field */
  creates?: { field: string; entity: string; titles: string[] }[];
  /** each choice column's accepted values */
  choices?: { field: string; values: string[] }[];
  /** the columns' labels, when they are no fields of the entity (an activity's fee items) */
  columns?: { field: string; label: string }[];
}

/** choose a file; read it; the server checks it; its preview; the server imports it; the outcome */
type Phase = "choose" | "reading" | "checking" | "preview" | "working" | "done";

interface Outcome {
  ok: boolean;
  message: string;
  items?: ImportItems;
}

/** The file's content as base64, reporting how much was read. */
export function readBase64(file: File, onProgress: (percent: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.onload = () => {
      const url = String(reader.result ?? "");
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.readAsDataURL(file);
  });
}

/** A CSV cell: a text never read as a formula (common/spreadsheetCell.ts), quoted when it holds a separator, a quote or a line break. */
function csvCell(value: string | number): string {
  const text = String(safeCell(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The overall progress: reading the file is the first fifth, the server's work creeps towards the end. */
function progressPercent(phase: Phase, readPercent: number, elapsedMs: number): number {
  if (phase === "reading") return Math.round(readPercent * 0.2);
  if (phase === "checking" || phase === "working") return Math.min(95, Math.round(20 + 75 * (1 - Math.exp(-elapsedMs / 6000))));
  return phase === "done" ? 100 : 0;
}

/** a record an import may go into, as its entity's list answers it */
interface IntoRecord {
  id: number;
  title: string;
  [field: string]: unknown;
}

/** Enough to choose from; typing narrows it on the server. */
const INTO_OPTION_LIMIT = 50;
const INTO_SEARCH_DELAY_MS = 300;

/**
 * The record an import goes into: its entity's records in the states the import allows (one list call per state),
 * searched by title, each named with its school and state.
 */
function IntoRecordSelect({ into, value, onChange }: { into: NonNullable<ImportDecl["into"]>; value?: IntoRecord; onChange: (record: IntoRecord | undefined) => void }) {
  const { translate } = useTranslation();
  const entity = entityByName(into.entity);
  const [search, setSearch] = useState("");
  const [records, setRecords] = useState<IntoRecord[]>([]);
  const [loading, setLoading] = useState(false);
  const stateField = entity?.fields.find((f) => f.name === entity.stateField);
  const states = into.states ?? [undefined];
  const statesKey = states.join(",");
  useEffect(() => {
    if (!entity) return;
    let live = true;
    const timer = setTimeout(() => {
      setLoading(true);
      const title = search.trim();
      const path = entity.apiPath ?? DEFAULT_API_PATH;
      Promise.all(
        states.map((state) =>
          weapi<{ items?: IntoRecord[] }>(path, `${entity.name}list`, {
            ...scope(),
            page: 1,
            limit: INTO_OPTION_LIMIT,
            ...(state && stateField ? { [stateField.name]: state } : {}),
            ...(title ? { [entity.titleField]: title } : {}),
          }).then((res) => (res.return_code === "SUCCESS" ? (res.data?.items ?? []) : [])),
        ),
      )
        .then((lists) => live && setRecords(lists.flat().sort((a, b) => Number(b.id) - Number(a.id))))
        .catch(() => undefined) // the client showed the error
        .finally(() => live && setLoading(false));
    }, search ? INTO_SEARCH_DELAY_MS : 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // statesKey stands for the states
  }, [entity, search, statesKey]);
  if (!entity) return null;
  const optionLabel = (record: IntoRecord) => {
    const school = record[refTitleKey("sch_id")];
    const state = stateField?.options?.find((o) => o.value === record[stateField.name]);
    return [String(record[entity.titleField] ?? record.title ?? record.id), school ? String(school) : "", state ? translate(state.label) : ""].filter(Boolean).join(" · ");
  };
  return (
    <Select<string>
      showSearch
      allowClear
      filterOption={false}
      loading={loading}
      placeholder={translate(entity.title)}
      value={value ? String(value.id) : undefined}
      onSearch={setSearch}
      onChange={(next) => {
        onChange(next ? (records.find((r) => String(r.id) === next) ?? value) : undefined);
        setSearch("");
      }}
      options={[...(value && !records.some((r) => r.id === value.id) ? [value] : []), ...records].map((r) => ({ value: String(r.id), label: optionLabel(r) }))}
      data-testid="import-into"
    />
  );
}

/** Who may run an import: its roles, else whoever may add the entity's records. */
export function mayImport(entity: EntityDecl, roles: readonly string[] | undefined): boolean {
  const decl = entity.import;
  return Boolean(decl) && hasAnyRole(roles ?? [], decl?.roles ?? entity.roles.add ?? []);
}

/**
 * The entity whose import a list offers: its own, or, on the import log narrowed to one entity's imports (the bill
 * imports' page), that entity's.
 */
export function listImport(entity: EntityDecl, fixedFilters: readonly (readonly [string, string])[]): EntityDecl | undefined {
  if (entity.import) return entity;
  if (entity.name !== importLogEntity.name) return undefined;
  const named = fixedFilters.find(([field]) => field === "entity")?.[1];
  const imported = named ? entityByName(named) : undefined;
  return imported?.import ? imported : undefined;
}

/** The dialog alone, for a page that opens it from a button of its own (an empty list's). */
export function ImportDialog({ entity, decl, onClose }: { entity: EntityDecl; decl: ImportDecl; onClose: () => void }) {
  const { translate } = useTranslation();
  const invalidate = useInvalidate();
  const [phase, setPhase] = useState<Phase>("choose");
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [readPercent, setReadPercent] = useState(0);
  const [startedAt, setStartedAt] = useState(0);
  const [now, setNow] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  /** the file as the server checked it and the school it was checked for, imported as they are when the user confirms */
  const [checked, setChecked] = useState<{ content: string; fileName: string; target: Record<string, unknown> } | null>(null);
  const [downloading, setDownloading] = useState(false);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  useEffect(() => {
    if (phase !== "working" && phase !== "checking") return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [phase]);

  const narrow = !Grid.useBreakpoint().sm;
  const path = entity.apiPath ?? DEFAULT_API_PATH;
  const busy = phase === "reading" || phase === "checking" || phase === "working";
  // an import into a chosen record (bills into an activity) goes into that record's school
  const into = decl.into;
  const intoEntity = into ? entityByName(into.entity) : undefined;
  const [intoRecord, setIntoRecord] = useState<IntoRecord | undefined>(undefined);
  // records are imported into one school: a provider working across its schools chooses it here
  const schoolField = scope().sch_id || into ? undefined : entity.fields.find((f) => f.name === "sch_id" && f.type === "ref");
  const [schoolForm] = Form.useForm();
  const chosenSchool = Form.useWatch("sch_id", schoolForm) as number | undefined;
  const target = () => ({ ...scope(), ...(schoolField && chosenSchool ? { sch_id: chosenSchool } : {}), ...(into && intoRecord ? { [into.field]: intoRecord.id } : {}) });
  const recordChosen = !into || Boolean(intoRecord);
  const ready = Boolean(file) && (!schoolField || Boolean(chosenSchool)) && recordChosen;
  const columns = decl.columns.map((name) => entity.fields.find((f) => f.name === name)).filter((f): f is FieldDecl => Boolean(f));
  const references = columns.filter((f) => f.type === "ref");
  const labelOf = (field: string) => {
    const column = outcome?.items?.columns?.find((c) => c.field === field);
    if (column) return column.label;
    const declared = entity.fields.find((f) => f.name === field);
    return declared ? translate(declared.label) : field;
  };

  const downloadTemplate = async () => {
    setDownloading(true);
    try {
      const res = await weapi<{ items?: ExportFile }>(path, decl.templateOperation, target());
      if (res.return_code === "SUCCESS" && res.data?.items) saveFile(res.data.items);
    } catch {
      // the client showed the error
    } finally {
      if (mounted.current) setDownloading(false);
    }
  };

  /** The lists the import may have changed: the entity's, the referred records' (created when missing) and the log. */
  const refresh = async () => {
    const changed = new Set([entity.name, importLogEntity.name, ...references.map((f) => f.ref?.entity ?? "")]);
    await Promise.all(
      entityResources()
        .filter((r) => changed.has(r.entity.name))
        .map((r) => invalidate({ resource: r.identifier, invalidates: ["resourceAll"] })),
    );
  };

  /** Sends the file: checked only (preview) or imported; answers what the dialog shows next. */
  const send = async ({ content, fileName, target: into }: { content: string; fileName: string; target: Record<string, unknown> }, preview: boolean): Promise<Outcome> => {
    const began = Date.now();
    setStartedAt(began);
    setNow(began);
    setPhase(preview ? "checking" : "working");
    try {
      // the dialog shows the answer itself: no toast beside it
      const payload = { ...into, filename: fileName, content_base64: content, ...(preview ? { preview: true } : {}) };
      const res = await weapi<{ items?: ImportItems }>(path, decl.operation, payload, { silent: true });
      return { ok: res.return_code === "SUCCESS", message: res.return_msg, items: res.data?.items };
    } catch (err) {
      return { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
  };

  /** Reads the chosen file and has the server check it, writing nothing. */
  const check = async () => {
    if (!file || !ready || busy) return;
    setOutcome(null);
    setReadPercent(0);
    setPhase("reading");
    let content: string;
    try {
      content = await readBase64(file, setReadPercent);
    } catch {
      if (!mounted.current) return;
      setOutcome({ ok: false, message: translate("import.not_xlsx") });
      setPhase("done");
      return;
    }
    if (!mounted.current) return;
    // the school chooser leaves the dialog with the preview: the school is kept with the file
    const sent = { content, fileName: file.name, target: target() };
    setChecked(sent);
    const result = await send(sent, true);
    if (!mounted.current) return;
    setOutcome(result);
    setPhase(result.ok ? "preview" : "done");
  };

  /** Imports the file the server checked. */
  const confirm = async () => {
    if (!checked || busy) return;
    const result = await send(checked, false);
    if (result.items) await refresh().catch(() => undefined);
    if (!mounted.current) return;
    setOutcome(result);
    setPhase("done");
  };

  const downloadErrors = () => {
    const errors = outcome?.items?.errors ?? [];
    const lines = [
      [translate("import.error_row"), translate("import.error_field"), translate("import.error_message")],
      ...errors.map((e) => [e.row || "", e.field ? labelOf(e.field) : "", e.message]),
    ].map((cells) => cells.map(csvCell).join(","));
    // a byte order mark: spreadsheet programs then read the file as UTF-8
    saveBlob(new Blob(["\uFEFF", `${lines.join("\r\n")}\r\n`], { type: "text/csv;charset=utf-8" }), `${translate("import.errors_file")}-${entity.name}.csv`);
  };

  const chooseAgain = () => {
    // the record chosen stays: another file for the same activity is the usual next step
    setFile(null);
    setChecked(null);
    setOutcome(null);
    setPhase("choose");
  };

  const fileList: UploadFile[] = file ? [{ uid: "chosen", name: file.name, size: file.size, status: "done" }] : [];
  const current = phase === "choose" ? 0 : phase === "reading" || phase === "checking" ? 1 : phase === "preview" ? 2 : phase === "working" ? 3 : outcome?.items?.preview ? 1 : 3;
  const errors = outcome?.items?.errors ?? [];
  const errorCount = outcome?.items?.error_count ?? errors.length;
  // why the check cannot start yet, said beside the button rather than left to a grey button
  const waitingFor =
    phase === "choose" && !busy
      ? !recordChosen
        ? translate("import.into.need_record", { label: translate(intoEntity?.title ?? "") })
        : schoolField && !chosenSchool
          ? translate("import.need_school")
          : !file
            ? translate("import.need_file")
            : null
      : null;
  const creates = (outcome?.items?.creates ?? []).filter((c) => c.titles.length > 0);
  const choices = outcome?.items?.choices ?? [];

  const footer = (
    <Space wrap style={{ justifyContent: "flex-end" }}>
      {waitingFor && (
        <Typography.Text type="secondary" data-testid="import-waiting">
          {waitingFor}
        </Typography.Text>
      )}
      {(phase === "done" || phase === "preview") && (
        <Button onClick={chooseAgain} data-testid="import-again">
          {translate("import.again")}
        </Button>
      )}
      <Button onClick={onClose} disabled={busy} data-testid="import-close">
        {translate("import.close")}
      </Button>
      {(phase === "choose" || phase === "reading" || phase === "checking") && (
        <Button type="primary" icon={<UploadOutlined />} disabled={!ready || busy} loading={busy} onClick={() => void check()} data-testid="import-start">
          {translate("import.start")}
        </Button>
      )}
      {(phase === "preview" || phase === "working") && (
        <Button type="primary" icon={<UploadOutlined />} disabled={busy} loading={busy} onClick={() => void confirm()} data-testid="import-confirm">
          {translate("import.confirm", { count: outcome?.items?.total ?? 0 })}
        </Button>
      )}
    </Space>
  );

  /** The grades and classes the import creates (or would create), named so that a typo shows. */
  const creationList = (
    <ul style={{ margin: 0, paddingInlineStart: 20 }}>
      {creates.map((c) => (
        <li key={c.field}>
          <Typography.Text strong>{labelOf(c.field)}</Typography.Text>
          {translate("import.colon")}
          {c.titles.join(translate("import.list_separator"))}
        </li>
      ))}
    </ul>
  );

  return (
    <Modal
      open
      title={translate("import.title", { entity: translate(entity.title) })}
      onCancel={() => !busy && onClose()}
      closable={!busy}
      maskClosable={false}
      keyboard={!busy}
      footer={footer}
      width={720}
      destroyOnHidden
    >
      <Steps
        size="small"
        // on a phone the four steps stay one compact row
        type={narrow ? "inline" : "default"}
        responsive={false}
        current={current}
        status={phase === "done" && outcome ? (outcome.ok ? "finish" : "error") : undefined}
        style={{ marginBottom: 16 }}
        items={[{ title: translate("import.step_file") }, { title: translate("import.step_check") }, { title: translate("import.step_preview") }, { title: translate("import.step_result") }]}
      />

      {phase === "choose" && (
        <Space direction="vertical" size="middle" style={{ width: "100%" }}>
          <Alert
            type="info"
            showIcon
            message={translate("import.all_or_nothing")}
            description={
              <>
                <div>{translate(decl.hint ?? "import.headers_hint")}</div>
                {references.length > 0 && <div>{translate("import.refs_hint", { fields: references.map((f) => translate(f.label)).join(" / ") })}</div>}
              </>
            }
          />
          {into && intoEntity && (
            <Form layout="vertical" data-testid="import-into-form">
              <Form.Item label={translate(intoEntity.title)} required style={{ marginBottom: 0 }}>
                <IntoRecordSelect into={into} value={intoRecord} onChange={setIntoRecord} />
              </Form.Item>
            </Form>
          )}
          {schoolField && (
            <Form form={schoolForm} layout="vertical" data-testid="import-school">
              <Form.Item name="sch_id" label={translate(schoolField.label)} required style={{ marginBottom: 0 }} {...valueProps(schoolField)}>
                <FieldControl field={schoolField} t={(key, options) => translate(key, options)} />
              </Form.Item>
            </Form>
          )}
          <Button icon={<DownloadOutlined />} loading={downloading} disabled={!recordChosen} onClick={() => void downloadTemplate()} data-testid="import-template">
            {translate("import.download_template")}
          </Button>
          <Upload.Dragger
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            multiple={false}
            maxCount={1}
            fileList={fileList}
            onRemove={() => {
              setFile(null);
              return true;
            }}
            beforeUpload={(chosen) => {
              if (!/\.xlsx$/i.test(chosen.name)) {
                setFileError(translate("import.not_xlsx"));
                setFile(null);
              } else if (chosen.size > IMPORT_MAX_MB * 1024 * 1024) {
                setFileError(translate("import.too_large", { max: IMPORT_MAX_MB }));
                setFile(null);
              } else {
                setFileError(null);
                setFile(chosen);
              }
              // kept in the page: the file is sent with the import, not uploaded on its own
              return false;
            }}
            data-testid="import-file"
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{translate("import.choose_file")}</p>
          </Upload.Dragger>
          {fileError && <Alert type="error" showIcon message={fileError} data-testid="import-file-error" />}
        </Space>
      )}

      {busy && (
        <div data-testid="import-progress" role="status" aria-live="polite" style={{ padding: "16px 0" }}>
          <Progress percent={progressPercent(phase, readPercent, now - startedAt)} status="active" />
          <Typography.Text type="secondary">
            {phase === "reading"
              ? translate("import.reading")
              : translate(phase === "checking" ? "import.checking" : "import.working", { seconds: Math.max(0, Math.floor((now - startedAt) / 1000)) })}
          </Typography.Text>
        </div>
      )}

      {phase === "preview" && outcome?.ok && (
        <Space direction="vertical" size="middle" style={{ width: "100%" }} data-testid="import-preview">
          <Alert type="success" showIcon message={outcome.message} description={translate("import.preview_hint")} />
          {creates.length > 0 && <Alert type="warning" showIcon message={translate("import.will_create")} description={creationList} data-testid="import-creates" />}
          {choices.length > 0 && (
            <Descriptions size="small" column={1} bordered title={translate("import.accepted_values")} data-testid="import-choices">
              {choices.map((c) => (
                <Descriptions.Item key={c.field} label={labelOf(c.field)}>
                  {c.values.join(translate("import.list_separator"))}
                </Descriptions.Item>
              ))}
            </Descriptions>
          )}
        </Space>
      )}

      {phase === "done" && outcome?.ok && (
        <div data-testid="import-result">
          <Result status="success" title={outcome.message} style={{ padding: "16px 0" }} />
          {creates.length > 0 && <Alert type="info" showIcon message={translate("import.created")} description={creationList} />}
        </div>
      )}

      {phase === "done" && outcome && !outcome.ok && (
        <Space direction="vertical" size="middle" style={{ width: "100%" }} data-testid="import-result">
          <Alert type="error" showIcon message={translate("import.failed_title")} description={outcome.message} />
          {errors.length > 0 && (
            <>
              <Space wrap style={{ justifyContent: "space-between", width: "100%" }}>
                {errorCount > errors.length ? <Typography.Text type="secondary">{translate("import.errors_more", { shown: errors.length, count: errorCount })}</Typography.Text> : <span />}
                <Button icon={<DownloadOutlined />} onClick={downloadErrors} data-testid="import-download-errors">
                  {translate("import.download_errors")}
                </Button>
              </Space>
              <Table<ImportRowError>
                size="small"
                data-testid="import-errors"
                rowKey={(e) => `${e.row}:${e.field}:${e.message}`}
                dataSource={errors}
                pagination={{ pageSize: 10, size: "small", showSizeChanger: false, hideOnSinglePage: true }}
                columns={[
                  { key: "row", dataIndex: "row", title: translate("import.error_row"), width: 64, render: (row: number) => row || "" },
                  { key: "field", dataIndex: "field", title: translate("import.error_field"), render: (field: string) => <span style={{ wordBreak: "keep-all" }}>{field ? labelOf(field) : ""}</span> },
                  { key: "message", dataIndex: "message", title: translate("import.error_message"), render: (message: string) => <span style={{ overflowWrap: "anywhere" }}>{message}</span> },
                ]}
              />
            </>
          )}
        </Space>
      )}
    </Modal>
  );
}

/** The Import button of a list whose entity declares `import` (shown to whoever may add its records). */
export function ImportButton({ entity }: { entity: EntityDecl }) {
  const { translate } = useTranslation();
  const [open, setOpen] = useState(false);
  const decl = entity.import;
  if (!decl) return null;
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="import-button">
        {translate("import.button")}
      </Button>
      {open && <ImportDialog entity={entity} decl={decl} onClose={() => setOpen(false)} />}
    </>
  );
}
