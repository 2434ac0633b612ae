/** Files the SPA saves in component tests: its anchor downloads are caught and their blobs kept. */
import { vi } from "vitest";

/** Saved files: the anchor downloads are caught, the blobs kept (undone by vi.restoreAllMocks and vi.unstubAllGlobals). */
export function catchDownloads(): { filename: string; blob: Blob }[] {
  const saved: { filename: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  let next = 0;
  vi.stubGlobal(
    "URL",
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        const url = `blob:test/${++next}`;
        blobs.set(url, blob);
        return url;
      },
      revokeObjectURL: () => undefined,
    }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) saved.push({ filename: this.download, blob });
  });
  return saved;
}
