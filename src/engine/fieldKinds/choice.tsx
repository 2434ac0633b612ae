/** Choice kinds: one of the declared options (enum), several (enums), yes/no and a record's status ('1' in use, '0' disabled). */
import { QuestionCircleOutlined } from "@ant-design/icons";
import { Radio, Select, Tag, Tooltip } from "antd";
import type { FieldDecl } from "../../../common/catalogue";
import { rolesFromCookies } from "../../../providers/session";
import { useSessionUser } from "../../lib/session";
import { NO_BREAK, offeredOptions, WRAPS, type ControlProps, type Translate, type UiFieldKind } from "./kind";

function optionLabel(field: FieldDecl, value: unknown, t: Translate): string {
  const option = field.options?.find((o) => o.value === String(value));
  return option ? t(option.label) : String(value);
}

/** The options the signed-in user is offered: the role keys in force (an operator switched into a provider holds its keys). */
function useOfferedOptions(field: FieldDecl, t: Translate): { value: string; label: string }[] {
  const roles = useSessionUser()?.roles ?? rolesFromCookies();
  return offeredOptions(field, t, roles);
}

function OptionSelect({ field, t, block, value, onChange, id, "data-testid": testId }: ControlProps) {
  const options = useOfferedOptions(field, t);
  return (
    <Select
      id={id}
      data-testid={testId}
      value={value as string | undefined}
      onChange={(v) => onChange?.(v)}
      options={options}
      placeholder={t(field.label)}
      allowClear={!field.required || block !== undefined}
      style={block ? { width: "100%" } : { minWidth: 140 }}
    />
  );
}

/** The filter of a choice: any option, or none. */
function OptionFilter(props: ControlProps) {
  return <OptionSelect {...props} block={props.block ?? false} />;
}

/**
 * A state (an option with a tone) is a tag of its colour, and a state with a hint (what to do about an abnormal
 * refund) shows it on hover or tap; any other choice is its label.
 */
function optionDisplay(field: FieldDecl, value: unknown, t: Translate) {
  const option = field.options?.find((o) => o.value === String(value));
  if (!option?.tone) return optionLabel(field, value, t);
  if (!option.hint) return <Tag color={option.tone}>{t(option.label)}</Tag>;
  return (
    <Tooltip title={t(option.hint)} trigger={["hover", "click"]}>
      <Tag color={option.tone} style={{ cursor: "help" }} data-testid={`state-hint-${option.value}`}>
        {t(option.label)} <QuestionCircleOutlined />
      </Tag>
    </Tooltip>
  );
}

export const enumKind: UiFieldKind = {
  Control: (props) => <OptionSelect {...props} block={undefined} />,
  display: optionDisplay,
  cellStyle: NO_BREAK,
  picked: true,
  Filter: OptionFilter,
};

function OptionButtons({ field, t, value, onChange, id }: ControlProps) {
  const options = useOfferedOptions(field, t);
  return <Radio.Group id={id} value={value} onChange={(e) => onChange?.(e.target.value)} options={options} optionType="button" />;
}

export const yesnoKind: UiFieldKind = {
  Control: (props) => <OptionButtons {...props} />,
  display: (field, value, t) => <Tag color={String(value) === "Y" ? "green" : "default"}>{optionLabel(field, value, t)}</Tag>,
  cellStyle: NO_BREAK,
  picked: true,
  Filter: OptionFilter,
};

/** In lists, whoever may edit the record gets a switch instead (../StatusSwitch.tsx). */
export const statusKind: UiFieldKind = {
  Control: yesnoKind.Control,
  display: (field, value, t) => <Tag color={String(value) === "1" ? "green" : "default"}>{optionLabel(field, value, t)}</Tag>,
  cellStyle: NO_BREAK,
  picked: true,
  Filter: OptionFilter,
};

function asValues(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** Several options picked, typed to search among them (a province among 34). */
function OptionsSelect({ field, t, value, onChange, id, "data-testid": testId }: ControlProps) {
  const options = useOfferedOptions(field, t);
  return (
    <Select
      id={id}
      data-testid={testId}
      mode="multiple"
      value={asValues(value)}
      onChange={(v: string[]) => onChange?.(v)}
      options={options}
      optionFilterProp="label"
      placeholder={t(field.label)}
      allowClear
      style={{ width: "100%", minWidth: 200 }}
    />
  );
}

export const enumsKind: UiFieldKind = {
  Control: (props) => <OptionsSelect {...props} />,
  display: (field, value, t) =>
    asValues(value)
      .map((v) => optionLabel(field, v, t))
      .join("、"),
  cellStyle: WRAPS,
};
