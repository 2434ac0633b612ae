/**
 * A select over the records of a catalogue list operation (providers, schools), searched by title on the
 * server as the user types.
 */
import { Select, type SelectProps } from "antd";
import { useEffect, useState } from "react";
import { weapi } from "../../providers/weapi";

export interface RemoteRecord {
  id: number | string;
  title: string;
  [field: string]: unknown;
}

/** Enough to choose from; the title search narrows it. */
const OPTION_LIMIT = 50;
const SEARCH_DELAY_MS = 300;

export interface RemoteSelectProps extends Omit<SelectProps<string>, "options" | "onSearch" | "filterOption" | "showSearch" | "onChange"> {
  /** the list operation, e.g. servicelist */
  operation: string;
  /** fixed payload fields (the tenant, e.g. sysid of the schools) */
  payload?: Record<string, unknown>;
  value?: string;
  /** the chosen record when it may lie outside the loaded options (e.g. opened with its id) */
  knownRecord?: RemoteRecord;
  onChange?: (value: string | undefined, record: RemoteRecord | undefined) => void;
}

export function RemoteSelect({ operation, payload, value, knownRecord, onChange, ...props }: RemoteSelectProps) {
  const [search, setSearch] = useState("");
  const [records, setRecords] = useState<RemoteRecord[]>([]);
  const [loading, setLoading] = useState(false);
  const payloadKey = JSON.stringify(payload ?? {});

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      setLoading(true);
      const title = search.trim();
      weapi<{ items?: RemoteRecord[] }>("adminapiv2", operation, { ...payload, page: 1, limit: OPTION_LIMIT, ...(title ? { title } : {}) })
        .then((res) => live && setRecords(res.return_code === "SUCCESS" ? (res.data?.items ?? []) : []))
        .catch(() => undefined) // the client showed the error
        .finally(() => live && setLoading(false));
    }, search ? SEARCH_DELAY_MS : 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // payloadKey stands for payload's content
  }, [operation, payloadKey, search]);

  return (
    <Select<string>
      {...props}
      showSearch
      allowClear
      filterOption={false}
      loading={loading}
      value={value}
      onSearch={setSearch}
      onChange={(next) => {
        onChange?.(next ?? undefined, records.find((r) => String(r.id) === next));
        setSearch("");
      }}
      options={[...(knownRecord && !records.some((r) => String(r.id) === String(knownRecord.id)) ? [knownRecord] : []), ...records].map((r) => ({
        value: String(r.id),
        label: r.title,
      }))}
    />
  );
}
