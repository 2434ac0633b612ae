/**
 * The upload control of images: antd's picture cards, each image sent to `POST /weapi/upload` (kind `image`, the
 * session's token in X-Token, server/uploads/) with its progress shown, the server's refusal shown under the cards
 * and on the failed card, a card removed with its delete action and, when several are held, moved with its arrows
 * or by dragging it; pictures may be chosen from the provider's photo library instead. Its value is the image's URL (single) or the URLs in their order (multiple), at most `max`.
 *
 * The browser checks the type and the size first (the server checks both again, by the content); a card keeps the
 * smallest variant the server made as its thumbnail. Loaded lazily by the form controls that use it (the image
 * field kind), so antd's upload stays out of the first page.
 */
import { LeftOutlined, PictureOutlined, PlusOutlined, RightOutlined } from "@ant-design/icons";
import { useTranslation } from "@refinedev/core";
import { Button, Image, Typography, Upload } from "antd";
import type { UploadFile, UploadProps } from "antd";
import { useEffect, useRef, useState, type DragEvent, type ReactNode } from "react";
import { getToken, resetToken } from "../../providers/session";
import { page, TOKEN_ERROR_RELOAD_MS } from "../../providers/weapi";
import { shownImageUrl } from "./fieldKinds/formats";
import { mayPickPhotos, PhotoPicker } from "./PhotoPicker";

export const UPLOAD_URL = "/weapi/upload";
/** the largest image the server takes (server/uploads/keys.ts UPLOAD_MAX_BYTES.image) */
export const IMAGE_MAX_MB = 10;
/** the image types the server takes (by content; the browser's type is a first check) */
export const IMAGE_ACCEPT = ["image/jpeg", "image/png", "image/webp", "image/gif"];
const DEFAULT_MAX_IMAGES = 9;

export interface ImageUploadProps {
  value?: string | string[] | null;
  onChange?: (value: string | string[] | null) => void;
  multiple?: boolean;
  /** the most images held (multiple); one when single */
  max?: number;
  "data-testid"?: string;
  disabled?: boolean;
}

/** What the upload answers (the /weapi/ envelope). */
interface UploadAnswer {
  return_code?: string;
  return_msg?: string;
  data?: { items?: { url?: string; key?: string; variants?: { width: number; url: string }[] } };
}

function urlsOf(value: ImageUploadProps["value"]): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string" && v !== "");
  return typeof value === "string" && value !== "" ? [value] : [];
}

function nameOf(url: string): string {
  return url.split("?")[0]!.split("/").pop() || url;
}

function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** How an image sent ended: its URL (and its smallest variant, for a thumbnail), or the server's refusal. */
export type SentImage = { url: string; thumb?: string } | { failure: string; network?: boolean };

/**
 * Sends one image to the upload operation with the session's token, reporting its progress; a session that has
 * ended signs out and reloads to the login page, as every /weapi/ call does. The request is answered to abort it.
 */
export function sendImage(file: File, on: { onProgress?: (percent: number) => void; onDone: (sent: SentImage) => void; onAbort?: () => void }, as: "user" | "applicant" = "user"): XMLHttpRequest {
  const xhr = new XMLHttpRequest();
  xhr.open("POST", UPLOAD_URL);
  xhr.withCredentials = true;
  const token = getToken();
  // an applicant of the registration page has no session: its address is what the server holds it to
  if (as === "applicant") xhr.setRequestHeader("X-Applicant", "1");
  else if (token) xhr.setRequestHeader("X-Token", token);
  xhr.upload.onprogress = (event) => {
    if (!event.lengthComputable || event.total === 0) return;
    on.onProgress?.(Math.min(99, Math.round((event.loaded / event.total) * 100)));
  };
  xhr.onload = () => {
    let answer: UploadAnswer | undefined;
    try {
      answer = JSON.parse(xhr.responseText) as UploadAnswer;
    } catch {
      answer = undefined;
    }
    const items = answer?.data?.items;
    if (answer?.return_code === "SUCCESS" && typeof items?.url === "string") {
      on.onDone({ url: items.url, thumb: items.variants?.[0]?.url });
      return;
    }
    on.onDone({ failure: answer?.return_msg ?? "" });
    if (answer?.return_code?.toLowerCase() === "token_error") {
      resetToken();
      setTimeout(() => page.reload(), TOKEN_ERROR_RELOAD_MS);
    }
  };
  xhr.onerror = () => on.onDone({ failure: "", network: true });
  xhr.onabort = () => on.onAbort?.();
  const form = new FormData();
  // the kind before the file: the server's cap is the kind's
  form.append("kind", "image");
  form.append("file", file, file.name);
  xhr.send(form);
  return xhr;
}

