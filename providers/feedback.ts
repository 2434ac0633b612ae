/**
 * Toast and confirm bridge: lets the weapi client (plain TypeScript) use the message and modal instances of
 * the mounted React tree (which follow the theme and locale). The innermost registered instance wins; before
 * any is mounted, the static antd message serves and the confirm dialog is loaded on demand (it stays out of
 * the login bundle).
 */
import { message } from "antd";

export interface ConfirmOptions {
  title: string;
  content: string;
  okText: string;
  cancelText: string;
  onOk: () => void;
}

export interface Feedback {
  /** an error toast; duration in seconds */
  error(text: string, durationSeconds: number): void;
  warning(text: string, durationSeconds?: number): void;
  success(text: string, durationSeconds?: number): void;
  confirm(options: ConfirmOptions): void;
}

/** Confirm through antd's static Modal, loaded when first needed. */
export function lazyConfirm(options: ConfirmOptions): void {
  // the module, not the antd barrel: a dynamic import of the barrel would ship all of antd in one chunk
  void import("antd/es/modal").then(({ default: Modal }) => Modal.confirm({ ...options, type: "warning" }));
}

const staticFeedback: Feedback = {
  error: (text, duration) => void message.error(text, duration),
  warning: (text, duration) => void message.warning(text, duration),
  success: (text, duration) => void message.success(text, duration),
  confirm: lazyConfirm,
};

const registered: Feedback[] = [];

export function feedback(): Feedback {
  return registered[registered.length - 1] ?? staticFeedback;
}

/** Registers the instances of a mounted tree; returns the unregister function. */
export function registerFeedback(instance: Feedback): () => void {
  registered.push(instance);
  return () => {
    const index = registered.lastIndexOf(instance);
    if (index >= 0) registered.splice(index, 1);
  };
}
