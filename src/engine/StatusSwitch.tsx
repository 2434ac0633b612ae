/**
 * A record's status as a switch in its list, for whoever may edit the record: turning it calls {entity}edit with
 * the record's id and the new status through refine, so the list refreshes; the server's refusal (the last super
 * administrator, one's own account) is shown and the switch stays as it was.
 */
import { Switch } from "antd";
import { useTranslation, useUpdate, type BaseRecord } from "@refinedev/core";
import type { FieldDecl } from "../../common/catalogue";
import { feedback } from "../../providers/feedback";

export function StatusSwitch({ resource, field, record }: { resource: string; field: FieldDecl; record: BaseRecord }) {
  const { translate } = useTranslation();
  const { mutate, mutation } = useUpdate();
  const on = String(record[field.name]) === "1";
  const label = (value: string) => translate(field.options?.find((o) => o.value === value)?.label ?? value);
  return (
    <Switch
      size="small"
      checked={on}
      loading={mutation.isPending}
      checkedChildren={label("1")}
      unCheckedChildren={label("0")}
      aria-label={translate(field.label)}
      data-testid={`status-switch-${String(record.id)}`}
      onChange={(checked) =>
        mutate(
          { resource, id: record.id!, values: { [field.name]: checked ? "1" : "0" }, successNotification: false, errorNotification: false },
          { onSuccess: () => feedback().success(translate("crud.saved")) },
        )
      }
    />
  );
}
