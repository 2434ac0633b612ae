/** Contract maintenance (servicedelayv2): an operator extends a provider's term by hand, with the fee agreed. */
import { OPERATOR_ROLES } from "../../../common/roleKeys";
import { z } from "zod";
import { yuanToFen } from "../../../common/money";
import { MAX_TERM_MONTHS, REMARK_MAX_LENGTH } from "../../../common/renewalLimits";
import { resolveScope } from "../../auth/scope";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationRegistry } from "../../protocol/registry";
import { extendProviderTerm } from "./terms";

const delayPayload = z.object({
  sysid: z.union([z.number(), z.string().max(12)]),
  term_months: z.union([z.number(), z.string().regex(/^\d{1,4}$/).transform(Number)]).pipe(z.number().int().min(1).max(MAX_TERM_MONTHS)),
  fee: z
    .union([z.string(), z.number()])
    .transform((v) => (v === "" ? 0 : yuanToFen(String(v))))
    .pipe(z.number().int().min(0).max(100_000_000_00))
    .optional(),
  remark: z.string().trim().max(REMARK_MAX_LENGTH).optional(),
});

export function registerContractOperations(registry: OperationRegistry): void {
  registry.add({
    path: "adminapiv2",
    method: "servicedelay",
    needsToken: true,
    roles: OPERATOR_ROLES,
    effect: "write",
    schema: delayPayload,
    async handler(ctx, p) {
      const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
      const sysid = scope.sysid;
      if (sysid === null) throw new ApiFailure("api.scope_required");
      const term = await ctx.db.transaction((tx) =>
        extendProviderTerm(
          tx,
          sysid,
          { way: "manual", title: ctx.t("api.code_term_title", { count: p.term_months }), months: p.term_months, feeFen: p.fee ?? 0, remark: p.remark || undefined },
          { userId: ctx.auth!.userId, username: ctx.auth!.username, ip: ctx.ip },
          ctx.now,
        ),
      );
      return { messageKey: "api.renewed", messageParams: { end: term.newEnd }, data: { items: { end_time: term.newEnd } } };
    },
  });
}
