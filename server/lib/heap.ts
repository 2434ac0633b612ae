/**
 * A full collection of the heap, asked for by long work that makes garbage faster than V8 collects it (an export of
 * 100,000 rows, a reconciliation of 100,000 lines): V8 lets its heap grow by hundreds of megabytes before it
 * collects, so such work collects now and then itself, a few tens of milliseconds each, keeping the process's memory
 * bounded whatever the length of the work.
 */
import v8 from "node:v8";
import { runInNewContext } from "node:vm";

let fullCollection: (() => void) | undefined;

export function collectGarbage(): void {
  if (!fullCollection) {
    // the process was not started with --expose-gc (npm start is not): the flag, then gc() from a context made after it
    if (typeof globalThis.gc !== "function") v8.setFlagsFromString("--expose-gc");
    fullCollection = typeof globalThis.gc === "function" ? globalThis.gc : (runInNewContext("gc") as () => void);
  }
  fullCollection();
}
