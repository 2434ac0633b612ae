/**
 * A time as the console shows it: China time whatever the browser's zone (common/businessTime.ts). Its tooltip
 * names the zone; where the reader's own clock reads the instant otherwise (a user abroad), a small "UTC+8"
 * follows it (drawn by the style sheet, so that the time's text stays the time).
 */
import { useTranslation } from "react-i18next";
import { BUSINESS_ZONE_LABEL, instantOf, readerOutsideBusinessZone, timeText } from "../../common/businessTime";

export function TimeText({ value, unit = "second", "data-testid": testId }: { value: unknown; unit?: "second" | "minute"; "data-testid"?: string }) {
  const { t } = useTranslation();
  const at = instantOf(value);
  if (!at) return <span data-testid={testId}>{timeText(value)}</span>;
  return (
    <time
      className="business-time"
      dateTime={at.toISOString()}
      title={t("common.china_time")}
      data-zone={readerOutsideBusinessZone(at) ? BUSINESS_ZONE_LABEL : undefined}
      data-testid={testId}
    >
      {timeText(at, unit)}
    </time>
  );
}
