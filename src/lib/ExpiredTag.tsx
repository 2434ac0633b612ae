/** The red "expired" tag beside the end of a term that has run out (a provider's or a school's). */
import { Tag } from "antd";
import { useTranslation } from "react-i18next";
import { businessDay, termExpired } from "../../common/term";

/** Nothing while the term runs (its last day is today or later, in the platform's business day). */
export function ExpiredTag({ endTime }: { endTime: string | null | undefined }) {
  const { t } = useTranslation();
  if (!termExpired(endTime, businessDay(new Date())) || !endTime) return null;
  return (
    <Tag color="red" data-testid="expired-tag" style={{ marginInlineEnd: 0 }}>
      {t("common.expired")}
    </Tag>
  );
}

/**
 * The last day of a term, followed by the tag once it is past. Where the column is narrow (a phone, a wide
 * table) the tag goes under the date rather than widening it.
 */
export function TermEnd({ day }: { day: string | null | undefined }) {
  return (
    <span style={{ display: "inline-flex", flexWrap: "wrap", alignItems: "center", gap: "4px 8px" }}>
      <span style={{ whiteSpace: "nowrap" }}>{day ?? ""}</span>
      <ExpiredTag endTime={day} />
    </span>
  );
}
