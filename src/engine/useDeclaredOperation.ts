/**
 * Calls a declared operation (catalogue operations) through refine's data provider (`custom`), so that the lists
 * and records of the entities it declares it changes refresh after it, on every page that shows them.
 */
import { useCustomMutation, useInvalidate, type BaseRecord, type HttpError } from "@refinedev/core";
import type { OperationDecl } from "../../common/catalogue";
import { useRefreshWaiting } from "../lib/waiting";
import { entityResources } from "./builtPages";

/**
 * Refreshes the lists and records of the named entities on every page that shows them, and what waits for a
 * decision when they are what is counted (the menu's badges, the home page).
 */
export function useRefreshEntities(): (entityNames: readonly string[]) => Promise<void> {
  const invalidate = useInvalidate();
  const refreshWaiting = useRefreshWaiting();
  return async (entityNames) => {
    void refreshWaiting(entityNames);
    const refreshed = new Set(entityNames);
    // the entity's pages, and its lists read by name where no page shows it (an activity's bills on its board)
    const resources = [...entityResources().filter((r) => refreshed.has(r.entity.name)).map((r) => r.identifier), ...refreshed];
    await Promise.all(resources.map((resource) => invalidate({ resource, invalidates: ["resourceAll"] })));
  };
}

export function useDeclaredOperation<T extends BaseRecord = BaseRecord>(operation: OperationDecl) {
  const { mutateAsync, mutation } = useCustomMutation<T, HttpError, Record<string, unknown>>();
  const refresh = useRefreshEntities();

  /** Resolves with the answer's data.items; rejects with the failure (the weapi client has shown its message). */
  const call = async (values: Record<string, unknown>): Promise<T> => {
    const { data } = await mutateAsync({
      url: operation.name,
      method: "post",
      values,
      // the console's toasts: the weapi client shows a failure once, the page says what succeeded
      successNotification: false,
      errorNotification: false,
    });
    await refresh(operation.invalidates ?? []);
    return data;
  };

  return { call, isPending: mutation.isPending };
}
