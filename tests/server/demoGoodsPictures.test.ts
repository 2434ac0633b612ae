/**
 * The demo goods' pictures (server/seed/goodsImages.ts): a server started on the seeded demo serves every goods
 * item's pictures (one to three) and its SKUs' own, as uploaded images are served (WebP from /files/img/, cached for
 * good), a colour's SKUs showing that colour's picture. On the embedded database.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { goods, goodsSkus } from "../../server/db/schema";
import { describeOnEmbedded, seededServerDatabase } from "../helpers/db";
import { startTestServer, type TestServer } from "../helpers/server";
import { TEST_PASSWORD_COST } from "./support";

describeOnEmbedded("the demo goods' pictures", (kind) => {
  let server: TestServer;
  let database: Awaited<ReturnType<typeof seededServerDatabase>> | undefined;
  beforeAll(async () => {
    // a copy of the seeded demo, whose upload store starts empty: the server stores the pictures when it starts
    database = await seededServerDatabase(kind);
    server = await startTestServer({ dataDir: database.dataDir, seedDemo: false, passwordCost: TEST_PASSWORD_COST, staticDir: null });
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  /** the picture as the console and the payer page load it: the server's own path, whichever host the address names */
  const served = async (url: string) => {
    // one connection a picture, closed with its answer: none is left open for the server's stop to wait on
    const res = await fetch(`${server.url}${new URL(url).pathname}`, { headers: { connection: "close" } });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, type: res.headers.get("content-type"), cache: res.headers.get("cache-control"), bytes: body.length };
  };

  it("serves one to three pictures of every goods item", async () => {
    const db = server.server.database.db;
    const items = await db.select({ title: goods.title, images: goods.images }).from(goods).orderBy(asc(goods.id));
    expect(items.length).toBeGreaterThanOrEqual(5);
    for (const item of items) {
      expect(item.images?.length ?? 0, item.title).toBeGreaterThanOrEqual(1);
      expect(item.images!.length, item.title).toBeLessThanOrEqual(3);
      for (const url of item.images!) {
        expect(url, item.title).toMatch(/^https?:\/\/[^/]+\/files\/img\/[0-9a-f]{64}_\d+\.webp$/);
        const answer = await served(url);
        expect(answer, `${item.title}: ${url}`).toMatchObject({ status: 200, type: "image/webp" });
        expect(answer.cache).toContain("immutable");
        expect(answer.bytes).toBeGreaterThan(500);
      }
    }
  });

  it("gives the SKUs of a colour that colour's picture, and serves each", async () => {
    const db = server.server.database.db;
    const rows = await db
      .select({ title: goods.title, images: goods.images, specs: goodsSkus.spec_values, image: goodsSkus.image })
      .from(goodsSkus)
      .innerJoin(goods, eq(goods.id, goodsSkus.goods_id))
      .where(eq(goods.title, "夏季校服短袖套装"));
    const byColour = (colour: string) => new Set(rows.filter((r) => r.specs["颜色"] === colour).map((r) => r.image));
    const [navy, white] = [byColour("藏青"), byColour("白色")];
    expect([navy.size, white.size]).toEqual([1, 1]);
    const [navyPicture, whitePicture] = [[...navy][0]!, [...white][0]!];
    expect(navyPicture).not.toBe(whitePicture);
    // the goods item shows both colours among its pictures
    expect(rows[0].images).toEqual(expect.arrayContaining([navyPicture, whitePicture]));
    const skuPictures = new Set((await db.select({ image: goodsSkus.image }).from(goodsSkus)).map((r) => r.image).filter((url): url is string => Boolean(url)));
    expect(skuPictures.size).toBeGreaterThanOrEqual(4);
    for (const url of skuPictures) expect(await served(url), url).toMatchObject({ status: 200, type: "image/webp" });
  });
});
