/**
 * The form items of an entity's add or edit form (the generic page and the in-place dialog share them): one per
 * form field of the action, with the client rules of its kind. A reference narrowed by another (a class within a
 * grade) is cleared when the narrowing choice changes.
 */
import { Form, type FormInstance } from "antd";
import type { ReactNode } from "react";
import { usePermissions, useTranslation } from "@refinedev/core";
import type { EntityDecl, FieldDecl } from "../../common/catalogue";
import { fieldSeenBy } from "../../common/fieldRules";
import { scope } from "../../providers/dataProvider";
import { entityByName } from "../../resources.config";
import { FieldControl, fieldRules, inForm, valueProps, type Translate } from "./fields";
import { uiKindOf } from "./fieldKinds";
import { ChildRowsEditor } from "./ChildRecords";

/**
 * A school-scoped record is added in a school: when the user works across schools (a provider with none chosen
 * in the top bar), the add form asks which, with the entity's school field.
 */
function schoolChoice(entity: EntityDecl, action: "add" | "edit"): FieldDecl | undefined {
  if (entity.scope !== "school" || action !== "add" || scope().sch_id) return undefined;
  const field = entity.fields.find((f) => f.name === "sch_id" && f.type === "ref");
  return field && { ...field, required: true };
}

export function RecordFields({ entity, action }: { entity: EntityDecl; action: "add" | "edit" }) {
  const { translate } = useTranslation();
  const t: Translate = (key, options) => translate(key, options);
  const school = schoolChoice(entity, action);
  const { data: roles } = usePermissions<string[]>({});
  return (
    <>
      {[...(school ? [school] : []), ...entity.fields.filter((f) => inForm(f, action) && fieldSeenBy(f, roles))].map((f) => {
        const whole = uiKindOf(f).wide ? { labelCol: { span: 24 }, wrapperCol: { span: 24 } } : {};
        const item = (
          // a field shown only under a condition is not sent while hidden
          <Form.Item key={f.name} name={f.name} label={translate(f.label)} rules={fieldRules(f, t)} preserve={!f.formWhen} {...whole} {...valueProps(f)}>
            <FieldControl field={f} t={t} />
          </Form.Item>
        );
        return f.formWhen ? <ShownWhen key={f.name} when={f.formWhen} item={item} /> : item;
      })}
      {(entity.children ?? []).map((decl) => (
        <ChildRowsEditor key={decl.name} decl={decl} />
      ))}
    </>
  );
}

/** A form item shown while another field of the form holds a value. */
export function ShownWhen({ when, item }: { when: NonNullable<FieldDecl["formWhen"]>; item: ReactNode }) {
  const value = Form.useWatch(when.field, Form.useFormInstance()) as unknown;
  return String(value ?? "") === when.value ? item : null;
}

/** An onValuesChange handler clearing the references narrowed by a field that changed (or by the school chosen). */
export function clearNarrowed(entity: EntityDecl, form: FormInstance | undefined) {
  return (changed: Record<string, unknown>) => {
    for (const field of entity.fields) {
      if (field.type !== "ref" || field.name === "sch_id" || field.name in changed) continue;
      const narrowBy = field.ref?.narrowBy;
      const bySchool = "sch_id" in changed && entityByName(field.ref?.entity ?? "")?.scope === "school";
      if ((narrowBy && narrowBy in changed) || bySchool) form?.setFieldValue(field.name, undefined);
    }
  };
}

/** Default values of the add form's fields. */
export function addDefaults(entity: EntityDecl): Record<string, string | number> {
  const defaults: Record<string, string | number> = {};
  for (const f of entity.fields) if (inForm(f, "add") && f.default !== undefined) defaults[f.name] = f.default;
  return defaults;
}
