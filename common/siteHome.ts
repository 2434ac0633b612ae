/**
 * The public home page's sections (syshome `sections`; the site at /site): each a heading, a paragraph and an
 * optional picture, in order. One check for the server's field kind, the console's form and the site's page.
 */
import { isImageUrl } from "./fieldRules";

export interface HomeSection {
  title: string;
  text: string;
  /** an http(s) address, or empty */
  image: string;
}

export const MAX_HOME_SECTIONS = 6;
export const MAX_SECTION_TITLE = 30;
export const MAX_SECTION_TEXT = 500;

export type HomeSectionsCheck = { sections: HomeSection[] } | { problem: "over_count" } | { problem: "section"; index: number };

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value.trim() : value === undefined || value === null ? "" : undefined;
}

/**
 * The sections as stored (each with exactly its three keys, trimmed), or what is wrong: too many, or the first
 * section (numbered from 1) without a heading, with a text too long, or with a picture that is no address.
 */
export function homeSections(value: unknown): HomeSectionsCheck {
  if (!Array.isArray(value)) return { problem: "section", index: 1 };
  if (value.length > MAX_HOME_SECTIONS) return { problem: "over_count" };
  const sections: HomeSection[] = [];
  for (const [i, raw] of value.entries()) {
    const entry = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
    const section = entry && { title: text(entry.title), text: text(entry.text), image: text(entry.image) };
    if (
      !section ||
      !section.title ||
      section.title.length > MAX_SECTION_TITLE ||
      section.text === undefined ||
      section.text.length > MAX_SECTION_TEXT ||
      section.image === undefined ||
      (section.image !== "" && !isImageUrl(section.image))
    ) {
      return { problem: "section", index: i + 1 };
    }
    sections.push({ title: section.title, text: section.text, image: section.image });
  }
  return { sections };
}
