/**
 * The demo goods' pictures: simple illustrations (a shirt, shorts, a jacket, a workbook, a meal card, a sports
 * shirt) in each goods item's colours, drawn as small SVGs with no text and rendered to PNG by sharp, and a demo
 * mini-program's experience QR code as the server draws one (server/lib/qrImage.ts), then stored
 * through the upload store as any uploaded image is (server/uploads/images.ts storeImage: by the sha256 of the PNG,
 * as WebP variants of the upload's widths, served at /files/img/). Made without the network and the same every time;
 * rendered once a process (a server's start, the tests' seeds) and only stored again where a store lacks them.
 */
import { createHash } from "node:crypto";
import { qrPng } from "../lib/qrImage";
import type { UploadStorage } from "../uploads/storage";
import { storeImage, type PreparedImage } from "../uploads/images";
import { filePath, imageVariantKey } from "../uploads/keys";

/** the pictures' size, drawn on 640 x 640: served at 160 and this width (server/uploads/images.ts variantWidths) */
const SIZE = 480;

/** a garment's colours: its cloth, its trim (collar, cuffs, seams) and the tile behind it */
interface Palette {
  cloth: string;
  trim: string;
  tile: string;
}

const NAVY: Palette = { cloth: "#22335f", trim: "#f2f4f8", tile: "#e4ecf7" };
const WHITE: Palette = { cloth: "#fbfbfd", trim: "#22335f", tile: "#dde6f2" };

