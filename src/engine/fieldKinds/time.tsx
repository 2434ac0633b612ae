/**
 * Time kinds: a calendar day (date) and an instant (datetime). Dates stay YYYY-MM-DD strings in form values
 * while the picker works with dayjs; range filters on either are chosen by day (the server reads a day of a time
 * range as the whole business day) and kept as [start, end] strings so they survive the URL round trip. The last
 * day of a term (`termEnd`) is flagged once it is past.
 */
import { DatePicker } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useTranslation } from "react-i18next";
import type { FieldDecl } from "../../../common/catalogue";
import { businessDay } from "../../../common/term";
import { TermEnd } from "../../lib/ExpiredTag";
import { TimeText } from "../../lib/TimeText";
import { NO_BREAK, type ControlProps, type UiFieldKind, type ValueProps } from "./kind";

export const DATE_FORMAT = "YYYY-MM-DD";

/** Ranges a person asks for most: today, the last seven days, this month (days of the business calendar). */
function dayRangePresets(t: (key: string) => string): { label: string; value: [Dayjs, Dayjs] }[] {
  const today = dayjs(businessDay(new Date()), DATE_FORMAT);
  return [
    { label: t("crud.range.today"), value: [today.startOf("day"), today.startOf("day")] },
    { label: t("crud.range.week"), value: [today.subtract(6, "day").startOf("day"), today.startOf("day")] },
    { label: t("crud.range.month"), value: [today.startOf("month"), today.startOf("day")] },
  ];
}

function DayRange({ block, value, onChange, id }: ControlProps) {
  const { t } = useTranslation();
  return (
    <DatePicker.RangePicker
      id={id}
      presets={dayRangePresets(t)}
      value={value as [Dayjs | null, Dayjs | null] | undefined}
      onChange={(v) => onChange?.(v)}
      format={DATE_FORMAT}
      allowEmpty={[true, true]}
      // an empty bound is no bound: said so, rather than asking for a date
      placeholder={[t("crud.range_any_start"), t("crud.range_any_end")]}
      style={block ? { width: "100%" } : undefined}
    />
  );
}

function dayRangeProps(field: FieldDecl): ValueProps {
  if (field.filter !== "range") return {};
  return {
    getValueProps: (value: unknown) => ({
      value: Array.isArray(value) ? value.map((v) => (typeof v === "string" && v ? dayjs(v, DATE_FORMAT) : null)) : undefined,
    }),
    normalize: (value: (Dayjs | null)[] | null) => (value ? value.map((d) => (d ? d.format(DATE_FORMAT) : "")) : undefined),
  };
}

export const dateKind: UiFieldKind = {
  Control: ({ value, onChange, block: _block, field: _field, t: _t, ...rest }) => (
    <DatePicker {...rest} value={value as Dayjs | undefined} onChange={(v) => onChange?.(v)} format={DATE_FORMAT} style={{ width: "100%" }} />
  ),
  valueProps: () => ({
    getValueProps: (value: unknown) => ({ value: typeof value === "string" && value ? dayjs(value, DATE_FORMAT) : undefined }),
    normalize: (value: Dayjs | null) => (value ? value.format(DATE_FORMAT) : undefined),
  }),
  display: (field, value) => (field.termEnd ? <TermEnd day={String(value)} /> : String(value)),
  cellStyle: NO_BREAK,
  picked: true,
  Filter: DayRange,
  filterValueProps: dayRangeProps,
};

export const datetimeKind: UiFieldKind = {
  ...dateKind,
  display: (_field, value) => <TimeText value={value} />,
  // date and time may go on two lines, never a digit alone
  cellStyle: { minWidth: 90 },
};
