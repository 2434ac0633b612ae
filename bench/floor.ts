/**
 * The floor the polling calls are measured against (npm run bench, DESIGN 10): a minimal server of the same shape
 * as the product's (Fastify, the same JSON body and envelope, the same PostgreSQL) answering checkpay and
 * h5checkpay with the same two lookups each and nothing else: the session by its token's hash with its user, then
 * the payment order; the payer's ticket by its hash, then the payer's order. What the product spends beyond this
 * floor is its own: the protocol's checks, the roles and tenants, the gateway's polling, the logging.
 */
import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import pg from "pg";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export async function startFloorServer(databaseUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const app = Fastify({ logger: false });

  app.post<{ Body: { method?: string; pay_no?: string } }>("/weapi/adminapiv2", async (request, reply) => {
    const token = String(request.headers["x-token"] ?? "");
    const { rows: sessions } = await pool.query({
      name: "floor_session",
      text: `select u.id, u.status, u.sysid, u.schid from sessions s join users u on u.id = s.user_id
             where s.token_hash = $1 and s.revoked_at is null`,
      values: [sha256(token)],
    });
    if (sessions.length === 0) return reply.send({ return_code: "token_error", return_msg: "token invalid" });
    const { rows: orders } = await pool.query({
      name: "floor_payment_order",
      text: "select status, expires_at, sch_id, sysid, applied_end from payment_orders where pay_no = $1",
      values: [request.body.pay_no ?? ""],
    });
    const order = orders[0] as { status: string } | undefined;
    if (!order) return reply.send({ return_code: "FAIL", return_msg: "not found" });
    return reply.send(order.status === "SUCCESS" ? { return_code: "SUCCESS", return_msg: "paid" } : { return_code: "FAIL", return_msg: "payment not received yet" });
  });

  app.post<{ Body: { method?: string; ticket?: string; pay_no?: string } }>("/weapi/h5api", async (request, reply) => {
    const { rows: tickets } = await pool.query({
      name: "floor_ticket",
      text: "select student_id, sch_id from payer_tickets where token_hash = $1 and expires_at > now()",
      values: [sha256(request.body.ticket ?? "")],
    });
    const ticket = tickets[0] as { student_id: number; sch_id: number } | undefined;
    if (!ticket) return reply.send({ return_code: "FAIL", return_msg: "ticket expired" });
    const { rows: orders } = await pool.query({
      name: "floor_fee_order",
      text: "select pay_no, status, amount, paid_at from fee_orders where pay_no = $1 and student_id = $2 and sch_id = $3",
      values: [request.body.pay_no ?? "", ticket.student_id, ticket.sch_id],
    });
    const order = orders[0] as { pay_no: string; status: string; amount: string; paid_at: Date | null } | undefined;
    if (!order) return reply.send({ return_code: "FAIL", return_msg: "not found" });
    return reply.send({
      return_code: "SUCCESS",
      return_msg: "ok",
      data: { items: { pay_no: order.pay_no, status: order.status, amount: (Number(order.amount) / 100).toFixed(2), paid_at: order.paid_at?.toISOString() ?? null } },
    });
  });

  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await pool.end();
    },
  };
}
