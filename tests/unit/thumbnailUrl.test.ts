/**
 * A grid of many pictures (the photo library, its picker) shows each at the narrowest width the server keeps of it
 * (server/uploads/images.ts IMAGE_WIDTHS[0], kept of every image wider than it): the console's `thumbnailUrl` names
 * that copy of such an image, and any other image as it is.
 */
import { describe, expect, it } from "vitest";
import { IMAGE_WIDTHS, variantWidths } from "../../server/uploads/images";
import { thumbnailUrl } from "../../src/engine/fieldKinds/formats";

const hash = "ab".repeat(32);

describe("thumbnailUrl", () => {
  it("names the narrowest copy the server keeps of a wider image, from the page's own address", () => {
    for (const width of [481, 1080]) {
      expect(variantWidths(width)).toContain(IMAGE_WIDTHS[0]);
      expect(thumbnailUrl(`https://pay.example.com/files/img/${hash}_${width}.webp`)).toBe(`/files/img/${hash}_${IMAGE_WIDTHS[0]}.webp`);
    }
  });

  it("keeps an image no wider than that copy, and an address of elsewhere, as they are", () => {
    expect(thumbnailUrl(`https://pay.example.com/files/img/${hash}_${IMAGE_WIDTHS[0]}.webp`)).toBe(`/files/img/${hash}_${IMAGE_WIDTHS[0]}.webp`);
    expect(thumbnailUrl(`https://pay.example.com/files/img/${hash}_120.webp`)).toBe(`/files/img/${hash}_120.webp`);
    expect(thumbnailUrl("https://img.example.com/summer.jpg")).toBe("https://img.example.com/summer.jpg");
  });
});
