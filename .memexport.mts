import { startTestServer, api } from "./tests/helpers/server";
import { seedScale } from "./server/seed/scale";
const scale = Number(process.env.SCALE ?? 5);
const server = await startTestServer({ rateLimit: false, staticDir: null });
await seedScale(server.server.database.db, { scale, now: new Date() });
const mb = (n: number) => (n / 1048576).toFixed(0);
(globalThis as any).gc?.();
console.log("after seed rss", mb(process.memoryUsage().rss), "heap", mb(process.memoryUsage().heapUsed));
const token = String((await api(server.url, "adminapi", "login", { username: "svc", password: "demo1234" })).data?.token);
for (let round = 0; round < 2; round++) {
  const t1 = performance.now();
  const id = ((await api(server.url, "adminapiv2", "orderexport", {}, token)).data?.items as { job_id: number }).job_id;
  let peak = 0; let peakHeap = 0; let item: any = {};
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    (globalThis as any).gc?.();
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss); peakHeap = Math.max(peakHeap, m.heapUsed + m.external);
    item = (await api(server.url, "adminapiv2", "downloadinfo", { id }, token)).data?.items;
    if (item.status === "done" || item.status === "failed") break;
  }
  (globalThis as any).gc?.();
  console.log(item.status, item.rows, "rows in", ((performance.now() - t1) / 1000).toFixed(1), "s; peak rss", mb(peak), "peak heap+external after gc", mb(peakHeap), "after gc heap", mb(process.memoryUsage().heapUsed), "rss", mb(process.memoryUsage().rss));
}
await server.close();
