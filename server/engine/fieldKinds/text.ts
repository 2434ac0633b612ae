/** Text kinds: a line (string), free text (text), rich text (HTML, sanitised) and a write-only password. */
import sanitizeHtml from "sanitize-html";
import { z } from "zod";
import type { FieldDecl } from "../../../common/catalogue";
import { maskedText } from "../../../common/fieldExtras";
import type { ServerFieldKind } from "./kind";

/** A string with the declared length bounds and pattern. */
export function boundedText(field: FieldDecl): z.ZodString {
  let s = z.string({ error: "text" });
  if (field.min !== undefined) s = s.min(field.min, { error: "too_short" });
  if (field.max !== undefined) s = s.max(field.max, { error: "too_long" });
  if (field.pattern) s = s.regex(new RegExp(field.pattern), { error: "pattern" });
  return s;
}

export const stringKind: ServerFieldKind = {
  value: boundedText,
  column: (field) => `varchar(${JSON.stringify(field.name)}, { length: ${field.max ?? 255} })`,
  filterValue: (_field, text) => text,
  // a masked text (a bank account) is whole only in the record read for editing
  listValue: (field, value) => (field.mask && typeof value === "string" ? maskedText(field, value) : value),
  listSql: (field, column) => (field.mask ? null : column),
  exportCell: (field, value) => (typeof value === "string" ? maskedText(field, value) : null),
};

export const textKind: ServerFieldKind = {
  value: boundedText,
  column: (field) => `text(${JSON.stringify(field.name)})`,
  filterValue: (_field, text) => text,
  keepsWhitespace: true,
};

export const passwordKind: ServerFieldKind = {
  value: boundedText,
  column: (field) => {
    throw new Error(`password field ${field.name} is never a column`);
  },
  filterValue: () => undefined,
  keepsWhitespace: true,
};

/**
 * Rich text (a goods item's description): HTML kept to an allow-list of tags and attributes on the server, whatever
 * was sent, so what a payer's page shows can run no script nor load anything but images over http(s).
 */
const RICH_TEXT_RULES: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "s", "h3", "h4", "ul", "ol", "li", "blockquote", "a", "img", "span", "table", "thead", "tbody", "tr", "th", "td"],
  allowedAttributes: { a: ["href", "title", "target", "rel"], img: ["src", "alt", "width", "height"], span: ["style"], td: ["colspan", "rowspan"], th: ["colspan", "rowspan"] },
  allowedStyles: { span: { color: [/^#[0-9a-f]{3,6}$/i, /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/] } },
  allowedSchemes: ["http", "https"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  // an image whose address was not allowed is no image
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
  // a link leaves the shop in a new page, telling it nothing of where it came from
  transformTags: { a: sanitizeHtml.simpleTransform("a", { target: "_blank", rel: "noopener noreferrer" }) },
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, RICH_TEXT_RULES).trim();
}

export const richtextKind: ServerFieldKind = {
  value: (field) => boundedText(field).transform(sanitizeRichText),
  column: (field) => `text(${JSON.stringify(field.name)})`,
  filterValue: () => undefined,
  keepsWhitespace: true,
};
