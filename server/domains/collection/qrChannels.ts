/**
 * Channel QR codes (`qrchnl`): the server makes each code (128 random bits, base64url, unique) and its payer page
 * address `{PUBLIC_URL}/h5/{code}` (the server's public address, as payment QR codes use it; else the address
 * the console was reached at). The address is written again at every edit, so a code edited after PUBLIC_URL
 * changed shows where phones reach the server now.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { qrChannels } from "../../db/schema";
import type { EntityHooks } from "../../engine/hooks";

/** 16 random bytes: 22 url-safe characters */
export function newPayerCode(): string {
  return randomBytes(16).toString("base64url");
}

export function payerPageUrl(origin: string, code: string): string {
  return `${origin}/h5/${code}`;
}

export const qrChannelHooks: EntityHooks = {
  beforeAdd(ctx, _scope, record) {
    const code = newPayerCode();
    record.code = code;
    record.url = payerPageUrl(ctx.origin, code);
  },
  async afterEdit(ctx, tx, _before, after) {
    const url = payerPageUrl(ctx.origin, String(after.code));
    if (after.url === url) return;
    await tx.update(qrChannels).set({ url }).where(eq(qrChannels.id, Number(after.id)));
    after.url = url;
  },
};
