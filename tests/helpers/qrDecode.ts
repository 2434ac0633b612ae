/** What a QR code picture says, read as a phone would (@zxing/library's reader over its pixels). */
import * as zxingModule from "@zxing/library";
import sharp from "sharp";

// the library is CommonJS under Node (its names on the default export), ES modules under Vite's runner (on the module)
const zxing: typeof zxingModule = (zxingModule as { default?: typeof zxingModule }).default ?? zxingModule;
const { BinaryBitmap, HybridBinarizer, QRCodeReader, RGBLuminanceSource } = zxing;

export async function qrText(picture: Buffer): Promise<string> {
  const { data, info } = await sharp(picture).greyscale().raw().toBuffer({ resolveWithObject: true });
  const luminance = new RGBLuminanceSource(new Uint8ClampedArray(data), info.width, info.height);
  return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(luminance))).getText();
}
