/** The field-kind registry of the SPA: every FieldType's control, rules, cell and filter. */
import type { FieldDecl, FieldType } from "../../../common/catalogue";
import { enumKind, enumsKind, statusKind, yesnoKind } from "./choice";
import { idcardKind, imageKind, phoneKind } from "./formats";
import type { UiFieldKind } from "./kind";
import { intKind, moneyKind } from "./number";
import { refKind } from "./ref";
import { blocksKind } from "./blocks";
import { sectionsKind } from "./sections";
import { jsonKind } from "./json";
import { imagesKind, richtextKind, specgroupsKind, specsKind, stringsKind } from "./lists";
import { passwordKind, stringKind, textKind } from "./text";
import { dateKind, datetimeKind } from "./time";

export type { ControlProps, Translate, UiFieldKind, ValueProps } from "./kind";
export { fieldOptions } from "./kind";
export { DATE_FORMAT } from "./time";
export { referredEntity } from "./ref";

export const uiFieldKinds: Record<FieldType, UiFieldKind> = {
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

export function uiKindOf(field: FieldDecl): UiFieldKind {
  return uiFieldKinds[field.type];
}
