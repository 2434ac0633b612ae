/**
 * The payer's pages (h5.html, served for /h5/{code}): a parent's phone, in WeChat or any browser. Plain React and
 * its own styles and messages; nothing of the console (antd, refine, the catalogue) comes with it.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import "./h5.css";

/** /h5/{code}: the school's channel code, from the QR code the parent scanned. */
export function codeOf(pathname: string): string {
  const raw = /^\/h5\/([^/?#]+)/.exec(pathname)?.[1] ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    return "";
  }
}

/** /h5/{code}/trace/{trace_code}: a garment's trace-source code, read within the school's provider. */
export function traceCodeOf(pathname: string): string | undefined {
  const raw = /^\/h5\/[^/?#]+\/trace\/([^/?#]+)/.exec(pathname)?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return "";
  }
}

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App code={codeOf(window.location.pathname)} traceCode={traceCodeOf(window.location.pathname)} />
    </StrictMode>,
  );
}
