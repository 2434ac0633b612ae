import pg from "pg";
import { startTestServer, api } from "./tests/helpers/server";
import { seedScale } from "./server/seed/scale";
const admin = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:5432/test" });
await admin.connect();
const name = `perf_${Date.now()}`;
await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
const server = await startTestServer({ rateLimit: false, staticDir: null, databaseUrl: `postgres://postgres@127.0.0.1:5432/${name}`, seedDemo: true });
try {
  const t0 = performance.now();
  const seeded = await seedScale(server.server.database.db, { scale: Number(process.env.SCALE ?? 100), now: new Date() });
  console.log("seeded", ((performance.now() - t0) / 1000).toFixed(0), "s");
  await server.server.database.db.execute("ANALYZE" as never).catch(() => undefined);
  const token = String((await api(server.url, "adminapi", "login", { username: "svc", password: "demo1234" })).data?.token);
  const schId = seeded.schoolIds[0];
  const cases: [string, Record<string, unknown>][] = [
    ["payservicestatis", { dimension: "day", page: 1, limit: 31 }],
    ["payservicestatis", { dimension: "month", page: 1, limit: 31 }],
    ["paystatis", { dimension: "sch_id", page: 1, limit: 31 }],
    ["schoolstatis", { dimension: "sch_id", page: 1, limit: 50 }],
    ["schoolstatis", { dimension: "grade_id", sch_id: schId, page: 1, limit: 50 }],
    ["schoolstatis", { dimension: "class_id", sch_id: schId, page: 1, limit: 50 }],
    ["schoolstatis", { dimension: "student_id", sch_id: schId, page: 1, limit: 50 }],
  ];
  for (const [method, payload] of cases) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) { const s = performance.now(); const r = await api(server.url, "adminapiv2", method, payload, token); times.push(performance.now() - s); if (r.return_code !== "SUCCESS") throw new Error(r.return_msg); }
    times.sort((a, b) => a - b);
    console.log(method, JSON.stringify(payload), "median", times[2].toFixed(0), "ms");
  }
} finally {
  await server.close();
  const dropper = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:5432/test" });
  await dropper.connect(); await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`); await dropper.end();
}
