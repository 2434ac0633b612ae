/**
 * An uploaded image made ready to serve (sharp): turned upright as its EXIF orientation says, resized to a few
 * widths (never wider than it is), re-encoded as WebP with no metadata (EXIF, GPS, XMP, ICC: sharp writes none
 * unless asked; colours are converted to sRGB). An animated GIF or WebP keeps its first frame. An image of more
 * than MAX_IMAGE_PIXELS is refused before it is decoded: a small file may decode to gigabytes.
 */
import { createHash } from "node:crypto";
import type { SharpOptions } from "sharp";
import { CONTENT_TYPES, imageManifestKey, imageVariantKey } from "./keys";
import type { UploadStorage } from "./storage";

/** the widths served; an image narrower than one of them is served at its own width instead */
export const IMAGE_WIDTHS = [160, 480, 1080] as const;
export const MAX_IMAGE_PIXELS = 50_000_000;
const WEBP_QUALITY = 80;

export interface ImageVariant {
  key: string;
  width: number;
  height: number;
  data: Buffer;
}

export interface PreparedImage {
  /** upright, as uploaded */
  width: number;
  height: number;
  /** narrowest first */
  variants: ImageVariant[];
}

/** The image cannot be decoded (damaged, not what its first bytes say) or is larger than MAX_IMAGE_PIXELS. */
export class UnreadableImage extends Error {
  constructor(readonly tooManyPixels: boolean) {
    super(tooManyPixels ? "image has too many pixels" : "image cannot be read");
    this.name = "UnreadableImage";
  }
}

type Sharp = typeof import("sharp").default;
let loaded: Promise<Sharp> | undefined;

/**
 * sharp (libvips, some 30 MB) loads with the first image, not with the server. Its operation cache keeps decoded
 * images for reuse, which uploads never get: off, to bound memory.
 */
function loadSharp(): Promise<Sharp> {
  loaded ??= import("sharp").then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loaded;
}

/** The widths an image `width` pixels wide is served at. */
export function variantWidths(width: number): number[] {
  const below = IMAGE_WIDTHS.filter((w) => w < width);
  return width <= IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1] ? [...below, width] : [...IMAGE_WIDTHS];
}

export async function prepareImage(original: Buffer, hash: string, format: string): Promise<PreparedImage> {
  const sharp = await loadSharp();
  const options: SharpOptions = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" };
  let width: number;
  let height: number;
  try {
    const metadata = await sharp(original, options).metadata();
    if (metadata.format !== format) throw new UnreadableImage(false);
    width = metadata.autoOrient?.width ?? metadata.width ?? 0;
    height = metadata.autoOrient?.height ?? metadata.height ?? 0;
    if (!(width > 0 && height > 0)) throw new UnreadableImage(false);
    if (width * height > MAX_IMAGE_PIXELS) throw new UnreadableImage(true);
  } catch (err) {
    if (err instanceof UnreadableImage) throw err;
    throw new UnreadableImage(/pixel limit/i.test((err as Error).message));
  }
  const variants: ImageVariant[] = [];
  for (const target of variantWidths(width)) {
    try {
      const { data, info } = await sharp(original, options)
        .autoOrient()
        .resize({ width: target, withoutEnlargement: true })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer({ resolveWithObject: true });
      variants.push({ key: imageVariantKey(hash, info.width), width: info.width, height: info.height, data });
    } catch (err) {
      throw new UnreadableImage(/pixel limit/i.test((err as Error).message));
    }
  }
  return { width, height, variants };
}

/** What `img/<sha256>.json` holds: the image's size and its variants, narrowest first. */
export interface ImageManifest {
  width: number;
  height: number;
  variants: { key: string; width: number; height: number }[];
}

/** An image's manifest, or null when the image is not (completely) stored. */
export async function readImageManifest(storage: UploadStorage, hash: string): Promise<ImageManifest | null> {
  const text = await storage.read(imageManifestKey(hash));
  if (!text) return null;
  try {
    const manifest = JSON.parse(text.toString("utf8")) as ImageManifest;
    return Array.isArray(manifest.variants) && manifest.variants.length > 0 ? manifest : null;
  } catch {
    return null;
  }
}

/**
 * An image stored by the sha256 of its bytes as the upload stores it (the demo seed's goods pictures too): its
 * variants, then its manifest, written last, whose presence says the image is complete; an image stored before is
 * answered from its manifest. `format` is sharp's name of what the bytes are (png, jpeg, webp, gif). Options:
 * `limit` runs the resizing (a bound on images resized at once); `prepared` keeps the variants made, by hash, for
 * one image stored in several stores (the demo's pictures, in every data directory a process starts on). Throws
 * UnreadableImage.
 */
export async function storeImage(
  storage: UploadStorage,
  original: Buffer,
  format: string,
  options: { limit?: <T>(resize: () => Promise<T>) => Promise<T>; prepared?: Map<string, Promise<PreparedImage>> } = {},
): Promise<{ hash: string; manifest: ImageManifest; existed: boolean }> {
  const hash = createHash("sha256").update(original).digest("hex");
  const stored = await readImageManifest(storage, hash);
  if (stored) return { hash, manifest: stored, existed: true };
  const limit = options.limit ?? ((resize) => resize());
  let preparing = options.prepared?.get(hash);
  if (!preparing) {
    preparing = limit(() => prepareImage(original, hash, format));
    options.prepared?.set(hash, preparing);
    preparing.catch(() => options.prepared?.delete(hash));
  }
  const prepared = await preparing;
  await Promise.all(prepared.variants.map((v) => storage.put(v.key, v.data, CONTENT_TYPES.webp!)));
  const manifest: ImageManifest = { width: prepared.width, height: prepared.height, variants: prepared.variants.map(({ key, width, height }) => ({ key, width, height })) };
  // last: its presence says every variant is stored
  await storage.put(imageManifestKey(hash), Buffer.from(JSON.stringify(manifest)), "application/json");
  return { hash, manifest, existed: false };
}
