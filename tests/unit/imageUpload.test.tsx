/**
 * The image upload control (src/engine/ImageUpload.tsx): each chosen image goes to /weapi/upload as a form (the
 * kind before the file) with the session's token, its progress shows, and its URL joins the value once the server
 * answers; the server's refusal is shown; images are removed and moved; no more than `max` are held; the type and
 * size are checked before anything is sent. The image field kind's control uploads through it and keeps the box an
 * address may be pasted in. Only the network (XMLHttpRequest) is fake.
 */
import { useState } from "react";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { ConfigProvider } from "antd";
import { Route } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { FieldDecl } from "../../common/catalogue";
import { changeLanguage, i18n } from "../../providers/i18n";
import { ImageUpload } from "../../src/engine/ImageUpload";
import { imageKind, shownImageUrl } from "../../src/engine/fieldKinds/formats";
import { renderCrud } from "../helpers/renderCrud";
import { clearCookies, setCookies } from "../helpers/weapiFetch";

/** A request as the control makes it; the test answers it. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: FormData | null = null;
  withCredentials = false;
  status = 0;
  responseText = "";
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total }));
  }
  answer(envelope: unknown) {
    this.status = 200;
    this.responseText = JSON.stringify(envelope);
    act(() => this.onload?.());
  }
}

const uploadedAs = (name: string) => ({
  return_code: "SUCCESS",
  return_msg: "Uploaded",
  data: { items: { url: `http://console.test/files/img/${name}_1080.webp`, key: `img/${name}_1080.webp`, width: 1080, height: 720, variants: [{ width: 160, height: 107, key: `img/${name}_160.webp`, url: `http://console.test/files/img/${name}_160.webp` }] } },
});

function Harness({ initial, multiple, max }: { initial: string | string[] | null; multiple?: boolean; max?: number }) {
  const [value, setValue] = useState<string | string[] | null>(initial);
  return (
    <>
      <ImageUpload value={value} onChange={setValue} multiple={multiple} max={max} data-testid="pics" />
      <output data-testid="value">{JSON.stringify(value)}</output>
    </>
  );
}

// without motion a card removed leaves at once (jsdom ends no CSS transition)
const render = (ui: React.ReactElement) => renderCrud("/uploadtest", <Route path="uploadtest" element={<ConfigProvider theme={{ token: { motion: false } }}>{ui}</ConfigProvider>} />);
const shown = () => JSON.parse(screen.getByTestId("value").textContent ?? "null") as unknown;

function choose(files: File[], within = "pics") {
  const input = screen.getByTestId(within).querySelector<HTMLInputElement>("input[type=file]");
  if (!input) throw new Error("no file input");
  fireEvent.change(input, { target: { files } });
}

const png = (name = "photo.png", size = 2048) => new File([new Uint8Array(size)], name, { type: "image/png" });
const t = (key: string, options?: Record<string, unknown>) => String(i18n.t(key, options));

describe("image upload control", { timeout: 20000 }, () => {
  beforeAll(async () => {
    await changeLanguage("en");
  });
  beforeEach(() => {
    FakeXhr.sent = [];
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    clearCookies();
    setCookies({ token: "tok-123", select_user_type: "service", login_user_type: "service", servicer_ver: "v2", language: "en" });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("sends the image with the token, the kind first, shows its progress and adds its URL to the value", async () => {
    render(<Harness initial={["http://console.test/files/img/a_1080.webp"]} multiple max={3} />);
    await screen.findByTestId("pics-add");
    choose([png()]);
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const request = FakeXhr.sent[0]!;
    expect([request.method, request.url, request.headers["X-Token"], request.withCredentials]).toEqual(["POST", "/weapi/upload", "tok-123", true]);
    expect([...request.body!.keys()]).toEqual(["kind", "file"]);
    expect(request.body!.get("kind")).toBe("image");
    expect((request.body!.get("file") as File).name).toBe("photo.png");

    request.progress(512, 1024);
    await waitFor(() => expect(screen.getByTestId("pics").querySelector(".ant-progress")).not.toBeNull());
    request.answer(uploadedAs("b"));
    await waitFor(() => expect(shown()).toEqual(["http://console.test/files/img/a_1080.webp", "http://console.test/files/img/b_1080.webp"]));
    // the new card shows the smallest variant
    await waitFor(() => expect(screen.getByTestId("pics").querySelector('img[src="http://console.test/files/img/b_160.webp"]')).not.toBeNull());
  });

  it("shows the server's images from the console's own address, whichever address their URL names", async () => {
    const hash = "ab".repeat(32);
    const kept = `http://192.168.1.20:8080/files/img/${hash}_480.webp`;
    const elsewhere = "https://cdn.example.com/files/img/logo.png";
    render(<Harness initial={[kept, elsewhere]} multiple />);
    await screen.findByTestId("pics-add");
    const sources = [...screen.getByTestId("pics").querySelectorAll("img")].map((img) => img.getAttribute("src"));
    expect(sources).toEqual([`/files/img/${hash}_480.webp`, elsewhere]);
    expect(shownImageUrl(`${kept}?x=1`)).toBe(`${kept}?x=1`);
    expect(shownImageUrl("not a url")).toBe("not a url");
  });

  it("shows the server's refusal and keeps the value", async () => {
    render(<Harness initial={null} />);
    choose([png("notes.png")]);
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const message = t("uploads.not_image");
    FakeXhr.sent[0]!.answer({ return_code: "FAIL", return_msg: message, data: { errors: [{ field: "file", message }] } });
    expect((await screen.findByTestId("pics-error")).textContent).toBe(message);
    expect(shown()).toBeNull();
    expect(screen.getByTestId("pics").querySelector(".ant-upload-list-item-error")).not.toBeNull();
    // the next choice clears it
    choose([png("photo.png")]);
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    FakeXhr.sent[1]!.answer(uploadedAs("e"));
    await waitFor(() => expect(shown()).toBe("http://console.test/files/img/e_1080.webp"));
    expect(screen.getByTestId("pics").querySelector(".ant-upload-list-item-error")).toBeNull();
    expect(screen.queryByTestId("pics-error")).toBeNull();
  });

  it("checks the type and the size before sending anything", async () => {
    render(<Harness initial={null} />);
    choose([new File(["hello"], "notes.txt", { type: "text/plain" })]);
    expect((await screen.findByTestId("pics-error")).textContent).toBe(t("uploads.not_image"));
    choose([png("huge.png", 10 * 1024 * 1024 + 1)]);
    await waitFor(() => expect(screen.getByTestId("pics-error").textContent).toBe(t("uploads.too_large", { max: 10 })));
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it("is one URL when single, and offers no second upload while it holds one", async () => {
    render(<Harness initial={null} />);
    choose([png()]);
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.answer(uploadedAs("c"));
    await waitFor(() => expect(shown()).toBe("http://console.test/files/img/c_1080.webp"));
    expect(screen.queryByTestId("pics-add")).toBeNull();
    fireEvent.click(screen.getByTitle(t("uploads.remove")));
    await waitFor(() => expect(shown()).toBeNull());
    expect(await screen.findByTestId("pics-add")).toBeTruthy();
  });

  it("moves and removes images, and holds at most max", async () => {
    const [a, b, c] = ["a", "b", "c"].map((n) => `http://console.test/files/img/${n}_1080.webp`);
    render(<Harness initial={[a!, b!]} multiple max={3} />);
    fireEvent.click(await screen.findByTestId("pics-right-0"));
    await waitFor(() => expect(shown()).toEqual([b, a]));
    fireEvent.click(screen.getByTestId("pics-left-1"));
    await waitFor(() => expect(shown()).toEqual([a, b]));

    // two chosen with one place left: one is sent, the other refused
    choose([png("1.png"), png("2.png")]);
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    expect((await screen.findByTestId("pics-error")).textContent).toBe(t("uploads.max_reached", { count: 3 }));
    FakeXhr.sent[0]!.answer(uploadedAs("c"));
    await waitFor(() => expect(shown()).toEqual([a, b, c]));
    expect(screen.queryByTestId("pics-add")).toBeNull();

    // dragged from the last place to the first
    fireEvent.dragStart(screen.getByTestId("pics-item-2"));
    fireEvent.dragOver(screen.getByTestId("pics-item-0"));
    fireEvent.drop(screen.getByTestId("pics-item-0"));
    await waitFor(() => expect(shown()).toEqual([c, a, b]));

    fireEvent.click(screen.getAllByTitle(t("uploads.remove"))[1]!);
    await waitFor(() => expect(shown()).toEqual([c, b]));
    expect(await screen.findByTestId("pics-add")).toBeTruthy();
  });

  it("is the image field's control: an upload fills the field, and an address may still be pasted", async () => {
    const field: FieldDecl = { name: "icon", type: "image", label: "site.field.icon" };
    const changes: unknown[] = [];
    const { Control } = imageKind;
    render(<>{Control({ field, t, value: "", onChange: (v) => changes.push(v), "data-testid": "field-icon", id: "icon" })}</>);
    const box = screen.getByTestId("field-icon") as HTMLInputElement;
    expect(box.tagName).toBe("INPUT");
    expect(box.id).toBe("icon");
    fireEvent.change(box, { target: { value: "https://cdn.example.com/logo.png" } });
    expect(changes).toEqual(["https://cdn.example.com/logo.png"]);

    // the upload control arrives lazily beside the box
    await screen.findByTestId("field-icon-upload-add");
    choose([png()], "field-icon-upload");
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.answer(uploadedAs("d"));
    await waitFor(() => expect(changes.at(-1)).toBe("http://console.test/files/img/d_1080.webp"));
  });
});
