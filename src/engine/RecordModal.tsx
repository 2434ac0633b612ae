/**
 * Adding and editing a record in place, in a dialog over its list: for lists whose menu gives no add or edit
 * route (the v2 grades and classes) while the user may add or edit. Saves through refine, so the list refreshes;
 * a refused save keeps the dialog open with the server's field errors under their fields; closing it with changes
 * asks first.
 */
import { Form, Modal } from "antd";
import { useModalForm } from "@refinedev/antd";
import { useTranslation, type BaseKey, type BaseRecord, type HttpError } from "@refinedev/core";
import { forwardRef, useImperativeHandle } from "react";
import type { EntityDecl } from "../../common/catalogue";
import { feedback } from "../../providers/feedback";
import { submitOnlyByButton } from "../lib/forms";
import { useGuardedDialog } from "../shell/unsavedChanges";
import { useAnsweredOnce } from "./AnsweredOnce";
import { addDefaults, clearNarrowed, RecordFields } from "./RecordFields";

export interface RecordModalHandle {
  open(id?: BaseKey): void;
}

export const RecordModal = forwardRef<RecordModalHandle, { resource: string; entity: EntityDecl; action: "add" | "edit" }>(function RecordModal(
  { resource, entity, action },
  ref,
) {
  const { translate } = useTranslation();
  const showAnsweredOnce = useAnsweredOnce();
  const { modalProps, formProps, show } = useModalForm<BaseRecord, HttpError>({
    resource,
    action: action === "add" ? "create" : "edit",
    redirect: false,
    defaultFormValues: action === "add" ? addDefaults(entity) : undefined,
    successNotification: false,
    errorNotification: false,
    onMutationSuccess: (data) => {
      feedback().success(translate(action === "add" ? "crud.created" : "crud.saved", { entity: translate(entity.title) }));
      void showAnsweredOnce(entity, data.data);
    },
  });
  useImperativeHandle(ref, () => ({ open: (id) => show(id) }), [show]);
  // closed by its X, Esc, the mask or Cancel with values changed: asked first
  const guard = useGuardedDialog(Boolean(modalProps.open), modalProps.onCancel);
  const title = `${translate(action === "add" ? "crud.add" : "crud.edit")} · ${translate(entity.title)}`;
  return (
    <Modal {...modalProps} onCancel={guard.onCancel} title={title} okText={translate("crud.save")} cancelText={translate("common.cancel")} destroyOnHidden>
      <Form
        {...formProps}
        // a refused save keeps the dialog open with the server's field errors under their fields (and its message
        // shown by the weapi client); refine's modal form would let the failure escape as an uncaught rejection
        onFinish={async (values) => {
          try {
            await formProps.onFinish?.(values);
          } catch {
            // shown in the dialog: the field errors under their fields
          }
        }}
        data-testid={`record-modal-${action}`}
        layout="vertical"
        onKeyDown={submitOnlyByButton}
        onValuesChange={(changed, all) => {
          formProps.onValuesChange?.(changed, all);
          guard.markChanged();
          clearNarrowed(entity, formProps.form)(changed as Record<string, unknown>);
        }}
      >
        <RecordFields entity={entity} action={action} />
      </Form>
    </Modal>
  );
});
