/**
 * A channel QR code's poster (record tool "qrposter" of `qrchnl`): an A4 page with the school's name, what is
 * collected, the QR code of the payer page and how to use it, drawn once on a canvas (A4 at 150 dpi), shown as a
 * preview, printed on A4 through a frame of its own (no console around it) or downloaded as a PNG.
 */
import { Alert, Button, Modal, Space, Spin } from "antd";
import { DownloadOutlined, PrinterOutlined } from "@ant-design/icons";
import { useTranslation } from "@refinedev/core";
import { QRCodeCanvas } from "qrcode.react";
import { useEffect, useRef, useState } from "react";
import type { RecordToolProps } from "..";

/** A4 at 150 dpi */
const WIDTH = 1240;
const HEIGHT = 1754;
const MARGIN = 90;
const QR_SIZE = 760;
const BAND_HEIGHT = 300;
const THEME = "#1890ff";
const FONT = `"PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif`;

/** The lines (at most `maxLines`) and font size a text takes within `width`: shrunk down to `minSize`, then wrapped. */
function fitText(ctx: CanvasRenderingContext2D, text: string, width: number, size: number, minSize: number, weight: string, maxLines = 2): { lines: string[]; size: number } {
  for (let s = size; s >= minSize; s -= 2) {
    ctx.font = `${weight} ${s}px ${FONT}`;
    if (ctx.measureText(text).width <= width) return { lines: [text], size: s };
  }
  ctx.font = `${weight} ${minSize}px ${FONT}`;
  const lines: string[] = [];
  let line = "";
  for (const char of Array.from(text)) {
    if (ctx.measureText(line + char).width > width && line) {
      lines.push(line);
      line = "";
      if (lines.length === maxLines) break;
    }
    line += char;
  }
  if (lines.length < maxLines && line) lines.push(line);
  else if (lines.length === maxLines) lines[maxLines - 1] = `${lines[maxLines - 1].slice(0, -1)}…`;
  return { lines, size: minSize };
}

/**
 * Draws `text` centred across the page, fitted to its width, from `at.top` or with its middle on `at.middle`;
 * answers where the next text may start.
 */
function drawCentred(ctx: CanvasRenderingContext2D, text: string, at: { top: number } | { middle: number }, size: number, minSize: number, color: string, weight = "normal"): number {
  const fitted = fitText(ctx, text, WIDTH - 2 * MARGIN, size, minSize, weight);
  ctx.fillStyle = color;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  const lineHeight = Math.round(fitted.size * 1.35);
  const start = "top" in at ? at.top : at.middle - (fitted.lines.length * lineHeight) / 2;
  fitted.lines.forEach((line, i) => ctx.fillText(line, WIDTH / 2, start + i * lineHeight));
  return start + fitted.lines.length * lineHeight;
}

interface PosterTexts {
  school: string;
  collects: string;
  codeTitle: string;
  scan: string;
  footer: string;
}

function drawPoster(qr: HTMLCanvasElement, texts: PosterTexts): string {
  const canvas = document.createElement("canvas");
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const ctx = canvas.getContext("2d")!;
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  ctx.fillStyle = THEME;
  ctx.fillRect(0, 0, WIDTH, BAND_HEIGHT);
  drawCentred(ctx, texts.school, { middle: BAND_HEIGHT / 2 }, 76, 48, "#ffffff", "bold");

  let top = BAND_HEIGHT + 70;
  top = drawCentred(ctx, texts.collects, { top }, 52, 34, "#1f1f1f", "bold") + 10;
  top = drawCentred(ctx, texts.codeTitle, { top }, 34, 26, "#8c8c8c") + 40;

  const frame = 24;
  const left = (WIDTH - QR_SIZE) / 2;
  ctx.strokeStyle = "#d9d9d9";
  ctx.lineWidth = 4;
  ctx.strokeRect(left - frame, top, QR_SIZE + 2 * frame, QR_SIZE + 2 * frame);
  ctx.drawImage(qr, left, top + frame, QR_SIZE, QR_SIZE);
  top += QR_SIZE + 2 * frame + 50;

  top = drawCentred(ctx, texts.scan, { top }, 46, 30, "#1f1f1f", "bold") + 16;
  drawCentred(ctx, texts.footer, { top }, 30, 24, "#8c8c8c");
  return canvas.toDataURL("image/png");
}

/** Prints the poster on one A4 page, through a frame holding the image alone. */
function printPoster(dataUrl: string, title: string): void {
  const frame = document.createElement("iframe");
  frame.setAttribute("aria-hidden", "true");
  frame.style.cssText = "position:fixed;right:0;bottom:0;width:0;height:0;border:0";
  document.body.appendChild(frame);
  const doc = frame.contentDocument!;
  doc.title = title;
  const style = doc.createElement("style");
  style.textContent = "@page { size: A4; margin: 0 } html, body { margin: 0 } img { display: block; width: 210mm; height: 297mm }";
  doc.head.appendChild(style);
  const img = doc.createElement("img");
  img.alt = title;
  img.onload = () => {
    frame.contentWindow!.focus();
    frame.contentWindow!.print();
    // the print dialog has taken its copy
    setTimeout(() => frame.remove(), 1000);
  };
  img.src = dataUrl;
  doc.body.appendChild(img);
}

export default function QrPosterDialog({ record, onClose }: RecordToolProps) {
  const { translate } = useTranslation();
  const qrRef = useRef<HTMLCanvasElement>(null);
  const [poster, setPoster] = useState<string>();
  const url = String(record.url ?? "");
  const title = String(record.title ?? "");
  const school = String(record.sch_title ?? "");
  const activity = record.activity_title ? String(record.activity_title) : "";

  useEffect(() => {
    // the QR canvas is drawn by its own effect, which runs before this one
    if (!qrRef.current) return;
    setPoster(
      drawPoster(qrRef.current, {
        school,
        collects: activity || translate("collection.poster.all_activities"),
        codeTitle: title,
        scan: translate("collection.poster.scan"),
        footer: translate("collection.poster.footer"),
      }),
    );
  }, [school, activity, title, url, translate]);

  const filename = `${school ? `${school}-` : ""}${title}.png`.replace(/[\\/:*?"<>|]/g, "_");
  return (
    <Modal
      open
      title={translate("collection.poster.title")}
      onCancel={onClose}
      width={520}
      footer={
        <Space wrap>
          <Button icon={<PrinterOutlined />} disabled={!poster} data-testid="poster-print" onClick={() => poster && printPoster(poster, title)}>
            {translate("collection.poster.print")}
          </Button>
          <Button type="primary" icon={<DownloadOutlined />} disabled={!poster} href={poster} download={filename} data-testid="poster-download">
            {translate("collection.poster.download")}
          </Button>
        </Space>
      }
    >
      {record.status === "0" && <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={translate("collection.poster.disabled")} />}
      <div style={{ display: "none" }}>
        <QRCodeCanvas ref={qrRef} value={url} size={QR_SIZE} level="M" marginSize={2} />
      </div>
      {poster ? (
        <img src={poster} alt={translate("collection.poster.title")} data-testid="poster-image" style={{ width: "100%", border: "1px solid #f0f0f0" }} />
      ) : (
        <Spin tip={translate("collection.poster.making")}>
          <div style={{ height: 320 }} />
        </Spin>
      )}
    </Modal>
  );
}
