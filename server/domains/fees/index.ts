/**
 * The fee domain's server side (catalogue/fees.ts): payment channels (the effects of their actions, the gateway
 * checks, binding a school), the rule between a fee project's amounts, and the readers other code calls:
 * `schoolChannel` (./channels.ts) and `collectionSettings` (./settings.ts).
 */
import type { ActionEffects } from "../../engine/actions";
import type { EntityHooksByName } from "../../engine/hooks";
import type { OperationRegistry } from "../../protocol/registry";
import { channelEffects, channelHooks, registerChannelOperations } from "./channels";
import { projectHooksByEntity } from "./projects";

export { schoolChannel, type SchoolChannel } from "./channels";
export { collectionSettings, type CollectionSettings } from "./settings";

export const feeHooks: EntityHooksByName = { paychnl: channelHooks, ...projectHooksByEntity };

export const feeEffects: ActionEffects = channelEffects;

export function registerFeeOperations(registry: OperationRegistry): void {
  registerChannelOperations(registry);
}
