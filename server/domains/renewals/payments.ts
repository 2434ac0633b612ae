/**
 * Renewal by QR payment (spec 4.3, 4.4): get_pay (a school buys a package), get_sysdelay_pay (a provider buys a
 * year at its yearly price) and checkpay, which every open payment dialog polls every 1 to 3 seconds and so reads
 * one indexed row, asking the gateway about an unpaid order at most every few seconds (server/payments/checkpay.ts).
 * The payment itself is applied by server/payments/apply.ts when it is reported.
 */
import { fenToYuan } from "../../../common/money";
import { anyOf, PROVIDER_ROLES, SCHOOL_ROLES } from "../../../common/roleKeys";
import { loadSchool } from "../../auth/authority";
import { resolveScope } from "../../auth/scope";
import { askGatewayIfDue } from "../../payments/checkpay";
import { PAY_NO_PATTERN } from "../../payments/gateway";
import { registerPaymentKind, type PaymentKind, type PaymentOrder } from "../../payments/kinds";
import { createPaymentOrder, polledOrderConfirmingSession, type PolledOrder } from "../../payments/orders";
import { ApiFailure, notFound } from "../../protocol/envelope";
import { sessionConfirmed, type OperationContext, type OperationRegistry } from "../../protocol/registry";
import { enabledPackage } from "./packages";
import { extendProviderTerm, extendSchoolTerm } from "./terms";

/** a provider renewal buys one year */
const PROVIDER_TERM_MONTHS = 12;

/** a school renews itself, or its provider renews it */
const SCHOOL_BUYERS = anyOf(SCHOOL_ROLES, PROVIDER_ROLES);
const PROVIDER_BUYERS = PROVIDER_ROLES;

const extensionOf = (order: PaymentOrder) => ({ way: "pay" as const, title: order.title, months: order.termMonths, feeFen: order.totalFeeFen, payNo: order.payNo });

/** A school's renewal, paid to the platform: extends the school's term by the package's months. */
export const SCHOOL_RENEWAL: PaymentKind = {
  kind: "school_renewal",
  payee: "platform",
  async applyPaid(tx, order, actor, now) {
    if (order.schId === null) throw new Error(`school renewal ${order.payNo} names no school`);
    return { appliedEnd: (await extendSchoolTerm(tx, order.schId, extensionOf(order), actor, now)).newEnd };
  },
};

/** A provider's renewal, paid to the platform: extends the provider's term by a year. */
export const PROVIDER_RENEWAL: PaymentKind = {
  kind: "provider_renewal",
  payee: "platform",
  async applyPaid(tx, order, actor, now) {
    return { appliedEnd: (await extendProviderTerm(tx, order.sysid, extensionOf(order), actor, now)).newEnd };
  },
};

registerPaymentKind(SCHOOL_RENEWAL);
registerPaymentKind(PROVIDER_RENEWAL);

function orderAnswer(order: PaymentOrder) {
  return {
    items: {
      orderid: order.orderid,
      pay_no: order.payNo,
      total_fee: fenToYuan(order.totalFeeFen),
      payparam: { code_url: order.codeUrl },
      // a test payment: the dialogs say so plainly
      sandbox: order.gateway === "sandbox",
    },
  };
}

/** Whether the caller may see the order: its own school's, or its own provider's (system: any). */
function mayCheck(ctx: OperationContext, order: PolledOrder): boolean {
  const auth = ctx.auth;
  if (!auth) return false;
  if (auth.userType === "system") return true;
  if (auth.sysid !== order.sysid) return false;
  if (auth.userType === "school") return order.schId !== null && order.schId === auth.schid;
  return auth.userType === "service";
}

export function registerPaymentOperations(registry: OperationRegistry): void {
  registry.add({
    path: "adminapiv2",
    method: "get_pay",
    needsToken: true,
    roles: SCHOOL_BUYERS,
    effect: "renewal",
    async handler(ctx) {
      const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
      if (scope.schids === null || scope.schids.length !== 1 || ctx.payload.sch_id === undefined) throw new ApiFailure("api.school_required");
      const school = await loadSchool(ctx.db, scope.schids[0]);
      if (!school) throw notFound();
      const meal = await enabledPackage(ctx.db, ctx.payload.setmeal_id);
      const order = await createPaymentOrder(ctx, {
        kind: SCHOOL_RENEWAL.kind,
        sysid: school.sysid,
        schId: school.id,
        mealId: meal.id,
        title: meal.title,
        termMonths: meal.termMonths,
        totalFeeFen: meal.feeFen,
      });
      return { data: orderAnswer(order) };
    },
  });

  registry.add({
    path: "adminapiv2",
    method: "get_sysdelay_pay",
    needsToken: true,
    roles: PROVIDER_BUYERS,
    effect: "renewal",
    async handler(ctx) {
      const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
      const provider = scope.provider;
      if (!provider || scope.sysid === null) throw new ApiFailure("api.scope_required");
      if (provider.yearFeeFen <= 0) throw new ApiFailure("api.price_not_set");
      const order = await createPaymentOrder(ctx, {
        kind: PROVIDER_RENEWAL.kind,
        sysid: provider.id,
        schId: null,
        mealId: null,
        title: ctx.t("api.provider_renewal_title"),
        termMonths: PROVIDER_TERM_MONTHS,
        totalFeeFen: provider.yearFeeFen,
      });
      return { data: { ...orderAnswer(order), qrcode: order.codeUrl } };
    },
  });

  registry.add({
    path: "adminapiv2",
    method: "checkpay",
    needsToken: true,
    roles: [...SCHOOL_BUYERS],
    effect: "renewal",
    // every open payment dialog polls it: a session resolved lately is confirmed by the order's own statement
    confirmsSession: true,
    async handler(ctx) {
      const payNo = ctx.payload.pay_no;
      if (typeof payNo !== "string" || !PAY_NO_PATTERN.test(payNo)) throw notFound();
      let order = await polledOrderConfirmingSession(ctx, payNo);
      // a session that changed since it was resolved: nothing is asked or answered on it (the call is made again)
      if (!order || !sessionConfirmed(ctx) || !mayCheck(ctx, order)) throw notFound();
      // unpaid here: its gateway is asked now and then (a notification lost, or its application cut short)
      order = await askGatewayIfDue(ctx, order);
      if (order.status === "SUCCESS") return { messageKey: "api.pay_succeeded", messageParams: { end: order.appliedEnd ?? "" } };
      throw new ApiFailure(order.expiresAt > ctx.now ? "api.pay_pending" : "api.pay_expired");
    },
  });
}
