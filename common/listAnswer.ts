/**
 * What a catalogue list answers beside its page (`{name}list`, server/engine/crud.ts), shared by the server and
 * the SPA: the state tabs' counts and the summary of the money fields, both over the list's whole filter.
 */

/** A state's count under the list's other filters (the state filter left out). */
export interface StateCount {
  value: string;
  count: number;
}

/** `data.tabs` of an entity with a `stateField`: every declared state in order, and all of them together. */
export interface ListTabs {
  total: number;
  states: StateCount[];
}

/** `data.summary` of an entity declaring `summary`: the records matched and each money field's sum in yuan. */
export type ListSummary = { count: number } & { [field: string]: string | number };
