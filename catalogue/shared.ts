/** Field options that several domains' entities use. */
import type { FieldOption } from "../common/catalogue";

export const yesNo: FieldOption[] = [
  { value: "Y", label: "common.yes" },
  { value: "N", label: "common.no" },
];

/** A record in use ("1") or disabled ("0"). */
export const statusOptions: FieldOption[] = [
  { value: "1", label: "enum.status.1" },
  { value: "0", label: "enum.status.0" },
];
