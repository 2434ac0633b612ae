/** Files the console hands to the user: the answers of export and template operations, and files made in the page. */

/** A file as the export and template operations answer it (data.items). */
export interface ExportFile {
  filename: string;
  mime: string;
  content_base64: string;
}

/** Saves a file through the browser's download. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** Saves a file an operation answered. */
export function saveFile({ filename, mime, content_base64 }: ExportFile): void {
  const bytes = Uint8Array.from(atob(content_base64), (c) => c.charCodeAt(0));
  saveBlob(new Blob([bytes], { type: mime }), filename);
}
