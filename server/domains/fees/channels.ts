/**
 * Payment channels beyond CRUD: what submitting, reviewing, disabling and enabling a channel do besides moving its
 * state (the engine's record actions run them under the channel's row lock), the checks of its gateway, and a
 * school's channel: `schoolpaychnlset` binds a school to an approved channel of its own provider, and
 * `schoolChannel` answers the channel a school takes payments through, for payments and activities.
 */
import { and, eq, ne } from "drizzle-orm";
import type { FieldDecl } from "../../../common/catalogue";
import { channelStates, materialFields, paychnlReview, schoolPaychnlSetOperation } from "../../../catalogue/fees";
import { auditCall } from "../../auth/audit";
import { resolveScope } from "../../auth/scope";
import { tenantFilter } from "../../auth/tenantFilter";
import type { DbOrTx } from "../../db/client";
import { paymentChannels, schoolChannels, schools } from "../../db/schema";
import { actionFieldFailure, type ActionEffects } from "../../engine/actions";
import { registerDeclared } from "../../engine/declared";
import type { EntityHooks, Row } from "../../engine/hooks";
import { labelText } from "../../lib/i18n";
import { notFound } from "../../protocol/envelope";
import type { OperationContext, OperationRegistry } from "../../protocol/registry";
import { isBlank } from "../../../common/fieldExtras";

export type ChannelGateway = "sandbox" | "wechatpay";

/** The channel a school takes payments through: its gateway and the sub-merchant paid. */
export interface SchoolChannel {
  id: number;
  gateway: ChannelGateway;
  sub_mchid: string;
}

/**
 * The approved channel a school takes payments through, or null (none bound, or its channel is not approved now):
 * one lookup of the school's binding by its unique index, joined to the channel by its key.
 */
export async function schoolChannel(db: DbOrTx, schId: number): Promise<SchoolChannel | null> {
  const [row] = await db
    .select({ id: paymentChannels.id, gateway: paymentChannels.gateway, sub_mchid: paymentChannels.sub_mchid })
    .from(schoolChannels)
    .innerJoin(paymentChannels, and(eq(paymentChannels.id, schoolChannels.paychnl_id), eq(paymentChannels.status, "approved")))
    .where(eq(schoolChannels.sch_id, schId))
    .limit(1);
  if (!row || !row.sub_mchid) return null;
  return { id: row.id, gateway: row.gateway === "sandbox" ? "sandbox" : "wechatpay", sub_mchid: row.sub_mchid };
}

/** A sandbox channel's made-up sub-merchant id: digits, as WeChat Pay's are, starting 99 (no real one does). */
export function sandboxSubMchid(channelId: number): string {
  return `99${String(channelId).padStart(8, "0")}`;
}

function fieldLabel(ctx: OperationContext, fields: readonly FieldDecl[], name: string): string {
  const field = fields.find((f) => f.name === name);
  return field ? labelText(ctx.t, field.label, name) : name;
}


/** A sandbox channel takes no real money: on a server whose sandbox is off it is refused, naming the gateway. */
function refuseSandboxWhenOff(ctx: OperationContext, gateway: unknown): void {
  if (gateway === "sandbox" && !ctx.services.paymentSandbox) throw actionFieldFailure(ctx, "gateway", "fees.error.sandbox_off");
}

export const channelHooks: EntityHooks = {
  beforeAdd(ctx, _scope, record) {
    refuseSandboxWhenOff(ctx, record.gateway);
  },
  async afterEdit(ctx, _tx, before, after) {
    if (before.gateway !== after.gateway) refuseSandboxWhenOff(ctx, after.gateway);
  },
};