export function ImageUpload({ value, onChange, multiple = false, max, disabled = false, "data-testid": testId }: ImageUploadProps) {
  const { translate: t } = useTranslation();
  const limit = multiple ? Math.max(1, max ?? DEFAULT_MAX_IMAGES) : 1;
  const urls = urlsOf(value).slice(0, limit);
  // the value as last given or sent: uploads ending together each add to what the other left
  const latest = useRef(urls);
  latest.current = urls;
  const inFlight = useRef(0);
  const requests = useRef(new Map<string, XMLHttpRequest>());
  const thumbs = useRef(new Map<string, string>());
  const dragged = useRef<number | null>(null);
  const [pending, setPending] = useState<UploadFile[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);

  useEffect(() => {
    const open = requests.current;
    return () => open.forEach((xhr) => xhr.abort());
  }, []);

  const emit = (next: string[]) => {
    latest.current = next;
    onChange?.(multiple ? next : (next[0] ?? null));
  };

  const failed = (uid: string, message: string) => {
    setPending((list) => list.map((f) => (f.uid === uid ? { ...f, status: "error", percent: undefined, response: message, error: new Error(message) } : f)));
    setFailure(message);
  };

  const beforeUpload: UploadProps["beforeUpload"] = (file) => {
    if (!IMAGE_ACCEPT.includes(file.type)) {
      setFailure(t("uploads.not_image"));
      return Upload.LIST_IGNORE;
    }
    if (file.size > IMAGE_MAX_MB * 1024 * 1024) {
      setFailure(t("uploads.too_large", { max: IMAGE_MAX_MB }));
      return Upload.LIST_IGNORE;
    }
    if (latest.current.length + inFlight.current >= limit) {
      setFailure(t("uploads.max_reached", { count: limit }));
      return Upload.LIST_IGNORE;
    }
    inFlight.current += 1;
    setFailure(null);
    // a new choice clears the cards of earlier failures
    setPending((list) => list.filter((f) => f.status !== "error"));
    return true;
  };

  const customRequest: UploadProps["customRequest"] = ({ file }) => {
    const chosen = file as File & { uid: string };
    const uid = chosen.uid;
    setPending((list) => [...list, { uid, name: chosen.name, status: "uploading", percent: 0 }]);
    const settle = () => {
      requests.current.delete(uid);
      inFlight.current = Math.max(0, inFlight.current - 1);
    };
    const xhr = sendImage(chosen, {
      onProgress: (percent) => setPending((list) => list.map((f) => (f.uid === uid ? { ...f, percent } : f))),
      onDone: (sent) => {
        settle();
        if ("url" in sent) {
          if (sent.thumb) thumbs.current.set(sent.url, sent.thumb);
          setPending((list) => list.filter((f) => f.uid !== uid));
          emit(multiple ? [...latest.current, sent.url].slice(0, limit) : [sent.url]);
        } else {
          failed(uid, sent.failure || t(sent.network ? "errors.network" : "errors.system"));
        }
      },
      onAbort: settle,
    });
    requests.current.set(uid, xhr);
  };

  const onRemove = (file: UploadFile) => {
    if (pending.some((f) => f.uid === file.uid)) {
      requests.current.get(file.uid)?.abort();
      setPending((list) => list.filter((f) => f.uid !== file.uid));
      setFailure(null);
    } else if (file.url) {
      emit(latest.current.filter((url) => url !== file.url));
    }
    // the list is the value's: nothing for antd to remove itself
    return false;
  };

  const move = (from: number, to: number) => {
    if (to < 0 || to >= latest.current.length || from === to) return;
    emit(moved(latest.current, from, to));
  };

  // a card is known by its URL (and which of its copies it is), so that moving it moves its card
  const copies = new Map<string, number>();
  const done: UploadFile[] = urls.map((url) => {
    const copy = (copies.get(url) ?? 0) + 1;
    copies.set(url, copy);
    return { uid: `image:${copy}:${url}`, name: nameOf(url), status: "done", url, thumbUrl: shownImageUrl(thumbs.current.get(url) ?? url) };
  });
  const uploading = pending.filter((f) => f.status === "uploading").length;
  const full = urls.length + uploading >= limit;

  const itemRender: UploadProps["itemRender"] = (node, file) => {
    const index = done.findIndex((f) => f.uid === file.uid);
    if (!multiple || index < 0 || disabled) return node;
    const arrows: ReactNode = urls.length > 1 && (
      <div style={{ position: "absolute", left: 4, right: 4, bottom: 4, display: "flex", justifyContent: "space-between", pointerEvents: "none" }}>
        <Button
          size="small"
          icon={<LeftOutlined />}
          aria-label={t("uploads.move_left")}
          title={t("uploads.move_left")}
          disabled={index === 0}
          onClick={() => move(index, index - 1)}
          style={{ pointerEvents: "auto", visibility: index === 0 ? "hidden" : "visible" }}
          data-testid={testId ? `${testId}-left-${index}` : undefined}
        />
        <Button
          size="small"
          icon={<RightOutlined />}
          aria-label={t("uploads.move_right")}
          title={t("uploads.move_right")}
          disabled={index === urls.length - 1}
          onClick={() => move(index, index + 1)}
          style={{ pointerEvents: "auto", visibility: index === urls.length - 1 ? "hidden" : "visible" }}
          data-testid={testId ? `${testId}-right-${index}` : undefined}
        />
      </div>
    );
    return (
      <div
        draggable
        onDragStart={() => (dragged.current = index)}
        onDragOver={(event: DragEvent) => event.preventDefault()}
        onDrop={(event: DragEvent) => {
          event.preventDefault();
          if (dragged.current !== null) move(dragged.current, index);
          dragged.current = null;
        }}
        style={{ position: "relative", width: "100%", height: "100%", cursor: "move" }}
        data-testid={testId ? `${testId}-item-${index}` : undefined}
      >
        {node}
        {arrows}
      </div>
    );
  };

  return (
    <div data-testid={testId} className="image-upload">
      <Upload
        listType="picture-card"
        accept={IMAGE_ACCEPT.join(",")}
        multiple={multiple}
        disabled={disabled}
        fileList={[...done, ...pending]}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        onRemove={onRemove}
        onPreview={(file) => setPreview(file.url ? shownImageUrl(file.url) : null)}
        itemRender={itemRender}
        showUploadList={{ showPreviewIcon: true, showRemoveIcon: !disabled }}
        locale={{ uploading: t("uploads.uploading"), uploadError: t("uploads.failed"), removeFile: t("uploads.remove"), previewFile: t("uploads.preview") }}
      >
        {full || disabled ? null : (
          <button type="button" style={{ border: 0, background: "none", cursor: "pointer" }} data-testid={testId ? `${testId}-add` : undefined}>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>{t("uploads.upload")}</div>
          </button>
        )}
      </Upload>
      {!full && !disabled && mayPickPhotos() && (
        <Button size="small" icon={<PictureOutlined />} onClick={() => setPicking(true)} data-testid={testId ? `${testId}-library` : undefined}>
          {t("photos.pick")}
        </Button>
      )}
      {picking && <PhotoPicker open max={limit - urls.length - uploading} onChoose={(chosen) => emit(multiple ? [...latest.current, ...chosen].slice(0, limit) : chosen.slice(0, 1))} onClose={() => setPicking(false)} />}
      {failure && (
        <Typography.Text type="danger" data-testid={testId ? `${testId}-error` : undefined}>
          {failure}
        </Typography.Text>
      )}
      {preview && <Image style={{ display: "none" }} src={preview} preview={{ visible: true, src: preview, onVisibleChange: (visible) => !visible && setPreview(null) }} />}
    </div>
  );
}

export default ImageUpload;
