/**
 * antd <App> for the console (React 19 needs it for message and modal) and its instances registered with the
 * weapi client's toast/confirm bridge.
 */
import { App as AntdApp } from "antd";
import { useEffect, type ReactNode } from "react";
import { registerFeedback } from "../../providers/feedback";

function Bridge() {
  const { message, modal } = AntdApp.useApp();
  useEffect(
    () =>
      registerFeedback({
        error: (text, duration) => void message.error(text, duration),
        warning: (text, duration) => void message.warning(text, duration),
        success: (text, duration) => void message.success(text, duration),
        confirm: (o) => void modal.confirm({ ...o, type: "warning" }),
      }),
    [message, modal],
  );
  return null;
}

export function ConsoleFeedback({ children }: { children: ReactNode }) {
  return (
    <AntdApp message={{ maxCount: 3 }}>
      <Bridge />
      {children}
    </AntdApp>
  );
}
