/** Field options that several domains' entities use. */
import type { FieldDecl, FieldOption } from "../common/catalogue";
import { PROVINCE_CODES, provinceNameKey } from "../common/provinces";

export const yesNo: FieldOption[] = [
  { value: "Y", label: "common.yes" },
  { value: "N", label: "common.no" },
];

/** A record in use ("1") or disabled ("0"). */
export const statusOptions: FieldOption[] = [
  { value: "1", label: "enum.status.1" },
  { value: "0", label: "enum.status.0" },
];

/**
 * The school a school-scoped record belongs to (its tenant column, set from the caller's scope): a column and a
 * filter for whoever works across several schools (a provider), hidden once a school is chosen.
 */
export const schoolField: FieldDecl = { name: "sch_id", type: "ref", ref: { entity: "school" }, label: "field.school", list: true, filter: "eq", detail: true };

/** The provinces (common/provinces.ts): where an express order goes, what an express template's rule covers. */
/** an e-mail address as a person types it: something, an @, a domain with a dot (the website's contact, an applicant's) */
export const EMAIL_PATTERN = "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$";

export const provinceOptions: FieldOption[] = PROVINCE_CODES.map((code) => ({ value: code, label: provinceNameKey(code) }));
