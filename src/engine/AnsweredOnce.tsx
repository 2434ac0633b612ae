/**
 * Values the server answers once and never again (an API client's secret, `answeredOnce` of the entity): shown in a
 * dialog with a copy button each, saying they cannot be read later, which stays open until the user says they have
 * copied them (neither the mask nor Esc closes it: a secret lost to a stray click means a new one).
 */
import { App as AntdApp, Alert, Typography } from "antd";
import { useTranslation, type BaseRecord } from "@refinedev/core";
import { useCallback } from "react";
import type { EntityDecl } from "../../common/catalogue";

/** Shows the entity's once-answered values of a save's or an action's answer; whether there were any. */
export function useAnsweredOnce(): (entity: EntityDecl, answer: BaseRecord | undefined) => Promise<boolean> {
  const { modal } = AntdApp.useApp();
  const { translate } = useTranslation();
  return useCallback(
    (entity, answer) => {
      const once = entity.answeredOnce;
      const values = once?.fields.filter(({ name }) => typeof answer?.[name] === "string" && answer[name] !== "") ?? [];
      if (!once || values.length === 0 || !answer) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        modal.warning({
          title: translate(once.title),
          width: 560,
          keyboard: false,
          maskClosable: false,
          okText: translate("crud.answered_once_close"),
          onOk: () => resolve(true),
          content: (
            <div data-testid="answered-once">
              <Alert type="warning" showIcon message={translate(once.hint)} style={{ marginBottom: 16 }} />
              {values.map(({ name, label }) => (
                <div key={name} style={{ marginBottom: 12 }}>
                  <Typography.Text type="secondary">{translate(label)}</Typography.Text>
                  <Typography.Paragraph
                    code
                    copyable={{ tooltips: [translate("crud.copy"), translate("crud.copied")] }}
                    style={{ wordBreak: "break-all", marginBottom: 0 }}
                    data-testid={`answered-${name}`}
                  >
                    {String(answer[name])}
                  </Typography.Paragraph>
                </div>
              ))}
            </div>
          ),
        });
      });
    },
    [modal, translate],
  );
}