const svg = (tile: string, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 640 640">` +
  `<rect width="640" height="640" fill="${tile}"/>` +
  `<ellipse cx="320" cy="560" rx="200" ry="22" fill="#000" fill-opacity="0.08"/>${body}</svg>`;

/** a short-sleeved polo: body, sleeves, a collar and a placket with buttons */
function poloShirt(p: Palette): string {
  return svg(
    p.tile,
    `<path d="M232 128 L282 108 Q320 140 358 108 L408 128 L512 214 L462 286 L420 256 L420 520 L220 520 L220 256 L178 286 L128 214 Z" fill="${p.cloth}" stroke="${p.trim}" stroke-opacity="0.35" stroke-width="4" stroke-linejoin="round"/>` +
      `<path d="M282 108 L320 178 L358 108 L342 102 L320 140 L298 102 Z" fill="${p.trim}"/>` +
      `<path d="M178 286 L128 214 L140 204 L190 276 Z M462 286 L512 214 L500 204 L450 276 Z" fill="${p.trim}"/>` +
      `<rect x="312" y="178" width="16" height="84" rx="3" fill="${p.trim}" fill-opacity="0.25"/>` +
      `<circle cx="320" cy="200" r="6" fill="${p.trim}"/><circle cx="320" cy="236" r="6" fill="${p.trim}"/>` +
      `<rect x="220" y="500" width="200" height="20" fill="${p.trim}" fill-opacity="0.25"/>`,
  );
}

/** shorts: a waistband and two legs */
function shorts(p: Palette): string {
  return svg(
    p.tile,
    `<path d="M196 170 L444 170 L476 470 L346 470 L320 300 L294 470 L164 470 Z" fill="${p.cloth}" stroke="${p.trim}" stroke-opacity="0.35" stroke-width="4" stroke-linejoin="round"/>` +
      `<rect x="196" y="150" width="248" height="40" rx="6" fill="${p.cloth}" stroke="${p.trim}" stroke-width="4"/>` +
      `<path d="M172 440 L290 440 M350 440 L468 440" stroke="${p.trim}" stroke-width="10"/>` +
      `<path d="M320 190 L320 300" stroke="${p.trim}" stroke-opacity="0.5" stroke-width="4"/>`,
  );
}

/** a hooded jacket zipped up with reflective bands; `open` shows its lighter liner */
function jacket(p: Palette, open: boolean): string {
  const liner = open ? `<path d="M300 140 L340 140 L360 520 L280 520 Z" fill="#9fb3d1"/>` : `<path d="M320 140 L320 520" stroke="${p.trim}" stroke-width="6"/>`;
  return svg(
    p.tile,
    `<path d="M262 92 Q320 40 378 92 L392 140 L248 140 Z" fill="${p.cloth}" stroke="${p.trim}" stroke-opacity="0.4" stroke-width="4"/>` +
      `<path d="M240 130 L400 130 L520 240 L560 470 L500 484 L452 300 L440 530 L200 530 L188 300 L140 484 L80 470 L120 240 Z" fill="${p.cloth}" stroke="${p.trim}" stroke-opacity="0.35" stroke-width="4" stroke-linejoin="round"/>` +
      liner +
      `<rect x="196" y="390" width="248" height="16" fill="#c9d3e0"/>` +
      `<path d="M96 430 L154 440 M544 430 L486 440" stroke="#c9d3e0" stroke-width="14"/>` +
      `<rect x="236" y="440" width="56" height="8" rx="4" fill="${p.trim}" fill-opacity="0.5"/><rect x="348" y="440" width="56" height="8" rx="4" fill="${p.trim}" fill-opacity="0.5"/>`,
  );
}

/** a workbook: its cover in the edition's colour with plus, minus and times signs, pages on its edge */
function workbook(cover: string, tile: string): string {
  return svg(
    tile,
    `<rect x="196" y="96" width="276" height="428" rx="10" fill="#f6f3ea" stroke="#c9c2ad" stroke-width="3"/>` +
      `<rect x="172" y="80" width="280" height="432" rx="12" fill="${cover}"/>` +
      `<rect x="172" y="80" width="34" height="432" rx="8" fill="#000" fill-opacity="0.15"/>` +
      `<rect x="236" y="150" width="176" height="120" rx="10" fill="#fff" fill-opacity="0.9"/>` +
      `<path d="M270 210 L314 210 M292 188 L292 232 M334 210 L378 210" stroke="${cover}" stroke-width="12" stroke-linecap="round"/>` +
      `<path d="M282 330 L318 366 M318 330 L282 366" stroke="#fff" stroke-width="12" stroke-linecap="round"/>` +
      `<circle cx="372" cy="336" r="7" fill="#fff"/><path d="M350 350 L394 350" stroke="#fff" stroke-width="10" stroke-linecap="round"/><circle cx="372" cy="364" r="7" fill="#fff"/>` +
      `<rect x="236" y="420" width="176" height="14" rx="7" fill="#fff" fill-opacity="0.6"/>`,
  );
}

/** a meal card: a rounded card with a chip and a bowl, in the month's colour */
function mealCard(colour: string, tile: string): string {
  return svg(
    tile,
    `<g transform="rotate(-8 320 320)">` +
      `<rect x="110" y="180" width="420" height="264" rx="28" fill="${colour}"/>` +
      `<rect x="110" y="230" width="420" height="40" fill="#000" fill-opacity="0.12"/>` +
      `<rect x="150" y="300" width="74" height="56" rx="10" fill="#f1d58a"/>` +
      `<path d="M170 300 L170 356 M204 300 L204 356 M150 328 L224 328" stroke="#c9a94f" stroke-width="3"/>` +
      `<path d="M340 330 L480 330 Q474 400 410 404 Q346 400 340 330 Z" fill="#fff"/>` +
      `<path d="M380 300 Q390 312 380 322 M410 292 Q420 306 410 320 M440 300 Q450 312 440 322" stroke="#fff" stroke-width="6" fill="none" stroke-linecap="round"/>` +
      `</g>`,
  );
}

/** a sports shirt with stripes down the sleeves */
function sportsShirt(cloth: string, stripe: string, tile: string): string {
  return svg(
    tile,
    `<path d="M236 120 L290 104 Q320 128 350 104 L404 120 L512 216 L464 282 L420 250 L420 520 L220 520 L220 250 L176 282 L128 216 Z" fill="${cloth}" stroke-linejoin="round"/>` +
      `<path d="M290 104 Q320 150 350 104" stroke="${stripe}" stroke-width="12" fill="none"/>` +
      `<path d="M244 128 L156 218 M396 128 L484 218" stroke="${stripe}" stroke-width="14"/>` +
      `<path d="M220 330 L420 330" stroke="${stripe}" stroke-width="18"/>`,
  );
}

/** the demo's QR codes (a mini-program's experience version), drawn as the server draws them */
const QR_CODES = { "qr-sunrise-experience": "sandbox://wechat/experience?appid=wx8f2b6c1d3e4a5970&version=1.3.0" } as const;

/** every demo picture drawn, by name */
const DRAWINGS: Record<Exclude<DemoPicture, keyof typeof QR_CODES>, () => string> = {
  "polo-navy": () => poloShirt(NAVY),
  "polo-white": () => poloShirt(WHITE),
  "shorts-navy": () => shorts(NAVY),
  "jacket-navy": () => jacket(NAVY, false),
  "jacket-open": () => jacket(NAVY, true),
  "book-green": () => workbook("#2f8a5b", "#e6f2ea"),
  "book-blue": () => workbook("#2c6db2", "#e3edf8"),
  "card-orange": () => mealCard("#e8833a", "#fbeee2"),
  "card-red": () => mealCard("#c8453c", "#f8e5e3"),
  "sports-teal": () => sportsShirt("#138a8a", "#ffffff", "#dff1f1"),
};

export type DemoPicture =
  | "polo-navy"
  | "polo-white"
  | "shorts-navy"
  | "jacket-navy"
  | "jacket-open"
  | "book-green"
  | "book-blue"
  | "card-orange"
  | "card-red"
  | "sports-teal"
  | keyof typeof QR_CODES;

let rendered: Promise<Map<string, Buffer>> | undefined;
/** their variants, made once a process for every store they go to */
const prepared = new Map<string, Promise<PreparedImage>>();

/** The pictures as PNG, rendered once a process (sharp loads with them, as with the first upload). */
function renderAll(): Promise<Map<string, Buffer>> {
  rendered ??= (async () => {
    const { default: sharp } = await import("sharp");
    const entries = await Promise.all([
      ...Object.entries(DRAWINGS).map(async ([name, draw]) => [name, await sharp(Buffer.from(draw())).png({ compressionLevel: 1 }).toBuffer()] as const),
      ...Object.entries(QR_CODES).map(async ([name, text]) => [name, await qrPng(text)] as const),
    ]);
    return new Map(entries);
  })();
  rendered.catch(() => (rendered = undefined));
  return rendered;
}

/** The address each demo picture is served at under `origin`: its widest variant's, as the upload answers it. */
export async function demoPictureUrls(origin: string): Promise<Record<DemoPicture, string>> {
  const pictures = await renderAll();
  const urls: Record<string, string> = {};
  for (const [name, png] of pictures) urls[name] = `${origin}${filePath(imageVariantKey(createHash("sha256").update(png).digest("hex"), SIZE))}`;
  return urls as Record<DemoPicture, string>;
}

/** The demo pictures stored in `storage` as an upload stores them; those there already are left as they are. */
export async function storeDemoPictures(storage: UploadStorage): Promise<void> {
  const pictures = await renderAll();
  await Promise.all([...pictures.values()].map((png) => storeImage(storage, png, "png", { prepared })));
}
