/**
 * The fee domain's server side (catalogue/fees.ts): payment channels (the effects of their actions, the gateway
 * checks, binding a school), and the readers other code calls:
 * `schoolChannel` (./channels.ts) and `collectionSettings` (./settings.ts).
 */
import type { ActionEffects } from "../../engine/actions";
import type { EntityHooksByName } from "../../engine/hooks";
import type { OperationRegistry } from "../../protocol/registry";
import { channelEffects, channelHooks, registerChannelOperations } from "./channels";

export { schoolChannel, type SchoolChannel } from "./channels";
export { collectionSettings, type CollectionSettings } from "./settings";

export const feeHooks: EntityHooksByName = { paychnl: channelHooks };

export const feeEffects: ActionEffects = channelEffects;

export function registerFeeOperations(registry: OperationRegistry): void {
  registerChannelOperations(registry);
}
