/**
 * Named prepared statements for the embedded database. PGlite's `query` parses, describes and plans its text
 * anew on every call, in six calls into the WebAssembly module; on the hot paths (the session read of every
 * request, a list page) planning alone costs as much as running the statement. This keeps a named statement per
 * query text, as node-postgres does for drizzle's prepared queries on PostgreSQL: the first call parses and
 * describes it, every later one binds and executes it in a single call, and PostgreSQL's plan cache plans it as
 * it would on a server.
 *
 * Only statements with parameters that are reads, or start with a WITH (a read, or a write of one statement made to
 * run often: a pickup's hand-over with its record and audit entry), take this path (the statements built once and
 * run often); everything else, and any statement inside a transaction (drizzle runs those on the transaction's own
 * object), keeps PGlite's own `query`.
 */
import { parse, protocol, type PGlite, type QueryOptions, type Results } from "@electric-sql/pglite";

type Parser = NonNullable<QueryOptions["parsers"]>[number];

/** Statements kept per database; the least recently used is closed beyond it. */
const DEFAULT_MAX_STATEMENTS = 500;

type BackendMessage = Awaited<ReturnType<PGlite["execProtocolStream"]>>[number];

interface Statement {
  name: string;
  /** the parameters' type ids, for PGlite's serializers */
  parameterTypes: number[];
  /** the result's row description (none for a statement without rows) */
  rowDescription: BackendMessage | undefined;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** a read, or a statement starting with a WITH (see above) */
const KEPT = /^\s*(?:select|with)\b/i;

/** Makes `client.query` keep a named prepared statement per read's text (see above). */
export function keepPreparedStatements(client: PGlite, { maxStatements = DEFAULT_MAX_STATEMENTS } = {}): void {
  const plainQuery = client.query.bind(client);
  const statements = new Map<string, Statement>();
  let made = 0;

  // the caller's parsers over the client's (318 types): drizzle passes a new object of a few on every query, so
  // they are laid over the client's as a prototype instead of copying every type into a new object each time
  function parsersFor(options: QueryOptions | undefined): Record<number | string, Parser> {
    const own = options?.parsers;
    return own ? Object.assign(Object.create(client.parsers) as Record<number | string, Parser>, own) : client.parsers;
  }

  // Close messages of statements let go, sent ahead of the next message
  const closing: Uint8Array[] = [];
  function forget(text: string): void {
    const statement = statements.get(text);
    if (!statement) return;
    statements.delete(text);
    closing.push(protocol.serialize.close({ type: "S", name: statement.name }));
  }

  async function prepare(text: string, options: QueryOptions | undefined): Promise<Statement> {
    const name = `cpc_${++made}`;
    const { serialize } = protocol;
    const messages = await client.execProtocolStream(
      concat([...closing.splice(0), serialize.parse({ name, text, types: options?.paramTypes }), serialize.describe({ type: "S", name }), serialize.sync()]),
      { syncToFs: false },
    );
    return {
      name,
      parameterTypes: parse.parseDescribeStatementResults(messages),
      rowDescription: messages.find((m) => m.name === "rowDescription"),
    };
  }

  async function run<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    let statement = statements.get(text);
    if (statement) {
      // moved to the end: the map's order is the order of use
      statements.delete(text);
    } else {
      while (statements.size >= maxStatements) forget(statements.keys().next().value as string);
      statement = await prepare(text, options);
    }
    statements.set(text, statement);
    const { parameterTypes } = statement;
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serializer = options?.serializers?.[parameterTypes[i]] ?? client.serializers[parameterTypes[i]];
      return serializer ? (serializer(param) as string) : String(param);
    });
    const { serialize } = protocol;
    let messages: BackendMessage[];
    try {
      messages = await client.execProtocolStream(
        concat([...closing.splice(0), serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
        { syncToFs: false },
      );
    } catch (err) {
      // made again next time: a failure may come from the statement itself (its tables changed under it)
      forget(text);
      throw err;
    }
    // as PGlite's own query does outside a transaction
    await client.syncToFs();
    const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    return parse.parseResults(described, parsersFor(options), { rowMode: options?.rowMode })[0] as Results<T>;
  }

  client.query = async <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
    if (!params || params.length === 0 || options?.blob || !KEPT.test(text)) return plainQuery<T>(text, params, options);
    // the same locks as PGlite's own query: never inside another caller's transaction or query
    return client._runExclusiveTransaction(() => client._runExclusiveQuery(() => run<T>(text, params, options)));
  };
}
