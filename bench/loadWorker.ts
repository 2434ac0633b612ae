/**
 * The load generator, in its own thread so that it does not share the server's event loop: `concurrency`
 * keep-alive clients post the given requests (taken round-robin) until `maxRequests` are done or `maxSeconds`
 * have passed, and answer the sorted latencies and the failures (anything but return_code SUCCESS, unless
 * `acceptedCodes` says otherwise).
 *
 * Each client is a plain TCP connection that writes requests encoded once and reads answers by their
 * Content-Length, as wrk and autocannon do: the load generator shares the machine's two cores with the server
 * and the database, and node:http's client costs several times what the server spends on a small answer, so
 * with it the figures measured mostly the load generator.
 */
import net from "node:net";
import { parentPort, workerData } from "node:worker_threads";

/** What a bounded load measured: requests answered, failures, time, and latency percentiles in ms. */
export interface LoadResult {
  count: number;
  failures: number;
  seconds: number;
  p50: number;
  p95: number;
  p99: number;
}

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

function encodeRequest(base: URL, request: LoadRequest): Buffer {
  const body = Buffer.from(JSON.stringify(request.body));
  const head = [
    `POST /weapi/${request.path} HTTP/1.1`,
    `Host: ${base.host}`,
    "Content-Type: application/json",
    `Content-Length: ${body.length}`,
    ...(request.token ? [`X-Token: ${request.token}`] : []),
  ];
  return Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), body]);
}

interface Answer {
  status: number;
  body: string;
}

const HEADER_END = Buffer.from("\r\n\r\n");

/**
 * One keep-alive connection that sends a request and reads its answer, one at a time. An answer without
 * Content-Length (chunked) is refused: the /weapi/ server always sends its length.
 */
class Connection {
  private socket: net.Socket;
  private pending: Buffer = Buffer.alloc(0);
  private waiting?: { resolve(answer: Answer): void; reject(err: Error): void };

  constructor(base: URL) {
    this.socket = net.connect({ host: base.hostname, port: Number(base.port) });
    this.socket.setNoDelay(true);
    this.socket.on("data", (chunk: Buffer) => {
      this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
      this.readAnswer();
    });
    const fail = (err: Error) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.reject(err);
    };
    this.socket.on("error", fail);
    this.socket.on("close", () => fail(new Error("the server closed the connection")));
  }

  send(request: Buffer): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(request);
    });
  }

  private readAnswer(): void {
    const headerEnd = this.pending.indexOf(HEADER_END);
    if (headerEnd < 0 || !this.waiting) return;
    const head = this.pending.toString("latin1", 0, headerEnd);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    const waiting = this.waiting;
    if (!length) {
      this.waiting = undefined;
      waiting.reject(new Error(`an answer without Content-Length: ${head.slice(0, 200)}`));
      return;
    }
    const end = headerEnd + HEADER_END.length + Number(length[1]);
    if (this.pending.length < end) return;
    const body = this.pending.toString("utf8", headerEnd + HEADER_END.length, end);
    this.pending = this.pending.subarray(end);
    this.waiting = undefined;
    waiting.resolve({ status: Number(head.slice(9, 12)), body });
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The envelope's return_code, which the server writes first; the rest of the answer is not parsed. */
function returnCode(body: string): string | undefined {
  const match = /^\{"return_code":"([^"]*)"/.exec(body);
  return match?.[1];
}

async function run(job: LoadJob): Promise<LoadAnswer> {
  const base = new URL(job.url);
  const encoded = job.requests.map((r) => encodeRequest(base, r));
  const accepted = new Set(job.acceptedCodes ?? ["SUCCESS"]);
  const latencies: number[] = [];
  let failures = 0;
  let sampleFailure: string | undefined;
  let issued = 0;
  const started = performance.now();
  const deadline = started + job.maxSeconds * 1000;
  const client = async () => {
    let connection = new Connection(base);
    while (issued < job.maxRequests && performance.now() < deadline) {
      const i = issued++ % encoded.length;
      const t0 = performance.now();
      let code: string | undefined;
      let text = "";
      try {
        const answer = await connection.send(encoded[i]);
        text = answer.body;
        code = answer.status === 200 ? returnCode(text) : undefined;
      } catch (err) {
        text = String(err);
        connection.close();
        connection = new Connection(base);
      }
      latencies.push(performance.now() - t0);
      if (!code || !accepted.has(code)) {
        failures++;
        sampleFailure ??= text.slice(0, 300);
      }
    }
    connection.close();
  };
  await Promise.all(Array.from({ length: job.concurrency }, client));
  latencies.sort((a, b) => a - b);
  return { latencies, failures, seconds: (performance.now() - started) / 1000, sampleFailure };
}

if (parentPort) {
  const port = parentPort;
  void run(workerData as LoadJob).then((answer) => port.postMessage(answer));
}
