import { startTestServer, api } from "./tests/helpers/server";
import { seedScale } from "./server/seed/scale";
const scale = Number(process.env.SCALE ?? 20);
const server = await startTestServer({ rateLimit: false, staticDir: null });
const t0 = performance.now();
await seedScale(server.server.database.db, { scale, now: new Date() });
console.log("seeded", ((performance.now() - t0) / 1000).toFixed(0), "s; rss", (process.memoryUsage().rss / 1048576).toFixed(0));
const token = String((await api(server.url, "adminapi", "login", { username: "svc", password: "demo1234" })).data?.token);
const t1 = performance.now();
const asked = await api(server.url, "adminapiv2", "orderexport", {}, token);
const id = (asked.data?.items as { job_id: number }).job_id;
let peak = 0; let item: any = {};
for (;;) {
  await new Promise((r) => setTimeout(r, 250));
  peak = Math.max(peak, process.memoryUsage().rss);
  item = (await api(server.url, "adminapiv2", "downloadinfo", { id }, token)).data?.items;
  if (item.status === "done" || item.status === "failed") break;
}
console.log(item.status, item.rows, "rows", (item.size / 1048576).toFixed(1), "MB in", ((performance.now() - t1) / 1000).toFixed(1), "s; peak rss", (peak / 1048576).toFixed(0), "MB; heap", (process.memoryUsage().heapUsed/1048576).toFixed(0));
await server.close();
