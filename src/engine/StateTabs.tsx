/**
 * The tabs of a list whose entity has states: "All" and one per state, each with its count of records under the
 * list's other filters (the list's `data.tabs`). Choosing one sets the list's state filter, which the URL keeps
 * with the others.
 */
import { Tabs, theme } from "antd";
import type { FieldDecl } from "../../common/catalogue";
import type { ListTabs } from "../../common/listAnswer";
import { formatNumber } from "../../common/money";
import type { Translate } from "./fields";

/** the key of the tab of every state */
export const ALL_STATES = "__all";

interface Props {
  field: FieldDecl;
  /** the counts of the last answer; unknown before the first */
  counts: ListTabs | undefined;
  /** the state chosen, ALL_STATES for none */
  value: string;
  onChange: (value: string) => void;
  t: Translate;
  /** the user's language, for the counts' digits */
  language: string;
  /** a phone: smaller tabs */
  small?: boolean;
}

function Count({ value, active, language }: { value: number | undefined; active: boolean; language: string }) {
  const { token } = theme.useToken();
  if (value === undefined) return null;
  return (
    <span
      data-testid="state-tab-count"
      style={{
        marginInlineStart: 6,
        padding: "0 7px",
        borderRadius: 10,
        fontSize: token.fontSizeSM,
        lineHeight: "18px",
        display: "inline-block",
        background: active ? token.colorPrimaryBg : token.colorFillSecondary,
        color: active ? token.colorPrimary : token.colorTextSecondary,
      }}
    >
      {formatNumber(value, language)}
    </span>
  );
}

export function StateTabs({ field, counts, value, onChange, t, language, small }: Props) {
  const countOf = (state: string) => counts?.states.find((s) => s.value === state)?.count;
  const items = [
    { key: ALL_STATES, label: t("crud.tab_all"), count: counts?.total },
    ...(field.options ?? []).map((option) => ({ key: option.value, label: t(option.label), count: countOf(option.value) })),
  ];
  return (
    <Tabs
      activeKey={value}
      onChange={onChange}
      size={small ? "small" : "middle"}
      // a phone fits more states on its line before the rest fold into the menu
      tabBarGutter={small ? 16 : undefined}
      style={{ marginBottom: small ? 4 : 8 }}
      data-testid="state-tabs"
      items={items.map((item) => ({
        key: item.key,
        label: (
          <span data-testid={`state-tab-${item.key}`}>
            {item.label}
            <Count value={item.count} active={item.key === value} language={language} />
          </span>
        ),
      }))}
    />
  );
}
