/**
 * The text of an outside service's answer (WeChat Pay, WeChat's OAuth), read only up to a limit: a service that
 * answers with more than any of its answers holds (a broken proxy, a wrong address) costs at most that much memory.
 */

export class AnswerTooLargeError extends Error {
  override readonly name = "AnswerTooLargeError";
}

export async function boundedText(response: Response, maxBytes: number): Promise<string> {
  return (await boundedBytes(response, maxBytes)).toString("utf8");
}

/** The bytes of an answer (an image), read only up to a limit. */
export async function boundedBytes(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new AnswerTooLargeError(`the answer declares ${declared} bytes, more than ${maxBytes}`);
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new AnswerTooLargeError(`the answer is longer than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
