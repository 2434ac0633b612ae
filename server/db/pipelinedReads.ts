/**
 * The list pages' reads on PostgreSQL (TextRowsReader), over a few connections of their own in node-postgres's
 * pipeline mode: a read is written at once on the connection with the fewest reads outstanding, behind the reads
 * already sent there, rather than waiting for a connection of the pool to come free.
 *
 * Under load this is the cheapest way to the database: the backend reads the waiting statements in one go and
 * runs them one after another without going to sleep between them, and the server's reads of their answers
 * gather too. With a connection of the pool for each read, every read costs a write, a wake-up of a backend and a
 * read of its own, and many backends contend for the cores with the server: on a machine of two cores, the
 * order list of a million orders answered about 1,600 pages a second through the pool and about 2,400 through
 * pipelined connections.
 *
 * Each read is its own statement with its own Sync, so a failing read fails alone. A connection that breaks is
 * replaced at the next read; the reads already sent on it fail, as they would on a pooled connection.
 */
import { availableParallelism } from "node:os";
import pg from "pg";

/** Pipelined connections by default: one per core beside the server's own. */
export const DEFAULT_READ_CONNECTIONS = Math.max(1, availableParallelism() - 1);

interface Line {
  client: pg.Client;
  /** settles once connected; rejected when the connection could not be made */
  ready: Promise<void>;
  /** reads sent or waiting on it, not yet answered */
  outstanding: number;
}

/** An error the database raised for one statement (severity ERROR), after which its connection goes on. */
function isStatementError(err: unknown): boolean {
  return err instanceof pg.DatabaseError && err.severity === "ERROR";
}

export class PipelinedReads {
  private readonly lines: (Line | undefined)[];
  private closed = false;

  constructor(
    private readonly connectionString: string,
    connections = DEFAULT_READ_CONNECTIONS,
  ) {
    this.lines = Array.from({ length: Math.max(1, connections) }, () => undefined);
  }

  /** The rows of a named statement as arrays of text (the statement casts every value to text). */
  async read(name: string, text: string, params: unknown[]): Promise<(string | null)[][]> {
    if (this.closed) throw new Error("the database is closed");
    const line = this.leastBusy();
    line.outstanding++;
    try {
      await line.ready;
      return (await line.client.query<(string | null)[]>({ name, text, values: params, rowMode: "array" })).rows;
    } catch (err) {
      // the statement's own error leaves the connection as it was; anything else (the backend ended, the socket
      // broke) may come before the client's error event, and the reads sent meanwhile would fail too
      if (!isStatementError(err)) this.drop(line);
      throw err;
    } finally {
      line.outstanding--;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const open = this.lines.filter((line): line is Line => line !== undefined);
    this.lines.fill(undefined);
    await Promise.all(open.map((line) => line.client.end().catch(() => undefined)));
  }

  private leastBusy(): Line {
    let best = this.lines[0] ?? this.open(0);
    for (let slot = 1; slot < this.lines.length; slot++) {
      const line = this.lines[slot] ?? this.open(slot);
      if (line.outstanding < best.outstanding) best = line;
    }
    return best;
  }

  /** Takes a broken connection out of its slot, for the next read to open another. */
  private drop(line: Line): void {
    const slot = this.lines.indexOf(line);
    if (slot < 0) return;
    this.lines[slot] = undefined;
    line.client.end().catch(() => undefined);
  }

  private open(slot: number): Line {
    const client = new pg.Client({ connectionString: this.connectionString, pipeline: true });
    const line: Line = { client, ready: Promise.resolve(), outstanding: 0 };
    // a broken connection (restart, terminated backend) leaves its slot; without a listener its error would end
    // the process
    const leave = () => this.drop(line);
    client.on("error", leave);
    client.on("end", leave);
    line.ready = client.connect().then(
      () => undefined,
      (err: unknown) => {
        leave();
        throw err;
      },
    );
    // a connection opened beside the one chosen may fail with no read waiting on it
    line.ready.catch(() => undefined);
    this.lines[slot] = line;
    return line;
  }
}
