/**
 * A record's declared actions (common/catalogue.ts ActionDecl) and deleting it: a button per action the
 * record's state and the user's roles allow (on its row and its detail page), a confirmation or a small form
 * (an amount, a reason, a new password) sent with the record's id (or key), and the bar of a selection's actions,
 * which calls the action for each selected row and says how each went. The server checks the same again.
 */
import { Alert, App as AntdApp, Button, Form, List, Modal, Popconfirm, Space, Spin, Typography } from "antd";
import { CheckCircleTwoTone, CloseCircleTwoTone, DeleteOutlined } from "@ant-design/icons";
import { createContext, Suspense, useContext, useState, type ComponentType, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { useCustomMutation, useDelete, usePermissions, useTranslation, type BaseRecord, type HttpError } from "@refinedev/core";
import type { ActionDecl, EntityDecl } from "../../common/catalogue";
import { refTitleKey } from "../../common/fieldRules";
import { fenToYuan, yuanToFen } from "../../common/money";
import { reachableEntries } from "../../common/menu";
import { hasAnyRole } from "../../common/roleKeys";
import { DEFAULT_API_PATH, scope, type CustomAnswer } from "../../providers/dataProvider";
import { feedback } from "../../providers/feedback";
import { entryPattern } from "../../providers/accessControl";
import { weapi } from "../../providers/weapi";
import { menus } from "../../resources.config";
import { actionContexts } from "../domains";
import { submitOnlyByButton } from "../lib/forms";
import { useGuardedDialog } from "../shell/unsavedChanges";
import { FieldControl, fieldRules, valueProps, type Translate } from "./fields";
import { useAnsweredOnce } from "./AnsweredOnce";
import { ShownWhen } from "./RecordFields";
import { recordPath } from "./resources";
import { useRefreshEntities } from "./useDeclaredOperation";

/**
 * The entity's actions the user's roles allow (whatever the record's state) that its records offer: an action a list
 * tool calls (`tool`: a code scanned into an order's item) is that tool's alone.
 */
export function useEntityActions(entity: EntityDecl): ActionDecl[] {
  const { data: roles } = usePermissions<string[]>({});
  return roles ? (entity.actions ?? []).filter((action) => !action.tool && hasAnyRole(roles, action.roles)) : [];
}

/** The payload naming the record to the action: its id (under `idField` if declared), or its `key`'s value. */
function recordNaming(action: ActionDecl, record: BaseRecord): Record<string, unknown> {
  return action.key ? { [action.key]: record[action.key] } : { [action.idField ?? "id"]: record.id };
}

/** Whether the record's state, and its fields the action names in `onlyWhere`, allow the action. */
export function actionAllowed(entity: EntityDecl, action: ActionDecl, record: BaseRecord): boolean {
  const stateAllows = !action.from || !entity.stateField || action.from.includes(String(record[entity.stateField]));
  return stateAllows && Object.entries(action.onlyWhere ?? {}).every(([field, allowed]) => allowed.includes(String(record[field] ?? "")));
}

/** Whether the record's state allows editing it (a channel only while draft or rejected). */
export function editAllowed(entity: EntityDecl, record: BaseRecord | undefined): boolean {
  if (!entity.editableIn || !entity.stateField) return true;
  return record !== undefined && entity.editableIn.includes(String(record[entity.stateField]));
}

/** The entities whose lists and records an action changes: its own, the one it makes, those it declares. */
function changedBy(entity: EntityDecl, action: ActionDecl): string[] {
  return [entity.name, ...(action.creates ? [action.creates] : []), ...(action.refreshes ?? [])];
}

/** The record page (kind info) of one record the role keys reach, with the related list of `related` in `state` asked for. */
function relatedRoute(entity: EntityDecl, id: unknown, roles: readonly string[], related: string, state: string): string | undefined {
  const found = reachableEntries(menus, roles).find(({ entry }) => entry.page?.kind === "info" && entry.page.entity === entity.name && entry.params?.includes(":id"));
  return found ? `${recordPath(entryPattern(found.group, found.entry), id)}#${relatedAnchor(related, state)}` : undefined;
}

/** The address fragment asking a record page for its related list of an entity, on the tab of a state. */
export function relatedAnchor(related: string, state: string): string {
  return `related-${related}-${state}`;
}

/** A record's label in a dialog or a result: its title field (a reference's name), else its id. */
function recordLabel(entity: EntityDecl, record: BaseRecord): string {
  const titleIsRef = entity.fields.some((f) => f.name === entity.titleField && f.type === "ref");
  return String((titleIsRef ? record[refTitleKey(entity.titleField)] : record[entity.titleField]) ?? record.id);
}

interface ActionProps {
  entity: EntityDecl;
  action: ActionDecl;
  record: BaseRecord;
  /** after the action succeeded (a page's own figures to read again) */
  onDone?: () => void;
}

/** Runs a record's action and says how it went (ActionRunnerProvider); one per page, shared by its rows' buttons. */
interface ActionRunner {
  run(props: ActionProps, values?: Record<string, unknown>): Promise<boolean>;
  /** deletes the record of the resource, saying so when done (a refusal is the server's message) */
  remove(resource: string, record: BaseRecord): void;
  /** the records (`action:id`, `delete:id`) whose action is under way */
  running: ReadonlySet<string>;
}

const ActionRunnerContext = createContext<ActionRunner | null>(null);

const runningKey = ({ action, record }: ActionProps) => `${action.name}:${String(record.id)}`;
const deletingKey = (record: BaseRecord) => `delete:${String(record.id)}`;

/**
 * Calls an action with the record's id (and the form's values) through the data provider's `custom`, shows the
 * server's answer, and refreshes the entity's lists and records. A page holding records' action buttons provides it
 * once (withActionRunner): refine's mutation, invalidation and permission hooks each match the address against
 * every resource, which repeated for each button of each row took a list of twenty rows a tenth of a second.
 */
function ActionRunnerProvider({ children }: { children: ReactNode }) {
  const { mutateAsync } = useCustomMutation<BaseRecord, HttpError, Record<string, unknown>>();
  const { mutate: mutateDelete } = useDelete();
  const refresh = useRefreshEntities();
  const { message } = AntdApp.useApp();
  const showAnsweredOnce = useAnsweredOnce();
  const navigate = useNavigate();
  const { data: roles } = usePermissions<string[]>({});
  const { translate } = useTranslation();
  const [running, setRunning] = useState<ReadonlySet<string>>(new Set());
  const mark = (key: string, on: boolean) =>
    setRunning((keys) => {
      const next = new Set(keys);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  const run = async (props: ActionProps, values: Record<string, unknown> = {}): Promise<boolean> => {
    const { entity, action, record, onDone } = props;
    const key = runningKey(props);
    let answer: CustomAnswer<BaseRecord>;
    mark(key, true);
    try {
      answer = (await mutateAsync({
        url: action.name,
        method: "post",
        // in the tenant the user acts in, as every list call is
        values: { ...scope(), ...values, ...recordNaming(action, record) },
        successNotification: false,
        errorNotification: false,
      })) as CustomAnswer<BaseRecord>;
    } catch {
      // the weapi client showed the server's message
      return false;
    } finally {
      mark(key, false);
    }
    // what the answer's record asks to look at (a reconciled day's differences): the message leads there
    const link = action.answerLink;
    const target = link && Number((answer.data as BaseRecord | undefined)?.[link.when] ?? 0) > 0 ? relatedRoute(entity, record.id, roles ?? [], link.related, link.state) : undefined;
    if (link && target) {
      const messageKey = `answer-${action.name}-${String(record.id)}`;
      void message.success({
        key: messageKey,
        duration: 10,
        content: (
          <span data-testid={`answer-${action.name}`}>
            {answer.message}{" "}
            <a
              href={target}
              data-testid={`answer-link-${action.name}`}
              onClick={(e) => {
                e.preventDefault();
                message.destroy(messageKey);
                navigate(target);
              }}
            >
              {translate(link.label)}
            </a>
          </span>
        ),
      });
    } else feedback().success(answer.message);
    void showAnsweredOnce(entity, answer.data as BaseRecord | undefined);
    await refresh(changedBy(entity, action));
    onDone?.();
    return true;
  };
  const remove = (resource: string, record: BaseRecord) => {
    const key = deletingKey(record);
    mark(key, true);
    mutateDelete(
      { resource, id: record.id!, successNotification: false, errorNotification: false },
      { onSuccess: () => feedback().success(translate("crud.deleted")), onSettled: () => mark(key, false) },
    );
  };
  return <ActionRunnerContext.Provider value={{ run, remove, running }}>{children}</ActionRunnerContext.Provider>;
}

/** The page component with one action runner for every action button it shows (ActionRunnerProvider). */
export function withActionRunner<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  const WithActionRunner = (props: P) => (
    <ActionRunnerProvider>
      <Page {...props} />
    </ActionRunnerProvider>
  );
  WithActionRunner.displayName = `WithActionRunner(${Page.displayName ?? Page.name})`;
  return WithActionRunner;
}

function useActionRunner(what: string): ActionRunner {
  const runner = useContext(ActionRunnerContext);
  if (!runner) throw new Error(`${what}: an action button needs its page wrapped in withActionRunner`);
  return runner;
}

/** This record's action through the page's runner: `run` with the form's values, and whether it is under way. */
function useActionCall(props: ActionProps) {
  const runner = useActionRunner(props.action.name);
  return { run: (values?: Record<string, unknown>) => runner.run(props, values), running: runner.running.has(runningKey(props)) };
}

/**
 * The action as the record's state makes it: its label, and the fields left to ask (those the state does not
 * give, e.g. an activity's `act`, "open" from a draft).
 */
export function actionInState(entity: EntityDecl, action: ActionDecl, record: BaseRecord): { label: string; values: Readonly<Record<string, string>>; asks: boolean } {
  const state = entity.stateField ? action.byState?.[String(record[entity.stateField])] : undefined;
  const values = state?.values ?? {};
  return { label: state?.label ?? action.label, values, asks: (action.fields ?? []).some((f) => values[f.name] === undefined) };
}

/** The action's button: a confirmation, or a dialog asking for its fields. */
export function ActionButton(props: ActionProps) {
  const { translate } = useTranslation();
  const { action, entity, record } = props;
  const { run, running } = useActionCall(props);
  const { label, values, asks } = actionInState(entity, action, record);
  if (asks) return <ActionForm {...props} />;
  return (
    <Popconfirm
      title={translate(action.confirm)}
      okText={translate("common.confirm")}
      cancelText={translate("common.cancel")}
      okButtonProps={{ danger: action.danger }}
      onConfirm={() => run(values)}
    >
      <Button size="small" danger={action.danger} loading={running} data-testid={`row-${action.name}`}>
        {translate(label)}
      </Button>
    </Popconfirm>
  );
}

/** The values an action's form starts with: its money fields declared `prefill`, from the record (never below 0). */
export function prefilledValues(action: ActionDecl, record: BaseRecord | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  // a choice the action declares a default of starts chosen (a new provider's version)
  for (const field of action.fields ?? []) if (field.default !== undefined) values[field.name] = String(field.default);
  if (!record) return values;
  for (const field of action.fields ?? []) {
    if (!field.prefill) continue;
    const from = yuanToFen(String(record[field.prefill.field] ?? ""));
    const less = field.prefill.less ? yuanToFen(String(record[field.prefill.less] ?? "0")) : 0;
    if (from !== null && less !== null && from - less > 0) values[field.name] = fenToYuan(from - less);
  }
  return values;
}

/** The form of an action's fields, in a dialog that says what it will do (one record's: filled in from it). */
function ActionFieldsDialog({
  action,
  record,
  title,
  running,
  onSubmit,
  onClose,
}: {
  action: ActionDecl;
  record?: BaseRecord;
  title: string;
  running: boolean;
  onSubmit: (values: Record<string, unknown>) => Promise<boolean>;
  onClose: () => void;
}) {
  const { translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const [form] = Form.useForm();
  const submit = async () => {
    const values = (await form.validateFields()) as Record<string, unknown>;
    if (await onSubmit(values)) onClose();
  };
  // closed with values changed (its X, Esc, the mask, Cancel): asked first
  const guard = useGuardedDialog(true, onClose);
  return (
    <Modal
      open
      title={title}
      okText={translate("common.confirm")}
      cancelText={translate("common.cancel")}
      okButtonProps={{ danger: action.danger }}
      confirmLoading={running}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={guard.onCancel}
      destroyOnHidden
    >
      <p>{translate(action.confirm)}</p>
      {record && action.context && <ActionContext id={action.context} record={record} />}
      <Form form={form} layout="vertical" onKeyDown={submitOnlyByButton} onValuesChange={guard.markChanged} preserve={false} initialValues={prefilledValues(action, record)} data-testid={`row-form-${action.name}`}>
        {action.fields!.map((f) => {
          const item = (
            <Form.Item key={f.name} name={f.name} label={translate(f.label)} rules={fieldRules(f, t)} {...valueProps(f)}>
              <FieldControl field={f} t={t} />
            </Form.Item>
          );
          // a field for one decision only (a rejection's reason) shows with it
          return f.formWhen ? <ShownWhen key={f.name} when={f.formWhen} item={item} /> : item;
        })}
      </Form>
    </Modal>
  );
}

/** What one record's decision is about (the action's `context`), loaded with the dialog. */
function ActionContext({ id, record }: { id: string; record: BaseRecord }) {
  const View = actionContexts[id];
  if (!View) throw new Error(`no action context ${id}`);
  return (
    <Suspense fallback={<Spin style={{ display: "block", margin: "8px auto" }} />}>
      <View record={record} />
    </Suspense>
  );
}

function ActionForm(props: ActionProps) {
  const { action, record, entity } = props;
  const { translate } = useTranslation();
  const [open, setOpen] = useState(false);
  const { run, running } = useActionCall(props);
  return (
    <>
      <Button size="small" danger={action.danger} data-testid={`row-${action.name}`} onClick={() => setOpen(true)}>
        {translate(action.label)}
      </Button>
      {open && <ActionFieldsDialog action={action} record={record} title={`${translate(action.label)}: ${recordLabel(entity, record)}`} running={running} onSubmit={run} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The outcome of an action on one row of a selection. */
interface RowOutcome {
  id: BaseRecord["id"];
  label: string;
  ok: boolean;
  message: string;
}

/**
 * The actions a selection may take (those declared `bulk`), each applied to the selected rows its state allows,
 * one call per row in turn; the dialog then lists each row's outcome in the server's words.
 */
export function BulkActionBar({ entity, actions, selected, onDone }: { entity: EntityDecl; actions: ActionDecl[]; selected: BaseRecord[]; onDone: () => void }) {
  const { translate } = useTranslation();
  const refresh = useRefreshEntities();
  const [asking, setAsking] = useState<ActionDecl>();
  const [running, setRunning] = useState(false);
  const [outcomes, setOutcomes] = useState<{ action: ActionDecl; rows: RowOutcome[] }>();
  const apply = async (action: ActionDecl, values: Record<string, unknown> = {}): Promise<boolean> => {
    setRunning(true);
    const rows: RowOutcome[] = [];
    try {
      for (const record of selected) {
        const label = recordLabel(entity, record);
        if (!actionAllowed(entity, action, record)) {
          rows.push({ id: record.id, label, ok: false, message: translate("crud.bulk_skipped") });
          continue;
        }
        try {
          const res = await weapi(entity.apiPath ?? DEFAULT_API_PATH, action.name, { ...scope(), ...values, ...recordNaming(action, record) }, { silent: true });
          rows.push({ id: record.id, label, ok: res.return_code === "SUCCESS", message: res.return_msg });
        } catch (err) {
          rows.push({ id: record.id, label, ok: false, message: err instanceof Error ? err.message : String(err) });
        }
      }
    } finally {
      setRunning(false);
    }
    setOutcomes({ action, rows });
    await refresh(changedBy(entity, action));
    onDone();
    return true;
  };
  if (actions.length === 0) return null;
  return (
    <>
      {/* the outcome's dialog below outlives the selection it was run on, cleared once done */}
      {selected.length > 0 && (
        <Alert
          type="info"
          data-testid="bulk-bar"
          style={{ marginBottom: 12 }}
          message={
            <Space wrap>
              <span>{translate("crud.selected", { count: selected.length })}</span>
              {actions.map((action) => {
                const allowed = selected.filter((record) => actionAllowed(entity, action, record)).length;
                const button = (
                  <Button size="small" danger={action.danger} loading={running} disabled={allowed === 0} data-testid={`bulk-${action.name}`} onClick={action.fields?.length ? () => setAsking(action) : undefined}>
                    {translate(action.label)} ({allowed})
                  </Button>
                );
                return action.fields?.length ? (
                  <span key={action.name}>{button}</span>
                ) : (
                  <Popconfirm
                    key={action.name}
                    title={translate("crud.bulk_confirm", { action: translate(action.label), count: allowed })}
                    okText={translate("common.confirm")}
                    cancelText={translate("common.cancel")}
                    okButtonProps={{ danger: action.danger }}
                    onConfirm={() => apply(action)}
                  >
                    {button}
                  </Popconfirm>
                );
              })}
              <Button size="small" type="link" onClick={onDone}>
                {translate("crud.clear_selection")}
              </Button>
            </Space>
          }
        />
      )}
      {asking && (
        <ActionFieldsDialog
          action={asking}
          title={translate("crud.bulk_title", { action: translate(asking.label), count: selected.filter((record) => actionAllowed(entity, asking, record)).length })}
          running={running}
          onSubmit={(values) => apply(asking, values)}
          onClose={() => setAsking(undefined)}
        />
      )}
      {outcomes && (
        <Modal
          open
          title={translate("crud.bulk_result", {
            action: translate(outcomes.action.label),
            done: outcomes.rows.filter((row) => row.ok).length,
            count: outcomes.rows.length,
          })}
          footer={<Button onClick={() => setOutcomes(undefined)}>{translate("common.close")}</Button>}
          onCancel={() => setOutcomes(undefined)}
          data-testid="bulk-result"
        >
          <List
            size="small"
            dataSource={outcomes.rows}
            renderItem={(row) => (
              <List.Item key={String(row.id)}>
                <Space align="start">
                  {row.ok ? <CheckCircleTwoTone twoToneColor="#52c41a" /> : <CloseCircleTwoTone twoToneColor="#ff4d4f" />}
                  <span>
                    <Typography.Text strong>{row.label}</Typography.Text> {row.message}
                  </span>
                </Space>
              </List.Item>
            )}
          />
        </Modal>
      )}
    </>
  );
}

/** Deletes the record after a confirmation; a refusal (records still belong to it) is the server's message. */
export function DeleteButton({ resource, record }: { resource: string; record: BaseRecord }) {
  const { translate } = useTranslation();
  const runner = useActionRunner("delete");
  return (
    <Popconfirm
      title={translate("crud.delete_confirm")}
      okText={translate("common.confirm")}
      cancelText={translate("common.cancel")}
      okButtonProps={{ danger: true }}
      onConfirm={() => runner.remove(resource, record)}
    >
      <Button size="small" danger icon={<DeleteOutlined />} loading={runner.running.has(deletingKey(record))} data-testid={`row-delete-${String(record.id)}`}>
        {translate("crud.delete")}
      </Button>
    </Popconfirm>
  );
}
