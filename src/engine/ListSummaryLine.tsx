/**
 * The summary of a list's money fields over its whole filter (the list's `data.summary`), shown under its rows:
 * how many records the filter matches, each summed field's total and its sums over some states (an order list's
 * money received), in the user's language.
 */
import { Space, Typography } from "antd";
import type { EntityDecl } from "../../common/catalogue";
import { formatNumber, formatYuan } from "../../common/money";
import type { ListSummary } from "../../common/listAnswer";
import type { Translate } from "./fields";

interface Props {
  entity: EntityDecl;
  summary: ListSummary;
  t: Translate;
  language: string;
}

export function ListSummaryLine({ entity, summary, t, language }: Props) {
  const fields = (entity.summary ?? []).map((name) => entity.fields.find((f) => f.name === name)).filter((f) => f !== undefined);
  return (
    <Space size={[16, 4]} wrap data-testid="list-summary">
      <Typography.Text type="secondary">{t("crud.summary_of", { count: summary.count, formatted: formatNumber(summary.count, language) })}</Typography.Text>
      {[...fields, ...(entity.summaryInStates ?? [])].map(({ name, label }) => (
        <span key={name} data-testid={`list-summary-${name}`}>
          <Typography.Text type="secondary">{t(label)} </Typography.Text>
          <Typography.Text strong>{formatYuan(summary[name] ?? 0, language)}</Typography.Text>
        </span>
      ))}
    </Space>
  );
}
