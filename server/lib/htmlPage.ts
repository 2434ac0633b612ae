/**
 * The small server-rendered pages a phone opens from a QR code (the sandbox payment and binding pages): plain
 * HTML with inline styles only (the CSP allows no inline script), texts escaped.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:420px;margin:32px auto;padding:0 16px;color:#1f1f1f}
dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px}dt{color:#666}dd{margin:0}
input{width:100%;box-sizing:border-box;padding:10px;font-size:16px;margin:8px 0 16px}
button{width:100%;padding:12px;font-size:18px;background:#07c160;color:#fff;border:0;border-radius:6px}
.hint{color:#888;font-size:13px}.test{background:#fff7e6;border:1px solid #ffa940;color:#ad4e00;padding:10px;border-radius:6px;font-weight:600}.done{color:#07c160;font-size:18px}.closed{color:#cf1322}
.lines{list-style:none;margin:0;padding:0}.lines li{display:flex;justify-content:space-between;gap:12px}`;

/** A whole page: `title` is plain text, `body` is HTML whose texts the caller has escaped. */
export function phonePage(lang: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" type="image/svg+xml" href="/favicon.svg">
<style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}
