/**
 * The load generator, in its own thread so that it does not share the server's event loop: `concurrency`
 * keep-alive clients post the given requests (taken round-robin) until `maxRequests` are done or `maxSeconds`
 * have passed, and answer the sorted latencies and the failures (anything but return_code SUCCESS, unless
 * `acceptedCodes` says otherwise).
 */
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";

export interface LoadRequest {
  path: string;
  body: Record<string, unknown>;
  token?: string;
}

export interface LoadJob {
  url: string;
  requests: LoadRequest[];
  concurrency: number;
  maxRequests: number;
  maxSeconds: number;
  acceptedCodes?: string[];
}

export interface LoadAnswer {
  latencies: number[];
  failures: number;
  seconds: number;
  /** a failing answer, to tell what went wrong */
  sampleFailure?: string;
}

function post(agent: http.Agent, base: URL, request: LoadRequest, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: "POST",
        path: `/weapi/${request.path}`,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...(request.token ? { "x-token": request.token } : {}) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve(text));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function run(job: LoadJob): Promise<LoadAnswer> {
  const base = new URL(job.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
  const bodies = job.requests.map((r) => JSON.stringify(r.body));
  const accepted = new Set(job.acceptedCodes ?? ["SUCCESS"]);
  const latencies: number[] = [];
  let failures = 0;
  let sampleFailure: string | undefined;
  let issued = 0;
  const started = performance.now();
  const deadline = started + job.maxSeconds * 1000;
  const client = async () => {
    while (issued < job.maxRequests && performance.now() < deadline) {
      const i = issued++ % job.requests.length;
      const t0 = performance.now();
      let code: string | undefined;
      let text = "";
      try {
        text = await post(agent, base, job.requests[i], bodies[i]);
        code = (JSON.parse(text) as { return_code?: string }).return_code;
      } catch (err) {
        text = String(err);
      }
      latencies.push(performance.now() - t0);
      if (!code || !accepted.has(code)) {
        failures++;
        sampleFailure ??= text.slice(0, 300);
      }
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, client));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { latencies, failures, seconds: (performance.now() - started) / 1000, sampleFailure };
}

if (parentPort) {
  const port = parentPort;
  void run(workerData as LoadJob).then((answer) => port.postMessage(answer));
}
