/**
 * A payment QR code as an image (loaded lazily: the generator is needed only on the pay step). Drawn on a canvas,
 * then shown as a PNG, so that WeChat's long-press "recognise the QR code in the image" and saving it both work.
 */
import { QRCodeCanvas } from "qrcode.react";
import { useEffect, useRef, useState } from "react";

export default function QrImage({ value, label }: { value: string; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [png, setPng] = useState<string>();
  useEffect(() => {
    try {
      setPng(canvas.current?.toDataURL("image/png"));
    } catch {
      // a canvas that cannot be read stays on screen as it is
    }
  }, [value]);
  return (
    <div className="qr" data-testid="h5-qr">
      {png ? <img src={png} alt={label} width={220} height={220} data-testid="h5-qr-image" /> : null}
      <QRCodeCanvas ref={canvas} value={value} size={440} marginSize={2} level="M" style={png ? { display: "none" } : { width: 220, height: 220 }} />
    </div>
  );
}
