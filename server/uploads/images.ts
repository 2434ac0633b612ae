/**
 * An uploaded image made ready to serve (sharp): turned upright as its EXIF orientation says, resized to a few
 * widths (never wider than it is), re-encoded as WebP with no metadata (EXIF, GPS, XMP, ICC: sharp writes none
 * unless asked; colours are converted to sRGB). An animated GIF or WebP keeps its first frame. An image of more
 * than MAX_IMAGE_PIXELS is refused before it is decoded: a small file may decode to gigabytes.
 */
import type { SharpOptions } from "sharp";
import { imageVariantKey } from "./keys";

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
