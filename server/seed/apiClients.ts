/**
 * The demo's API clients: Sunrise No.1's management system (pushing students and bills, told of its payments) and
 * Sunrise's ERP reading every school's orders, one Harbour client switched off. Nobody holds a demo secret: each
 * is a random one kept hashed, and an operator gives a client a new secret to try the open API.
 */
import { createHash, randomBytes } from "node:crypto";
import type { DbOrTx } from "../db/client";
import { apiClients } from "../db/schema";

const DAY_MS = 86_400_000;

export async function seedDemoApiClients(tx: DbOrTx, tenants: { sunrise: number; sunriseNo1: number; harbour: number }, now: Date): Promise<void> {
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const secretHash = () => createHash("sha256").update(randomBytes(32).toString("base64url")).digest("hex");
  const clientId = () => `cp_${randomBytes(12).toString("hex")}`;
  await tx.insert(apiClients).values([
    {
      title: "No.1 school management system",
      sysid: tenants.sunrise,
      sch_id: tenants.sunriseNo1,
      client_id: clientId(),
      secret_hash: secretHash(),
      scopes: ["bills:write", "orders:read", "students:write"],
      allowed_ips: "203.0.113.0/24",
      rate_limit: 120,
      status: "1",
      last_used_at: ago(0.1),
      remark: "Pushes the roster each night and the term's bills",
      created_at: ago(60),
    },
    { title: "Sunrise ERP", sysid: tenants.sunrise, client_id: clientId(), secret_hash: secretHash(), scopes: ["orders:read"], rate_limit: 600, status: "1", last_used_at: ago(1), created_at: ago(120) },
    { title: "Harbour finance export", sysid: tenants.harbour, client_id: clientId(), secret_hash: secretHash(), scopes: ["orders:read"], rate_limit: 60, status: "0", remark: "Paused while Harbour's term is renewed", created_at: ago(300) },
  ]);
}
