/**
 * The open API's endpoints, declared once: the routes (./routes.ts) are registered from them and the OpenAPI 3
 * document and its readable page (./document.ts) are written from them, so that what is documented is what runs.
 */
import { z } from "zod";
import type { ApiScope } from "../../../catalogue/clients";
import type { Db } from "../../db/client";
import type { OperationContext } from "../../protocol/registry";
import type { ApiCaller } from "./access";
import {
  activitiesQuery,
  billsBody,
  listActivities,
  listOrders,
  listPayments,
  listRefunds,
  listSchools,
  pushBills,
  pushStudents,
  studentsBody,
  timeQuery,
} from "./resources";

export const OPENAPI_PREFIX = "/openapi/v1";

/** What a handler is given: its client, a context of the engine's operations acting for it, and its checked inputs. */
export interface EndpointCall<Query, Body> {
  caller: ApiCaller;
  ctx: OperationContext;
  db: Db;
  query: Query;
  body: Body;
  params: { id?: number };
}

export interface Endpoint<Query = unknown, Body = unknown> {
  method: "GET" | "POST";
  /** under OPENAPI_PREFIX, OpenAPI's form (`/activities/{id}/bills`) */
  path: string;
  operationId: string;
  /** translation key of its summary (openapi.json and the readable page) */
  summary: string;
  /** the scope it needs; null: any client */
  scope: ApiScope | null;
  query?: z.ZodType<Query>;
  body?: z.ZodType<Body>;
  /** what its 200 answer holds, for the document */
  answer: z.ZodType;
  handler(call: EndpointCall<Query, Body>): Promise<unknown>;
}

const money = z.string().describe("yuan, two decimals");
const pageOf = (item: z.ZodType) => z.object({ data: z.array(item), next_after_id: z.number().nullable().describe("after_id of the next page; null on the last") });
const payment = z.object({ id: z.number(), pay_no: z.string(), kind: z.string(), sch_id: z.number().nullable(), title: z.string(), amount: money, gateway: z.string(), transaction_id: z.string().nullable(), paid_at: z.string().nullable() });
const refund = z.object({ id: z.number(), refund_no: z.string(), pay_no: z.string(), kind: z.string(), sch_id: z.number(), order_id: z.number().nullable(), amount: money, status: z.string(), success_time: z.string().nullable() });
const order = z.object({
  id: z.number(),
  order_no: z.string(),
  pay_no: z.string().nullable(),
  sch_id: z.number(),
  activity_id: z.number().nullable(),
  amount: money,
  refunded_amount: money,
  status: z.enum(["unpaid", "paid", "part_refunded", "refunded", "closed"]),
  paid_at: z.string().nullable(),
  created_at: z.string(),
  student: z.object({ id: z.number(), student_no: z.string().nullable(), name: z.string().nullable() }),
  lines: z.array(z.object({ bill_id: z.number(), title: z.string(), amount: money, refunded_amount: money })),
});

/** Every endpoint but the token's, in the document's order. */
export const ENDPOINTS: Endpoint<never, never>[] = [
  {
    method: "GET",
    path: "/schools",
    operationId: "listSchools",
    summary: "openapi.endpoint.schools",
    scope: null,
    answer: z.object({ data: z.array(z.object({ id: z.number(), title: z.string(), status: z.string(), endtime: z.string().nullable() })) }),
    handler: ({ db, caller }) => listSchools(db, caller),
  },
  {
    method: "GET",
    path: "/activities",
    operationId: "listActivities",
    summary: "openapi.endpoint.activities",
    scope: null,
    query: activitiesQuery,
    answer: z.object({ data: z.array(z.object({ id: z.number(), sch_id: z.number(), title: z.string(), status: z.string(), items: z.array(z.object({ title: z.string(), amount: money, required: z.boolean() })) })) }),
    handler: ({ db, caller, query }) => listActivities(db, caller, query),
  },
  {
    method: "POST",
    path: "/students",
    operationId: "pushStudents",
    summary: "openapi.endpoint.students",
    scope: "students:write",
    body: studentsBody,
    answer: z.object({ data: z.object({ sch_id: z.number(), created: z.number(), updated: z.number(), students: z.array(z.object({ id: z.number(), student_no: z.string() })) }) }),
    handler: ({ ctx, caller, body }) => pushStudents(ctx, caller, body),
  },
  {
    method: "POST",
    path: "/activities/{id}/bills",
    operationId: "pushBills",
    summary: "openapi.endpoint.bills",
    scope: "bills:write",
    body: billsBody,
    answer: z.object({ data: z.object({ activity_id: z.number(), log_id: z.number().nullable(), total: z.number(), imported: z.number() }) }),
    handler: ({ ctx, caller, params, body }) => pushBills(ctx, caller, params.id!, body),
  },
  {
    method: "GET",
    path: "/orders",
    operationId: "listOrders",
    summary: "openapi.endpoint.orders",
    scope: "orders:read",
    query: timeQuery,
    answer: pageOf(order),
    handler: ({ db, caller, query }) => listOrders(db, caller, query),
  },
  {
    method: "GET",
    path: "/payments",
    operationId: "listPayments",
    summary: "openapi.endpoint.payments",
    scope: "orders:read",
    query: timeQuery,
    answer: pageOf(payment),
    handler: ({ db, caller, query }) => listPayments(db, caller, query),
  },
  {
    method: "GET",
    path: "/refunds",
    operationId: "listRefunds",
    summary: "openapi.endpoint.refunds",
    scope: "orders:read",
    query: timeQuery,
    answer: pageOf(refund),
    handler: ({ db, caller, query }) => listRefunds(db, caller, query),
  },
] as Endpoint<never, never>[];

/** The shapes of what a webhook posts, for the document. */
export const WEBHOOK_SHAPES = {
  "payment.succeeded": z.object({ payment, order: order.optional().describe("a fee's order, its bills and student") }),
  "refund.succeeded": z.object({ refund }),
};
