/** The bench's client of the /weapi/ protocol: one call over HTTP, as a browser or an integrating system makes it. */

/** What the bench reads of an answer. */
export interface Envelope {
  return_code: string;
  return_msg: string;
  data?: { token?: string; items?: unknown; total?: number };
}

export async function call(url: string, apiPath: string, body: Record<string, unknown>, token?: string, headers: Record<string, string> = {}): Promise<Envelope> {
  const res = await fetch(`${url}/weapi/${apiPath}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { "x-token": token } : {}), ...headers },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Envelope;
}
