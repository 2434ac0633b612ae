/** adminapiv2: subscription renewal (spec 4.2–4.4): packages, QR payment, activation codes, contract maintenance. */
import type { OperationRegistry } from "../../protocol/registry";
import { registerCodeOperations } from "./codes";
import { registerContractOperations } from "./contract";
import { registerPackageOperations } from "./packages";
import { registerPaymentOperations } from "./payments";

export function registerRenewalOperations(registry: OperationRegistry): void {
  registerPackageOperations(registry);
  registerPaymentOperations(registry);
  registerCodeOperations(registry);
  registerContractOperations(registry);
}
