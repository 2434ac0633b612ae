/**
 * The channel QR code has one name everywhere, the spec's menu's ("channel QR codes", 渠道二维码): the entity (page
 * titles, dialogs, messages built from it), the menu entries, the poster's warning, the payer API's message and the
 * payer page say it alike in zh, en and es, and no text names it otherwise.
 */
import { describe, expect, it } from "vitest";
import { en as payerEn } from "../../src/h5/i18n/en";
import { es as payerEs } from "../../src/h5/i18n/es";
import { zh as payerZh } from "../../src/h5/i18n/zh";
import { en, es, zh } from "../helpers/locales";

const languages = [
  { lang: "zh", messages: zh, payer: payerZh, other: /收款二维码|收款码/ },
  { lang: "en", messages: en, payer: payerEn, other: /payment (QR )?code/i },
  { lang: "es", messages: es, payer: payerEs, other: /código (QR )?de (cobro|pago)/i },
] as const;

const byLanguage = languages.map((language) => [language.lang, language] as const);

describe("the channel QR code's name", () => {
  it.each(byLanguage)("is the menu's in %s: entity, menu entries, poster, payer API and payer page", (_lang, { messages, payer }) => {
    const name = messages.collection.entity.qrchnl;
    const contains = (text: string) => expect(text.toLowerCase(), text).toContain(name.toLowerCase());
    // the list's menu entry is the plural; adding and editing name it as the entity does
    expect(messages.menu.qrchnllist.toLowerCase().replace(/s\b/g, "")).toContain(name.toLowerCase().replace(/s\b/g, ""));
    contains(messages.menu.qrchnladd);
    contains(messages.menu.qrchnledit);
    contains(messages.collection.poster.disabled);
    contains(messages.collection.payer.code_unknown);
    contains(payer.code_missing);
  });

  it.each(byLanguage)("has no other name in %s", (_lang, { messages, payer, other }) => {
    const texts = [JSON.stringify(messages), JSON.stringify(payer)];
    for (const text of texts) expect(text).not.toMatch(other);
  });
});
