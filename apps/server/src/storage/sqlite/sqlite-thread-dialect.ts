import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import type { SqliteThread } from './sqlite-thread.ts';

/**
 * Kysely's SQLite dialect with the connection on its own thread (sqlite-thread.ts). As in Kysely's
 * SqliteDriver, there is one connection, lent to one caller at a time, so a transaction's statements
 * never interleave with another's.
 */
export function sqliteThreadDialect(thread: SqliteThread): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new SqliteThreadDriver(thread),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
  };
}

class SqliteThreadDriver implements Driver {
  private readonly connection: DatabaseConnection;
  private lent = false;
  /** Callers waiting for the connection, first come first served; release hands it to the next. */
  private readonly waiting: Array<() => void> = [];

  constructor(thread: SqliteThread) {
    this.connection = {
      async executeQuery<R>({ sql, parameters }: CompiledQuery): Promise<QueryResult<R>> {
        const { rows, changes, lastInsertRowid } = await thread.query(sql, parameters);
        return {
          rows: rows as R[],
          ...(changes !== undefined && { numAffectedRows: BigInt(changes) }),
          ...(lastInsertRowid !== undefined && { insertId: BigInt(lastInsertRowid) }),
        };
      },
      async *streamQuery() {
        throw new Error('Streaming is not supported on the SQLite thread');
      },
    };
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.lent) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.lent = true;
    return this.connection;
  }

  async releaseConnection() {
    const next = this.waiting.shift();
    if (next) next();
    else this.lent = false;
  }

  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  // Kysely destroys only a driver that ran a query; openStorage closes the thread itself.
  async destroy() {}
}
