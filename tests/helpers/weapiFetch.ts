/**
 * A fake network for component tests: replaces fetch, records every /weapi/ call and answers with the
 * envelope a handler returns. Only the transport is fake; the weapi client and providers run for real.
 */
import { vi } from "vitest";

export interface WeapiCall {
  url: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

export type Answer = (body: Record<string, unknown>, url: string) => unknown;

export function fakeWeapi(answer: Answer) {
  const calls: WeapiCall[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    calls.push({ url, body, headers: init.headers as Record<string, string> });
    const envelope = answer(body, url);
    return { ok: true, status: 200, json: async () => envelope } as unknown as Response;
  });
  vi.stubGlobal("fetch", fetchMock);
  return {
    calls,
    /** the calls of one operation, in order */
    of: (method: string) => calls.filter((c) => c.body.method === method),
  };
}

export function setCookies(values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) document.cookie = `${name}=${encodeURIComponent(value)}; path=/`;
}

export function clearCookies(): void {
  for (const part of document.cookie.split(";")) {
    const name = part.split("=")[0].trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}
