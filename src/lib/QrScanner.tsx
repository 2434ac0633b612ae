/**
 * A QR code read from the camera (the back one on a phone): the browser's own BarcodeDetector where it reads QR
 * codes (Chrome on Android and macOS), else the ZXing decoder, loaded only when a scan starts on a browser without
 * one (Safari, Firefox, Chrome on Windows and Linux). Answers the first code seen; the camera stops when the scanner
 * closes.
 */
import { Alert, Button, Space } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

interface NativeDetector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
interface NativeDetectorClass {
  new (options: { formats: string[] }): NativeDetector;
  getSupportedFormats?(): Promise<string[]>;
}

/** how often a frame is looked at: often enough to feel instant, seldom enough to spare a phone's battery */
const SCAN_INTERVAL_MS = 250;

/** Whether this browser can open a camera at all (a page served over https or from this machine). */
export function canOpenCamera(): boolean {
  return typeof navigator !== "undefined" && typeof navigator.mediaDevices?.getUserMedia === "function";
}

/** The browser's own QR decoder, where it has one that reads QR codes. */
async function nativeDetector(): Promise<NativeDetector | null> {
  const Native = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (!Native) return null;
  const formats = (await Native.getSupportedFormats?.().catch(() => [])) ?? ["qr_code"];
  return formats.includes("qr_code") ? new Native({ formats: ["qr_code"] }) : null;
}

/** Reads codes from the stream shown in `video` until stopped; answers the stop. */
async function readCodes(stream: MediaStream, video: HTMLVideoElement, onCode: (code: string) => void): Promise<() => void> {
  const detector = await nativeDetector();
  if (!detector) {
    const { BrowserQRCodeReader } = await import("@zxing/browser");
    const reader = new BrowserQRCodeReader(undefined, { delayBetweenScanAttempts: SCAN_INTERVAL_MS });
    const controls = await reader.decodeFromStream(stream, video, (result) => {
      if (result) onCode(result.getText());
    });
    return () => controls.stop();
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const look = async () => {
    if (stopped) return;
    const [seen] = await detector.detect(video).catch(() => []);
    if (seen?.rawValue) onCode(seen.rawValue);
    else if (!stopped) timer = setTimeout(() => void look(), SCAN_INTERVAL_MS);
  };
  video.srcObject = stream;
  await video.play();
  void look();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

export function QrScanner({ onCode, onClose }: { onCode: (code: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  // the latest callback, so that a parent's re-render does not restart the camera
  const latestOnCode = useRef(onCode);
  latestOnCode.current = onCode;

  useEffect(() => {
    let stream: MediaStream | undefined;
    let stopReading: (() => void) | undefined;
    let closed = false;
    let answered = false;
    const stopAll = () => {
      stopReading?.();
      stream?.getTracks().forEach((track) => track.stop());
    };
    const seen = (code: string) => {
      if (answered || closed) return;
      answered = true;
      stopAll();
      latestOnCode.current(code.trim());
    };
    (async () => {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
      if (closed || !video.current) return stopAll();
      stopReading = await readCodes(stream, video.current, seen);
      if (closed) stopAll();
    })().catch(() => {
      stopAll();
      if (!closed) setFailed(true);
    });
    return () => {
      closed = true;
      stopAll();
    };
  }, []);

  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      {failed ? (
        <Alert type="warning" showIcon message={t("retail.scan.camera_failed")} />
      ) : (
        <video ref={video} muted playsInline data-testid="qr-scanner-video" style={{ width: "100%", maxWidth: 420, borderRadius: 8, background: "#000" }} />
      )}
      <Button onClick={onClose}>{t("crud.back")}</Button>
    </Space>
  );
}
