/**
 * Behaviour of catalogue entities beyond plain CRUD, as the generic operations call it. A domain gives its
 * entities' hooks (server/domains/<domain>/hooks.ts); an entity without hooks gets the generic operations only.
 */
import type { SQL } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import type { OperationContext } from "../protocol/registry";
import type { Scope } from "../auth/scope";

export type Row = Record<string, unknown>;

export interface EntityHooks {
  /** before a new row is written: checks of the record against the scope it is added in */
  beforeAdd?(ctx: OperationContext, scope: Scope, record: Row): void;
  /**
   * after the row is inserted, in the same transaction; `virtual` holds the entity's virtual fields. What it answers
   * is answered beside the record and stored nowhere as it is (`answeredOnce`: an API client's secret).
   */
  afterAdd?(ctx: OperationContext, tx: DbOrTx, row: Row, virtual: Row): Promise<Row | void>;
  /**
   * in the edit's transaction, before the row and its child records are written: what the record held (the save
   * rewrites its child rows), for afterEdit to compare with; `before` is the row afterEdit gets
   */
  beforeEdit?(ctx: OperationContext, tx: DbOrTx, before: Row): Promise<void>;
  /** after the row is updated, in the same transaction */
  afterEdit?(ctx: OperationContext, tx: DbOrTx, before: Row, after: Row): Promise<void>;
  /**
   * the conditions of filters that are more than their column's comparison (an order's activity: any of its
   * lines'), by field name, given the filter's value (a placeholder in a prepared list); lists and exports use them
   */
  filters?: Readonly<Record<string, (value: unknown) => SQL>>;
}

/** Hooks by entity name. */
export type EntityHooksByName = Readonly<Record<string, EntityHooks>>;
