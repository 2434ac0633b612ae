/**
 * A record's timeline on its detail page (EntityDecl.timeline, server/engine/timeline.ts): each event's text from the
 * entity's template, in the reader's language, with who, when and the states it moved between.
 */
import { Card, Timeline, Typography } from "antd";
import type { EntityDecl } from "../../common/catalogue";
import type { TimelineEntry } from "../../common/timeline";
import { displayValue, type Translate } from "./fields";

const AT_FIELD = { name: "at", type: "datetime", label: "" } as const;

export function RecordTimeline({ entity, entries, t }: { entity: EntityDecl; entries: unknown; t: Translate }) {
  if (!entity.timeline || !Array.isArray(entries) || entries.length === 0) return null;
  const states = entity.fields.find((f) => f.name === entity.stateField)?.options ?? [];
  const stateText = (value: string | null) => {
    const option = states.find((o) => o.value === value);
    return option ? t(option.label) : (value ?? "");
  };
  // an action's choice (an express company) is shown by its option's label
  const paramText = (entry: TimelineEntry) => {
    const fields = entity.actions?.find((a) => a.name === entry.event)?.fields ?? [];
    return Object.fromEntries(
      Object.entries(entry.params).map(([key, value]) => {
        const option = fields.find((f) => f.name === key)?.options?.find((o) => o.value === String(value));
        return [key, option ? t(option.label) : value];
      }),
    );
  };
  return (
    <Card size="small" title={t("crud.timeline")} style={{ marginTop: 16 }} data-testid="record-timeline">
      <Timeline
        items={(entries as TimelineEntry[]).map((entry, i) => ({
          key: i,
          children: (
            <>
              <div>{t(entity.timeline![entry.event] ?? entry.event, { ...paramText(entry), who: entry.who, from: stateText(entry.from), to: stateText(entry.to) })}</div>
              <Typography.Text type="secondary">{displayValue(AT_FIELD, entry.at, t)}</Typography.Text>
            </>
          ),
        }))}
      />
    </Card>
  );
}
