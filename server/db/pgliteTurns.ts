/**
 * Turns of the event loop for the embedded database's statements. PGlite runs each statement on the server's own
 * thread, and the statements waiting on its lock run one after another in microtasks: a batch of requests read
 * together had all their statements run in a single task, and a request arriving meanwhile was not even read
 * until the batch ended, then waited for its own batch too. Under load a list page took up to twice as long
 * as the queue ahead of it, and nothing else (a timer, a new connection) ran for the batch's length.
 *
 * Here each top-level statement waits for the one before it and then for a turn of the event loop (setImmediate,
 * which runs after the loop has read what arrived): a request that arrives while others are answered is read at
 * once and its statement joins the queue's end, first come first served. A transaction's own statements go
 * through its own object, not this queue, and keep the transaction's lock.
 */
import type { PGlite } from "@electric-sql/pglite";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Makes `client.query` run each call in its own turn of the event loop, in the order of the calls; `waiting()`
 * tells how many calls are queued or running.
 */
export function takeTurns(client: PGlite): { waiting(): number } {
  const query = client.query.bind(client);
  // settles when the last call so far has ended, whether it succeeded or failed
  let queueEnd: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  client.query = ((...args: Parameters<PGlite["query"]>) => {
    waiting++;
    const answer = queueEnd.then(nextTurn).then(() => query(...args));
    queueEnd = answer.catch(() => undefined).finally(() => waiting--);
    return answer;
  }) as PGlite["query"];
  return { waiting: () => waiting };
}
