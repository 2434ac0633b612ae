/**
 * A QR code as a PNG, made on the server (a mini-program's experience version, whose platform gives its address
 * rather than its picture): @zxing/library's encoder draws the modules, sharp writes them.
 */
import type * as zxingModule from "@zxing/library";

/** the encoder and the PNG writer, imported when a code is first drawn: a server start does not wait for them */
async function drawingLibraries() {
  const [zxingImport, { default: sharp }] = await Promise.all([import("@zxing/library"), import("sharp")]);
  // the library is CommonJS under Node (its names on the default export), ES modules under Vite's runner (on the module)
  const zxing: typeof zxingModule = (zxingImport as { default?: typeof zxingModule }).default ?? zxingImport;
  return { zxing, sharp };
}

/** the picture's side in pixels: enough for a phone to scan it off a screen (an upload's middle width) */
const SIDE = 480;

export async function qrPng(text: string): Promise<Buffer> {
  const { zxing, sharp } = await drawingLibraries();
  const { BarcodeFormat, EncodeHintType, QRCodeWriter } = zxing;
  const hints = new Map<zxingModule.EncodeHintType, unknown>([
    [EncodeHintType.MARGIN, 2],
    [EncodeHintType.CHARACTER_SET, "UTF-8"],
  ]);
  const matrix = new QRCodeWriter().encode(text, BarcodeFormat.QR_CODE, SIDE, SIDE, hints);
  const width = matrix.getWidth();
  const height = matrix.getHeight();
  const pixels = Buffer.alloc(width * height, 255);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) if (matrix.get(x, y)) pixels[y * width + x] = 0;
  return sharp(pixels, { raw: { width, height, channels: 1 } }).png().toBuffer();
}
