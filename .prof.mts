import { startTestServer, api } from "./tests/helpers/server";
import { seedScale } from "./server/seed/scale";
const server = await startTestServer({ rateLimit: false, staticDir: null });
await seedScale(server.server.database.db, { scale: 2, now: new Date() });
const token = String((await api(server.url, "adminapi", "login", { username: "svc", password: "demo1234" })).data?.token);
const { Session } = await import("node:inspector/promises");
const session = new Session(); session.connect();
await session.post("Profiler.enable"); await session.post("Profiler.start");
const t1 = performance.now();
const id = ((await api(server.url, "adminapiv2", "orderexport", {}, token)).data?.items as { job_id: number }).job_id;
let item: any = {};
for (;;) { await new Promise((r) => setTimeout(r, 100)); item = (await api(server.url, "adminapiv2", "downloadinfo", { id }, token)).data?.items; if (item.status === "done" || item.status === "failed") break; }
const { profile } = await session.post("Profiler.stop");
console.log(item.rows, "rows", ((performance.now() - t1) / 1000).toFixed(1), "s");
// self time by function
const self = new Map<string, number>();
const nodes = new Map(profile.nodes.map((n: any) => [n.id, n]));
const dt = profile.timeDeltas; const samples = profile.samples;
for (let i = 0; i < samples.length; i++) { const n: any = nodes.get(samples[i]); const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + dt[i]); }
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${(v / 1000).toFixed(0)}ms ${k}`).join("\n"));
await server.close();
