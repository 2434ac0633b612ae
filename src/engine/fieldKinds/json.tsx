/**
 * A document only the server writes (server/engine/fieldKinds/lists.ts jsonKind: an audit entry's change), shown
 * as its keys and values, one a line; never edited.
 */
import { Typography } from "antd";
import type { UiFieldKind } from "./kind";
import { WRAPS } from "./kind";

function valueText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(valueText).join(", ");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function JsonFacts({ value }: { value: unknown }) {
  if (value === null || value === undefined || typeof value !== "object" || Array.isArray(value)) return <>{valueText(value)}</>;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <>-</>;
  return (
    <div style={{ fontSize: "0.92em", lineHeight: 1.5 }}>
      {entries.map(([key, v]) => (
        <div key={key}>
          <Typography.Text type="secondary">{key}</Typography.Text> {valueText(v)}
        </div>
      ))}
    </div>
  );
}

export const jsonKind: UiFieldKind = {
  Control: ({ value }) => <JsonFacts value={value} />,
  display: (_field, value) => <JsonFacts value={value} />,
  cellStyle: { ...WRAPS, maxWidth: 360, overflowWrap: "anywhere" },
};
