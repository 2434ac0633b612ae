/** The field-kind registry of the server: every FieldType's column, check, filter and spreadsheet cell. */
import type { FieldDecl, FieldType } from "../../../common/catalogue";
import { enumKind, enumsKind, statusKind, yesnoKind } from "./choice";
import { idcardKind, imageKind, phoneKind } from "./formats";
import type { ServerFieldKind } from "./kind";
import { intKind, moneyKind } from "./number";
import { refKind } from "./ref";
import { blocksKind, imagesKind, jsonKind, sectionsKind, specgroupsKind, specsKind, stringsKind } from "./lists";
import { passwordKind, richtextKind, stringKind, textKind } from "./text";
import { dateKind, datetimeKind } from "./time";

export type { FieldMessage, ServerFieldKind } from "./kind";
export { FIELD_MESSAGES } from "./kind";

export const serverFieldKinds: Record<FieldType, ServerFieldKind> = {
  string: stringKind,
  text: textKind,
  password: passwordKind,
  int: intKind,
  money: moneyKind,
  date: dateKind,
  datetime: datetimeKind,
  enum: enumKind,
  enums: enumsKind,
  yesno: yesnoKind,
  status: statusKind,
  ref: refKind,
  phone: phoneKind,
  image: imageKind,
  idcard: idcardKind,
  richtext: richtextKind,
  images: imagesKind,
  strings: stringsKind,
  specs: specsKind,
  specgroups: specgroupsKind,
  blocks: blocksKind,
  sections: sectionsKind,
  json: jsonKind,
};

export function kindOf(field: FieldDecl): ServerFieldKind {
  return serverFieldKinds[field.type];
}
