/**
 * The check every /weapi/ payload passes (./validation.ts: no control character but tab, line feed and carriage
 * return, no lone surrogate, shallow nesting), given to every other route too: the sandbox payment page and its
 * confirmation, the daily report's binding page, the payment notifications, and any public route added later,
 * since it is attached to each route as it is registered. A path parameter, a query value or a body field (or a
 * key) that fails is answered 400 naming it, never handed to a handler where the database would refuse it with
 * a system error: an HTML page to a browser (a page opened, a form posted), a FAIL envelope to anything else.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from "fastify";
import { escapeHtml, phonePage } from "../lib/htmlPage";
import { requestLanguage, translator } from "../lib/i18n";
import { fail } from "./envelope";
import { unacceptableText, unacceptableValuePath } from "./validation";

function isApiRoute(url: string): boolean {
  return url === "/weapi" || url.startsWith("/weapi/");
}

/** The name of the first input no route accepts (a parameter, a query value, a body field), or null. */
export function unacceptablePublicInput(request: Pick<FastifyRequest, "params" | "query" | "body">): string | null {
  const inPath = unacceptableValuePath(request.params ?? {});
  // a wildcard's parameter (a file's path) is named as what it is
  if (inPath !== null) return inPath === "*" ? "path" : inPath;
  const inQuery = unacceptableValuePath(request.query ?? {});
  if (inQuery !== null) return inQuery;
  const body = request.body;
  // a body kept as it was sent (a payment notification, whose signature covers it as text)
  if (typeof body === "string") return unacceptableText(body) ? "body" : null;
  return body !== null && typeof body === "object" ? unacceptableValuePath(body) : null;
}

function wantsHtml(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? "");
  const contentType = String(request.headers["content-type"] ?? "");
  return accept.includes("text/html") || contentType.startsWith("application/x-www-form-urlencoded");
}

const refuseUnacceptableInput: preValidationHookHandler = function (request: FastifyRequest, reply: FastifyReply, done) {
  const field = unacceptablePublicInput(request);
  if (field === null) return done();
  const lang = requestLanguage(request.headers);
  const t = translator(lang);
  const message = t("api.invalid_params", { field });
  reply.status(400).header("cache-control", "no-store");
  if (wantsHtml(request)) {
    const body = `<p class="closed" data-testid="invalid-input">${escapeHtml(message)}</p><p class="hint">${escapeHtml(t("api.invalid_input_hint"))}</p>`;
    void reply.type("text/html; charset=utf-8").send(phonePage(lang, t("api.invalid_input_title"), body));
  } else {
    void reply.send(fail(message));
  }
};

export interface PublicRoute {
  method: string;
  url: string;
}

const checkedRoutes = new WeakMap<FastifyInstance, PublicRoute[]>();

/** The routes an app checks this way: every route outside /weapi/ (tests send each of them bad inputs). */
export function publicRoutes(app: FastifyInstance): readonly PublicRoute[] {
  return checkedRoutes.get(app) ?? [];
}

/** Attaches the check to every route registered after it outside /weapi/ (whose payloads dispatch checks). */
export function checkPublicInputs(app: FastifyInstance): void {
  const routes: PublicRoute[] = [];
  checkedRoutes.set(app, routes);
  app.addHook("onRoute", (route) => {
    if (isApiRoute(route.url)) return;
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) routes.push({ method: String(method), url: route.url });
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [refuseUnacceptableInput] : [refuseUnacceptableInput, ...(Array.isArray(existing) ? existing : [existing])];
  });
}