export const channelEffects: ActionEffects = {
  // the operator reviews the whole material: a channel goes for review only once every part of it is filled in
  async paychnlsubmit({ ctx, row }) {
    const missing = materialFields.find((field) => isBlank(row[field.name]));
    if (missing) throw actionFieldFailure(ctx, missing.name, "fees.error.material_missing", { label: labelText(ctx.t, missing.label, missing.name) });
    return { changes: { reject_reason: null } };
  },

  async paychnlreview({ ctx, tx, row, input }) {
    if (input.result === "reject") {
      return { changes: { reject_reason: String(input.reason).trim(), reviewed_at: ctx.now }, messageKey: "fees.done.rejected" };
    }
    let subMchid = isBlank(input.sub_mchid) ? null : String(input.sub_mchid);
    if (row.gateway === "sandbox") {
      refuseSandboxWhenOff(ctx, row.gateway);
      subMchid ??= sandboxSubMchid(Number(row.id));
    } else if (subMchid === null) {
      throw actionFieldFailure(ctx, "sub_mchid", "fees.error.sub_mchid_required", { label: fieldLabel(ctx, paychnlReview.fields!, "sub_mchid") });
    }
    // one sub-merchant is paid through one channel only (the unique index stands behind this check)
    const [taken] = await tx
      .select({ id: paymentChannels.id })
      .from(paymentChannels)
      .where(and(eq(paymentChannels.sub_mchid, subMchid), ne(paymentChannels.id, Number(row.id))))
      .limit(1);
    if (taken) throw actionFieldFailure(ctx, "sub_mchid", "fees.error.sub_mchid_taken", { sub_mchid: subMchid });
    return { changes: { sub_mchid: subMchid, reject_reason: null, reviewed_at: ctx.now }, messageKey: "fees.done.approved", messageParams: { sub_mchid: subMchid } };
  },

  async paychnlenable({ ctx, row }) {
    refuseSandboxWhenOff(ctx, row.gateway);
  },
};

/** The checked schoolpaychnlset payload. */
interface BindPayload {
  sch_id: number;
  paychnl_id: number;
}

/**
 * Binds a school to a channel: the school must lie in the caller's scope, the channel must be its own provider's
 * and approved (otherwise FAIL naming `paychnl_id`). The channel is read FOR SHARE, so a disable running at the same
 * time waits for the binding, or the binding sees the channel disabled. Replaces the school's channel, if any.
 */
async function bindSchool(ctx: OperationContext, p: BindPayload) {
  const scope = await resolveScope(ctx.db, ctx.auth!, ctx.payload);
  const fields = schoolPaychnlSetOperation.fields;
  const binding = await ctx.db.transaction(async (tx) => {
    const [school] = await tx
      .select({ id: schools.id, sysid: schools.sysid })
      .from(schools)
      .where(and(eq(schools.id, p.sch_id), ...tenantFilter(scope, { sysid: schools.sysid, schid: schools.id })));
    if (!school) throw notFound();
    const [channel] = (await tx
      .select()
      .from(paymentChannels)
      .where(and(eq(paymentChannels.id, p.paychnl_id), eq(paymentChannels.sysid, school.sysid)))
      .for("share")) as Row[];
    const label = fieldLabel(ctx, fields, "paychnl_id");
    if (!channel) throw actionFieldFailure(ctx, "paychnl_id", "fees.error.channel_not_own", { label });
    if (channel.status !== "approved") {
      const state = channelStates.find((o) => o.value === channel.status);
      throw actionFieldFailure(ctx, "paychnl_id", "fees.error.channel_not_approved", { label, state: state ? ctx.t(state.label) : String(channel.status) });
    }
    const values = { sch_id: school.id, sysid: school.sysid, paychnl_id: p.paychnl_id, bound_at: ctx.now, bound_by: ctx.auth?.username ?? "" };
    const [row] = await tx
      .insert(schoolChannels)
      .values(values)
      .onConflictDoUpdate({ target: schoolChannels.sch_id, set: { paychnl_id: values.paychnl_id, sysid: values.sysid, bound_at: values.bound_at, bound_by: values.bound_by } })
      .returning();
    await auditCall(tx, ctx, {
      action: schoolPaychnlSetOperation.name,
      entity: "schoolpaychnl",
      entityId: String(row.id),
      detail: { paychnl_id: p.paychnl_id },
      sysid: school.sysid,
      schId: school.id,
    });
    return { ...row, paychnl_title: String(channel.title) };
  });
  return {
    data: {
      items: {
        id: binding.id,
        sch_id: binding.sch_id,
        paychnl_id: binding.paychnl_id,
        paychnl_title: binding.paychnl_title,
        bound_at: binding.bound_at?.toISOString() ?? null,
        bound_by: binding.bound_by,
      },
    },
  };
}

export function registerChannelOperations(registry: OperationRegistry): void {
  registerDeclared<BindPayload>(registry, schoolPaychnlSetOperation, bindSchool);
}
