/** Generic detail page of a catalogue entity: the detail fields of one record, its actions and the way to edit it. */
import { Button, Card, Descriptions, Space, Spin } from "antd";
import { EditOutlined, RollbackOutlined } from "@ant-design/icons";
import { useShow, useBack, useGo, usePermissions, useTranslation, type BaseRecord, type HttpError } from "@refinedev/core";
import { fieldSeenBy } from "../../common/fieldRules";
import { Fragment } from "react";
import { useParams } from "react-router";
import { displayValue, type Translate } from "./fields";
import { RecordUnavailable } from "./LoadFailed";
import { ChildRowsTable, RelatedRecords } from "./ChildRecords";
import { ActionButton, actionAllowed, editAllowed, useEntityActions, withActionRunner } from "./EntityActions";
import { recordPath, resourceByIdentifier, useEntityAbility } from "./resources";
import { currentTabs } from "../shell/tabs";
import { useRecordTools } from "./RecordTools";
import { offeredOn, useLinkedPages } from "./linkedPages";
import { RecordTimeline } from "./Timeline";

function CrudShow({ resource }: { resource: string }) {
  const { entity, pages } = resourceByIdentifier(resource);
  const { translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const may = useEntityAbility(entity);
  const { data: roles } = usePermissions<string[]>({});
  const back = useBack();
  const go = useGo();
  const { id } = useParams();
  // the weapi client has already shown a failure's message
  const { query, result } = useShow<BaseRecord, HttpError>({ resource, id, errorNotification: false });
  const edit = pages.edit && may("edit") && editAllowed(entity, result) ? pages.edit : undefined;
  const actions = useEntityActions(entity).filter((action) => result && actionAllowed(entity, action, result));
  const tools = useRecordTools(entity);
  // the pages a row of the list opens (a paid order's voucher), offered here too
  const recordPages = useLinkedPages(pages.list, entity).recordPages.filter((page) => offeredOn(page, result));
  // back to the list as its tab left it (page, filters, sort, tab), even after a reload of this page
  const toList = () => {
    const list = pages.list?.route;
    if (list) go({ to: currentTabs().find((tab) => tab.key === list)?.path ?? list });
    else back();
  };

  return (
    <Card
      title={translate(pages.info?.entry.title ?? entity.title)}
      extra={
        <Space wrap>
          {!query.isError && result && tools.buttonsOf(result).map((tool) => <Fragment key={tool.key}>{tool.node}</Fragment>)}
          {!query.isError && result && actions.map((action) => <ActionButton key={action.name} entity={entity} action={action} record={result} />)}
          {!query.isError &&
            recordPages.map((page) => (
              <Button key={page.route} data-testid={`show-${page.entry.name}`} onClick={() => go({ to: recordPath(page.route, id) })}>
                {translate(page.entry.title)}
              </Button>
            ))}
          {edit && !query.isError && (
            <Button type="primary" icon={<EditOutlined />} onClick={() => go({ to: recordPath(edit.route, id) })}>
              {translate("crud.edit")}
            </Button>
          )}
          <Button icon={<RollbackOutlined />} onClick={toList}>
            {translate("crud.back")}
          </Button>
        </Space>
      }
    >
      {query.isError ? (
        <RecordUnavailable error={query.error} entityTitle={entity.title} onRetry={() => void query.refetch()} onBack={toList} />
      ) : (
        <Spin spinning={query.isLoading}>
          <Descriptions bordered column={1} size="middle">
            {entity.fields
              .filter((f) => f.detail && fieldSeenBy(f, roles))
              .map((f) => (
                <Descriptions.Item key={f.name} label={translate(f.label)}>
                  {displayValue(f, result?.[f.name], t, result)}
                </Descriptions.Item>
              ))}
          </Descriptions>
          {(entity.children ?? []).map((decl) => (
            <ChildRowsTable key={decl.name} decl={decl} rows={result?.[decl.name] as BaseRecord[] | undefined} />
          ))}
          {id && (entity.related ?? []).map((decl) => {
            const value = decl.key ? result?.[decl.key] : id;
            return value === undefined || value === null ? null : <RelatedRecords key={decl.entity} decl={decl} value={value as string | number} />;
          })}
          <RecordTimeline entity={entity} entries={result?.timeline} t={t} />
        </Spin>
      )}
      {tools.dialog}
    </Card>
  );
}

export default withActionRunner(CrudShow);
