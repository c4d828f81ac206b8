import { parentPort, workerData } from 'node:worker_threads';
import type { SqliteDatabase, SqliteStatement } from './sqlite-driver.ts';
import { openSqliteFile } from './sqlite-file.ts';
import type { SqliteThreadReply, SqliteThreadRequest } from './sqlite-thread.ts';

/**
 * The thread that owns the SQLite connection (sqlite-thread.ts): it runs each statement it is sent,
 * in order, and answers with the rows or the error. Statements are prepared once and kept, as
 * better-sqlite3's `prepare` costs about a tenth of a millisecond.
 */
const { dataDir, maxSizeBytes } = workerData as { dataDir: string; maxSizeBytes: number | undefined };
const port = parentPort!;
const post = (reply: SqliteThreadReply) => port.postMessage(reply);
const errorOf = (error: unknown) => {
  const { name, message, code } = error as { name?: unknown; message?: unknown; code?: unknown };
  return {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : 'Unknown error',
    ...(typeof code === 'string' && { code }),
  };
};

/** Statements by SQL text, oldest first; queries built at run time vary (batch inserts), so the cache is bounded. */
const STATEMENT_CACHE_SIZE = 256;
const statements = new Map<string, SqliteStatement>();
function statement(database: SqliteDatabase, sql: string): SqliteStatement {
  let prepared = statements.get(sql);
  if (!prepared) {
    prepared = database.prepare(sql);
    statements.set(sql, prepared);
    if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
  }
  return prepared;
}

let database: SqliteDatabase;
try {
  database = openSqliteFile(dataDir, { maxSizeBytes });
  post({ kind: 'opened' });
} catch (error) {
  post({ kind: 'open-failed', error: errorOf(error) });
  process.exit(0);
}

port.on('message', (request: SqliteThreadRequest) => {
  if (request.kind === 'close') {
    database.close();
    process.exit(0); // in a worker, ends only this thread
  }
  const { id, sql, parameters } = request;
  try {
    const prepared = statement(database, sql);
    if (prepared.reader) {
      post({ kind: 'result', id, rows: prepared.all(parameters) });
    } else {
      const { changes, lastInsertRowid } = prepared.run(parameters);
      post({ kind: 'result', id, rows: [], changes, lastInsertRowid });
    }
  } catch (error) {
    post({ kind: 'failed', id, error: errorOf(error) });
  }
});
