/**
 * The open API as an integrating system uses it: an operator makes an API client (its secret answered once, kept
 * as its hash); the client trades its id and secret for a bearer token by OAuth 2.0's client credentials (RFC 6749
 * 4.4, refusals in its words), pushes students and bills, reads orders, payments and refunds by time, and is told
 * of each payment and refund by a webhook signed as the document says, retried until it answers 2xx under the same
 * event id. Scopes, allowed addresses, the rate limit, a new secret and the tenant hold on every call; the OpenAPI
 * document is valid OpenAPI 3.1 by the specification's own schema.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Validator } from "@seriousme/openapi-schema-validator";
import { and, asc, eq, lte } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClients, apiTokens, classes, grades, providers, schools, students } from "../../server/db/schema";
import { describeOnEmbedded } from "../helpers/db";
import { en } from "../helpers/locales";
import { confirmSandbox, findStudent, payBills, payerWorld, unpaidStudents, type PayerWorld } from "./payerSupport";
import { createTestApp, type TestApp } from "./support";

type Row = Record<string, unknown>;
const EN = { "accept-language": "en" };

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A client's system receiving webhooks: answers each with the next status asked of it (200 when none is left). */
async function webhookReceiver() {
  const deliveries: Delivery[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      deliveries.push({ headers: req.headers, body });
      res.statusCode = statuses.shift() ?? 200;
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/campuspay/hook`;
  return { url, deliveries, statuses, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The signature as the document tells a client to check it, computed here apart from the server's code. */
function expectedSignature(secret: string, header: string, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  return createHmac("sha256", secret).update(`${match[1]}.${body}`).digest("hex") === match[2];
}

describeOnEmbedded("open API", (kind) => {
  let t: TestApp;
  let sysadmin: string;
  let svc: string;
  let world: PayerWorld;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  let otherSchool: number;
  let otherProvider: number;

  const weapi = (method: string, payload: Row = {}, token = sysadmin) => t.call("adminapiv2", method, payload, { token, headers: EN });
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
  const tokenRequest = (authorization: string | undefined, form: string, ip = "127.0.0.1") =>
    t.app.inject({ method: "POST", url: "/openapi/v1/oauth/token", headers: { "content-type": "application/x-www-form-urlencoded", ...EN, ...(authorization ? { authorization } : {}) }, payload: form, remoteAddress: ip });
  const api = (method: "GET" | "POST", url: string, token: string, body?: unknown, ip = "127.0.0.1") =>
    t.app.inject({ method, url: `/openapi/v1${url}`, headers: { ...EN, authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) }, payload: body === undefined ? undefined : JSON.stringify(body), remoteAddress: ip });

  /** An operator makes a client; its id and secret as answered once. */
  const addClient = async (fields: Row) => {
    const res = await weapi("clientadd", { title: "School ERP", sysid: world.sysid, scopes: ["bills:write", "orders:read", "students:write"], rate_limit: 600, status: "1", ...fields });
    expect(res.return_code, res.return_msg).toBe("SUCCESS");
    const item = res.data?.items as Row;
    return { id: Number(item.id), clientId: String(item.client_id), secret: String(item.client_secret) };
  };
  const tokenOf = async (client: { clientId: string; secret: string }, form = "grant_type=client_credentials", ip?: string) => {
    const res = await tokenRequest(basic(client.clientId, client.secret), form, ip);
    expect(res.statusCode, res.body).toBe(200);
    return String(res.json<Row>().access_token);
  };

  let schoolClient: { id: number; clientId: string; secret: string };
  let schoolToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { paymentKey: { key: randomBytes(32).toString("base64") } });
    sysadmin = await t.login("sysadmin");
    svc = await t.login("svc");
    world = await payerWorld(t, svc);
    receiver = await webhookReceiver();
    const [other] = await t.db.select({ id: schools.id }).from(schools).where(and(eq(schools.sysid, world.sysid))).orderBy(asc(schools.id));
    otherSchool = other.id === world.schId ? (await t.db.select({ id: schools.id }).from(schools).where(eq(schools.sysid, world.sysid)).orderBy(asc(schools.id)))[1].id : other.id;
    const [provider] = await t.db.select({ id: providers.id }).from(providers).where(eq(providers.title, "Harbour Education Services"));
    otherProvider = provider.id;
    schoolClient = await addClient({ sch_id: world.schId, webhook_url: receiver.url });
    schoolToken = await tokenOf(schoolClient);
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  it("answers a client's secret once and keeps only its hash", async () => {
    expect(schoolClient.clientId).toMatch(/^cp_[0-9a-f]{24}$/);
    expect(schoolClient.secret.length).toBeGreaterThanOrEqual(43);
    const [stored] = await t.db.select().from(apiClients).where(eq(apiClients.id, schoolClient.id));
    expect(stored.secret_hash).toBe(createHash("sha256").update(schoolClient.secret).digest("hex"));
    expect(stored.secret_sealed).not.toContain(schoolClient.secret);
    const listed = (await weapi("clientlist", { client_id: schoolClient.clientId })).data?.items as Row[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ client_id: schoolClient.clientId, sch_id: world.schId, scopes: ["bills:write", "orders:read", "students:write"] });
    for (const hidden of ["secret_hash", "secret_sealed", "client_secret"]) expect(Object.keys(listed[0])).not.toContain(hidden);
    const info = (await weapi("clientinfo", { id: schoolClient.id })).data?.items as Row;
    expect(Object.keys(info)).not.toContain("client_secret");
    // a provider's account does not reach the clients
    expect((await weapi("clientlist", {}, svc)).return_code).toBe("FAIL");
  });

  it("refuses a school of another provider, an address it cannot read and a webhook in the clear, naming the field", async () => {
    const [harbourSchool] = await t.db.select({ id: schools.id }).from(schools).where(eq(schools.sysid, otherProvider));
    // a school of another provider is outside the tenant the call names: missing, as everywhere
    const elsewhere = await weapi("clientadd", { title: "Bad", sysid: world.sysid, sch_id: harbourSchool.id, scopes: ["orders:read"], rate_limit: 10, status: "1" });
    expect(elsewhere.return_msg).toBe(en.api.not_found);
    const cases: [Row, string, string][] = [
      [{ allowed_ips: "203.0.113.7\nnot-an-address" }, "allowed_ips", en.clients.validation.address.replace("{{value}}", "not-an-address")],
      [{ allowed_ips: "10.0.0.0/33" }, "allowed_ips", en.clients.validation.address.replace("{{value}}", "10.0.0.0/33")],
      [{ webhook_url: "http://erp.example.com/hook" }, "webhook_url", en.clients.validation.webhook_url],
    ];
    for (const [fields, field, message] of cases) {
      const res = await weapi("clientadd", { title: "Bad", sysid: world.sysid, scopes: ["orders:read"], rate_limit: 10, status: "1", ...fields });
      expect(res.return_code, JSON.stringify(fields)).toBe("FAIL");
      expect((res.data as { errors: { field: string; message: string }[] }).errors[0]).toEqual({ field, message });
    }
  });

  it("trades the id and secret for a bearer token, refusing in RFC 6749's words", async () => {
    const good = basic(schoolClient.clientId, schoolClient.secret);
    const cases: [string | undefined, string, number, string][] = [
      [undefined, "grant_type=client_credentials", 401, "invalid_client"],
      [basic(schoolClient.clientId, "wrong-secret"), "grant_type=client_credentials", 401, "invalid_client"],
      [basic("cp_000000000000000000000000", schoolClient.secret), "grant_type=client_credentials", 401, "invalid_client"],
      [good, "", 400, "invalid_request"],
      [good, "grant_type=password", 400, "unsupported_grant_type"],
      [good, "grant_type=client_credentials&scope=orders:read%20admin", 400, "invalid_scope"],
    ];
    for (const [authorization, form, status, error] of cases) {
      const res = await tokenRequest(authorization, form, "192.0.2.50");
      expect(res.statusCode, `${form} ${res.body}`).toBe(status);
      expect(res.json<Row>().error).toBe(error);
      expect(res.headers["cache-control"]).toBe("no-store");
      if (status === 401) expect(res.headers["www-authenticate"]).toMatch(/^Basic /);
    }
    const res = await tokenRequest(good, "grant_type=client_credentials&scope=orders:read");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers.pragma).toBe("no-cache");
    const answer = res.json<Row>();
    expect(answer).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "orders:read" });
    expect(String(answer.access_token)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // a token of orders:read does not push students
    const pushed = await api("POST", "/students", String(answer.access_token), { students: [] });
    expect(pushed.statusCode).toBe(403);
    expect(pushed.json<Row>().error).toBe("insufficient_scope");
    const none = await api("GET", "/schools", "x".repeat(43));
    expect(none.statusCode).toBe(401);
    expect(none.json<Row>()).toMatchObject({ error: "invalid_token", message: en.openapi.error.invalid_token });
    expect(none.headers["www-authenticate"]).toContain('error="invalid_token"');
    // an hour later the token is dead
    t.clock.advance(3601_000);
    try {
      expect((await api("GET", "/schools", String(answer.access_token))).statusCode).toBe(401);
    } finally {
      t.clock.advance(-3601_000);
    }
  });

  it("acts only for the client's school or provider", async () => {
    const schoolsAnswer = await api("GET", "/schools", schoolToken);
    expect(schoolsAnswer.statusCode).toBe(200);
    expect(schoolsAnswer.json<{ data: Row[] }>().data.map((s) => s.id)).toEqual([world.schId]);
    const elsewhere = await api("POST", "/students", schoolToken, { sch_id: otherSchool, students: [{ student_no: "X1", name: "A", sex: "1", grade: "G", class: "C" }] });
    expect(elsewhere.statusCode).toBe(404);
    const orders = await api("GET", `/orders?since=2000-01-01T00:00:00Z&sch_id=${otherSchool}`, schoolToken);
    expect(orders.json<{ data: Row[] }>().data).toEqual([]);
    // a provider-wide client of another provider sees nothing of this one's
    const harbour = await addClient({ sysid: otherProvider, title: "Harbour ERP" });
    const harbourToken = await tokenOf(harbour);
    const harbourOrders = await api("GET", "/orders?since=2000-01-01T00:00:00Z&limit=200", harbourToken);
    expect(harbourOrders.statusCode).toBe(200);
    expect(harbourOrders.json<{ data: Row[] }>().data.every((o) => o.sch_id !== world.schId)).toBe(true);
    const activity = await api("POST", `/activities/${world.activityId}/bills`, harbourToken, { bills: [{ student_no: "S1", items: {} }] });
    expect(activity.statusCode).toBe(404);
    // a provider-wide client names the school it writes in
    const unnamed = await api("POST", "/students", harbourToken, { students: [{ student_no: "X1", name: "A", sex: "1", grade: "G", class: "C" }] });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json<Row>().field).toBe("sch_id");
  });

  it("adds and updates students by number, all or none, naming each value refused", async () => {
    const [klass] = await t.db
      .select({ grade: grades.title, klass: classes.title })
      .from(classes)
      .innerJoin(grades, eq(grades.id, classes.grade_id))
      .where(eq(classes.sch_id, world.schId))
      .orderBy(asc(classes.id));
    const [known] = await t.db.select().from(students).where(eq(students.sch_id, world.schId)).orderBy(asc(students.id));
    const fresh = { student_no: "API0001", name: "林小雨", sex: "2", grade: klass.grade, class: klass.klass, guardian_phone: "13800138000" };
    const refused = await api("POST", "/students", schoolToken, {
      students: [fresh, { ...fresh, student_no: "API0002", grade: "No such grade" }, { ...fresh, student_no: "API0003", guardian_phone: "12" }, { ...fresh }],
    });
    expect(refused.statusCode).toBe(422);
    const fields = refused.json<{ errors: { field: string }[] }>().errors.map((e) => e.field).sort();
    expect(fields).toEqual(["students[2].guardian_phone", "students[3].student_no"]);
    const missingGrade = await api("POST", "/students", schoolToken, { students: [fresh, { ...fresh, student_no: "API0002", grade: "No such grade" }] });
    expect(missingGrade.statusCode).toBe(422);
    expect(missingGrade.json<{ errors: { field: string; message: string }[] }>().errors).toEqual([{ field: "students[1].grade", message: en.openapi.error.grade_missing.replace("{{value}}", "No such grade") }]);
    expect(await t.db.select().from(students).where(eq(students.student_no, "API0001"))).toHaveLength(0);

    const ok = await api("POST", "/students", schoolToken, { students: [fresh, { student_no: known.student_no, name: "Renamed by ERP", sex: known.sex, grade: klass.grade, class: klass.klass }] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<{ data: Row }>().data).toMatchObject({ sch_id: world.schId, created: 1, updated: 1 });
    const [added] = await t.db.select().from(students).where(and(eq(students.sch_id, world.schId), eq(students.student_no, "API0001")));
    expect(added).toMatchObject({ name: "林小雨", sex: "2", status: "1", guardian_phone: "13800138000", sysid: world.sysid });
    const [renamed] = await t.db.select().from(students).where(eq(students.id, known.id));
    // what was sent changes, what was left out stays
    expect(renamed).toMatchObject({ name: "Renamed by ERP", status: known.status, guardian_phone: known.guardian_phone, id_card: known.id_card });
    // the console's students list shows what was pushed
    const listed = await weapi("studentlist", { sch_id: world.schId, student_no: "API0001" }, svc);
    expect((listed.data?.items as Row[]).map((s) => s.name)).toEqual(["林小雨"]);
  });

  it("sets the bills of an activity through the bill import's checks", async () => {
    const activities = (await api("GET", `/activities?status=open`, schoolToken)).json<{ data: { id: number; items: { title: string; amount: string }[] }[] }>().data;
    const activity = activities.find((a) => a.id === world.activityId)!;
    expect(activity.items.length).toBeGreaterThan(0);
    const item = activity.items[0].title;
    const unknownItem = await api("POST", `/activities/${world.activityId}/bills`, schoolToken, { bills: [{ student_no: "API0001", items: { "No such item": "1.00" } }] });
    expect(unknownItem.statusCode).toBe(422);
    expect(unknownItem.json<{ errors: { field: string }[] }>().errors[0].field).toBe("bills[0].items.No such item");
    const unknownStudent = await api("POST", `/activities/${world.activityId}/bills`, schoolToken, { bills: [{ student_no: "API0001", items: { [item]: "88.00" } }, { student_no: "NOBODY", items: { [item]: "1.00" } }] });
    expect(unknownStudent.statusCode, unknownStudent.body).toBe(422);
    expect(unknownStudent.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual(["bills[1].student_no"]);
    const ok = await api("POST", `/activities/${world.activityId}/bills`, schoolToken, { bills: [{ student_no: "API0001", items: { [item]: "88.00" } }] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<{ data: Row }>().data).toMatchObject({ activity_id: world.activityId, total: 1, imported: 1 });
    const [student] = await t.db.select({ id: students.id }).from(students).where(and(eq(students.sch_id, world.schId), eq(students.student_no, "API0001")));
    const bills = (await weapi("billlist", { sch_id: world.schId, activity_id: world.activityId, student_id: student.id }, svc)).data?.items as Row[];
    expect(bills.find((b) => b.student_id === student.id)).toMatchObject({ status: "unpaid" });
    // the import log names the client
    const logs = (await weapi("importloglist", { sch_id: world.schId }, svc)).data?.items as Row[] | undefined;
    if (logs) expect(logs.some((l) => String(l.filename).startsWith("openapi:") && l.username === `api:${schoolClient.clientId}`)).toBe(true);
  });

  it("tells the client of a payment and a refund by signed webhooks, retried under the same id, and answers them by time", async () => {
    const since = t.clock.now().toISOString();
    const [payer] = await unpaidStudents(t, world, 1);
    const ticket = await findStudent(t, world, payer);
    const order = await payBills(t, ticket, [payer.billId]);
    receiver.statuses.push(500);
    expect((await confirmSandbox(t, order.payparam.code_url)).return_code).toBe("SUCCESS");
    await t.app.jobs.runDueJobs();
    expect(receiver.deliveries).toHaveLength(1);
    // refused once: tried again later, the same event
    t.clock.advance(60_000);
    await t.app.jobs.runDueJobs();
    expect(receiver.deliveries).toHaveLength(2);
    const [first, second] = receiver.deliveries;
    expect(second.headers["x-campuspay-event-id"]).toBe(first.headers["x-campuspay-event-id"]);
    const event = JSON.parse(second.body) as { id: string; type: string; data: { payment: Row; order: Row } };
    expect(event.id).toBe(second.headers["x-campuspay-event-id"]);
    expect(event.type).toBe("payment.succeeded");
    expect(event.data.payment).toMatchObject({ pay_no: order.pay_no, kind: "fee", sch_id: world.schId, amount: order.total_fee });
    expect(event.data.order).toMatchObject({ pay_no: order.pay_no, status: "paid", student: { id: payer.id, student_no: payer.student_no } });
    expect(expectedSignature(schoolClient.secret, String(second.headers["x-campuspay-signature"]), second.body)).toBe(true);
    expect(expectedSignature(schoolClient.secret, String(second.headers["x-campuspay-signature"]), second.body.replace("paid", "closed"))).toBe(false);
    await t.app.jobs.runDueJobs();
    expect(receiver.deliveries).toHaveLength(2);

    const paid = (await api("GET", `/payments?since=${encodeURIComponent(since)}`, schoolToken)).json<{ data: Row[]; next_after_id: number | null }>();
    expect(paid.data.map((p) => p.pay_no)).toContain(order.pay_no);
    const orders = (await api("GET", `/orders?since=${encodeURIComponent(since)}&limit=1`, schoolToken)).json<{ data: Row[]; next_after_id: number | null }>();
    expect(orders.data[0]).toMatchObject({ pay_no: order.pay_no, status: "paid" });
    expect((orders.data[0].lines as Row[])[0]).toMatchObject({ bill_id: payer.billId });
    const bad = await api("GET", `/orders?since=yesterday`, schoolToken);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Row>()).toMatchObject({ error: "invalid_request", field: "since" });

    const [feeOrder] = (await weapi("orderlist", { sch_id: world.schId, pay_no: order.pay_no }, svc)).data?.items as Row[];
    const refund = await weapi("refundadd", { order_id: feeOrder.id, amount: "1.00", reason: "Uniform returned" }, svc);
    expect(refund.return_code, refund.return_msg).toBe("SUCCESS");
    await t.app.jobs.runDueJobs();
    await t.app.jobs.runDueJobs();
    const refunded = receiver.deliveries.map((d) => JSON.parse(d.body) as { type: string; data: { refund?: Row } }).find((e) => e.type === "refund.succeeded");
    expect(refunded?.data.refund).toMatchObject({ pay_no: order.pay_no, amount: "1.00", status: "success" });
    const refunds = (await api("GET", `/refunds?since=${encodeURIComponent(since)}`, schoolToken)).json<{ data: Row[] }>();
    expect(refunds.data.map((r) => r.pay_no)).toContain(order.pay_no);
  });

  it("holds a client to its addresses and its rate limit", async () => {
    const walled = await addClient({ allowed_ips: "198.51.100.0/24\n2001:db8::1", rate_limit: 3 });
    const refused = await tokenRequest(basic(walled.clientId, walled.secret), "grant_type=client_credentials", "203.0.113.9");
    expect(refused.statusCode).toBe(403);
    expect(refused.json<Row>().error).toBe("access_denied");
    const token = await tokenOf(walled, undefined, "198.51.100.20");
    expect((await api("GET", "/schools", token, undefined, "203.0.113.9")).statusCode).toBe(403);
    for (let i = 0; i < 3; i++) expect((await api("GET", "/schools", token, undefined, "198.51.100.20")).statusCode).toBe(200);
    const limited = await api("GET", "/schools", token, undefined, "198.51.100.20");
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    t.clock.advance(61_000);
    expect((await api("GET", "/schools", token, undefined, "198.51.100.20")).statusCode).toBe(200);
  });

  it("ends the old secret and its tokens with a new one, and every token of a client switched off", async () => {
    const client = await addClient({});
    const token = await tokenOf(client);
    const reset = await weapi("clientreset", { id: client.id });
    expect(reset.return_code, reset.return_msg).toBe("SUCCESS");
    const renewed = String((reset.data?.items as Row).client_secret);
    expect(renewed).not.toBe(client.secret);
    expect((await api("GET", "/schools", token)).statusCode).toBe(401);
    expect((await tokenRequest(basic(client.clientId, client.secret), "grant_type=client_credentials")).statusCode).toBe(401);
    const fresh = await tokenOf({ clientId: client.clientId, secret: renewed });
    expect((await api("GET", "/schools", fresh)).statusCode).toBe(200);
    const off = await weapi("clientedit", { id: client.id, status: "0" });
    expect(off.return_code, off.return_msg).toBe("SUCCESS");
    expect((await api("GET", "/schools", fresh)).statusCode).toBe(401);
    expect((await tokenRequest(basic(client.clientId, renewed), "grant_type=client_credentials")).statusCode).toBe(401);
  });

  it("forgets tokens past their time", async () => {
    const client = await addClient({});
    await tokenOf(client);
    t.clock.advance(2 * 3600_000);
    await t.app.jobs.runDueJobs();
    const left = await t.db.select().from(apiTokens).where(lte(apiTokens.expiresAt, t.clock.now()));
    expect(left).toEqual([]);
  });

  describe("the document", () => {
    it("is valid OpenAPI 3.1 declaring the client-credentials flow, and has a readable page", async () => {
      const res = await t.app.inject({ method: "GET", url: "/openapi/v1/openapi.json", headers: { host: "pay.example.edu" } });
      expect(res.statusCode).toBe(200);
      const doc = res.json<Row>();
      const validator = new Validator();
      const result = await validator.validate(doc);
      expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe("3.1");
      const flows = ((doc.components as Row).securitySchemes as Record<string, Row>).clientCredentials;
      expect(flows).toMatchObject({ type: "oauth2", flows: { clientCredentials: { tokenUrl: "http://pay.example.edu/openapi/v1/oauth/token" } } });
      const paths = Object.keys(doc.paths as Row);
      expect(paths).toEqual(expect.arrayContaining(["/oauth/token", "/students", "/activities/{id}/bills", "/orders", "/payments", "/refunds"]));
      for (const lang of ["zh", "en", "es"]) {
        const page = await t.app.inject({ method: "GET", url: `/openapi/v1/docs?lang=${lang}` });
        expect(page.statusCode).toBe(200);
        expect(page.headers["content-type"]).toContain("text/html");
        expect(page.body).toContain("/openapi/v1/activities/{id}/bills");
        expect(page.body).not.toMatch(/openapi\.(docs|endpoint)\./);
      }
    });
  });
});
