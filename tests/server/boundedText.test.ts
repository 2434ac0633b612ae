/**
 * An outside service's answer is read up to a limit (server/lib/boundedText.ts): a longer one is refused whether it
 * declares its length or streams it without one, and a short one is read whole.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { AnswerTooLargeError, boundedText } from "../../server/lib/boundedText";

let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/declared") return res.writeHead(200, { "content-length": String(2_000_000) }).end("x".repeat(2_000_000));
    if (req.url === "/streamed") {
      // chunked, no length: 64 chunks of 64 KB
      res.writeHead(200);
      const chunk = "y".repeat(64 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 64) {
          sent++;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end();
      };
      return more();
    }
    res.writeHead(200, { "content-type": "application/json" }).end('{"openid":"o1"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it("reads a short answer whole, and refuses a long one, declared or streamed", async () => {
  expect(await boundedText(await fetch(`${url}/short`), 1024)).toBe('{"openid":"o1"}');
  await expect(boundedText(await fetch(`${url}/declared`), 64 * 1024)).rejects.toBeInstanceOf(AnswerTooLargeError);
  await expect(boundedText(await fetch(`${url}/streamed`), 256 * 1024)).rejects.toBeInstanceOf(AnswerTooLargeError);
});
