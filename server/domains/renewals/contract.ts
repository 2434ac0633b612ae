/** Contract maintenance (servicedelayv2): an operator extends a provider's term by hand, with the fee agreed. */
import { serviceDelayOperation } from "../../../resources.config";
import { callerActor } from "../../auth/audit";
import { resolveScope } from "../../auth/scope";
import { ApiFailure } from "../../protocol/envelope";
import type { OperationRegistry } from "../../protocol/registry";
import { registerDeclared } from "../../engine/declared";
import { extendProviderTerm } from "./terms";

export function registerContractOperations(registry: OperationRegistry): void {
  registerDeclared(registry, serviceDelayOperation, async (ctx, p) => {
    const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
    const sysid = scope.sysid;
    if (sysid === null) throw new ApiFailure("api.scope_required");
    const months = Number(p.term_months);
    const remark = typeof p.remark === "string" ? p.remark.trim() : "";
    const term = await ctx.db.transaction((tx) =>
      extendProviderTerm(
        tx,
        sysid,
        // fee is in fen once checked; none agreed is free
        { way: "manual", title: ctx.t("api.code_term_title", { count: months }), months, feeFen: Number(p.fee ?? 0), remark: remark || undefined },
        callerActor(ctx),
        ctx.now,
      ),
    );
    return { messageKey: "api.renewed", messageParams: { end: term.newEnd }, data: { items: { end_time: term.newEnd } } };
  });
}
