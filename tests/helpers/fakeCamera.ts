/**
 * A camera for browser tests: Chromium's fake capture device playing a Y4M file (the uncompressed video format it
 * reads with --use-file-for-fake-video-capture) that shows a QR code, as a phone held up to the clerk's camera.
 */
import fs from "node:fs";
import zxing from "@zxing/library";

// the library is CommonJS: its names come through its default export under Node
const { BarcodeFormat, EncodeHintType, QRCodeWriter } = zxing;

/** Chromium's switches for a camera that plays `file`, allowed without asking. */
export function fakeCameraArgs(file: string): string[] {
  return ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", `--use-file-for-fake-video-capture=${file}`];
}

/** Writes a short Y4M video (4:2:0, 640 x 480) of the QR code of `text`, black on white in the middle of the frame. */
export function writeQrCodeVideo(file: string, text: string): void {
  const width = 640;
  const height = 480;
  const side = 360;
  const hints = new Map<zxing.EncodeHintType, unknown>([[EncodeHintType.MARGIN, 4]]);
  const matrix = new QRCodeWriter().encode(text, BarcodeFormat.QR_CODE, side, side, hints);
  const luma = Buffer.alloc(width * height, 235);
  const left = (width - matrix.getWidth()) / 2;
  const top = (height - matrix.getHeight()) / 2;
  for (let y = 0; y < matrix.getHeight(); y++) {
    for (let x = 0; x < matrix.getWidth(); x++) if (matrix.get(x, y)) luma[(top + y) * width + left + x] = 16;
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), luma, chroma, chroma]);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), ...Array(10).fill(frame)]));
}
