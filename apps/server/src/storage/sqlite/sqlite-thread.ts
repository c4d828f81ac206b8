import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { threadEntry } from '../../threads/thread-entry.ts';

type ErrorFields = { name: string; message: string; code?: string };

export type SqliteThreadRequest = { kind: 'query'; id: number; sql: string; parameters: readonly unknown[] } | { kind: 'close' };
export type SqliteThreadReply =
  | { kind: 'opened' }
  | { kind: 'open-failed'; error: ErrorFields }
  | { kind: 'result'; id: number; rows: unknown[]; changes?: number; lastInsertRowid?: number | bigint }
  | { kind: 'failed'; id: number; error: ErrorFields };

export interface SqliteResult {
  rows: unknown[];
  changes?: number | undefined;
  lastInsertRowid?: number | bigint | undefined;
}

export interface SqliteThread {
  /** Runs one statement on the thread's connection, after every statement sent before it. */
  query(sql: string, parameters: readonly unknown[]): Promise<SqliteResult>;
  close(): Promise<void>;
}

/** What a statement fails with if the thread is gone; the server answers it with 503, like any storage failure. */
export class SqliteThreadGoneError extends Error {
  readonly code = 'ZEROID_STORAGE_UNAVAILABLE';
  constructor(why: string) {
    super(`The SQLite thread has stopped: ${why}`);
    this.name = 'SqliteThreadGoneError';
  }
}

/** better-sqlite3's errors cross the thread as plain fields; the code (SQLITE_BUSY, SQLITE_FULL…) is what callers read. */
const rebuild = ({ name, message, code }: ErrorFields) => Object.assign(new Error(message), { name }, code === undefined ? {} : { code });

/**
 * Opens `${dataDir}/zeroid.sqlite` on a thread of its own. better-sqlite3 is synchronous, and with
 * `synchronous = FULL` every commit waits for an fsync: on the event loop, under raw registrations at
 * concurrency 16, commits held the main thread about half of the time (docs/benchmarks.md, "SQLite commits"), and every other
 * request waited behind them. Here the event loop only posts statements and reads answers; the
 * durability settings, the statements and their order are exactly as before (decision 011).
 */
export async function openSqliteThread(
  dataDir: string,
  { maxSizeBytes }: { maxSizeBytes?: number | undefined } = {},
): Promise<SqliteThread> {
  const worker = sqliteWorker(threadEntry('sqlite-thread-worker', import.meta.url), { dataDir, maxSizeBytes });
  const pending = new Map<number, { resolve: (result: SqliteResult) => void; reject: (error: unknown) => void }>();
  let nextId = 0;
  let gone: SqliteThreadGoneError | undefined;

  const opened = new Promise<void>((resolve, reject) => {
    worker.on('message', (reply: SqliteThreadReply) => {
      if (reply.kind === 'opened') return resolve();
      if (reply.kind === 'open-failed') return reject(rebuild(reply.error));
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.kind === 'failed') waiting?.reject(rebuild(reply.error));
      else waiting?.resolve(reply);
    });
    const stop = (why: string) => {
      gone = new SqliteThreadGoneError(why);
      reject(gone);
      for (const waiting of pending.values()) waiting.reject(gone);
      pending.clear();
    };
    worker.on('error', (error) => stop(error.message));
    worker.on('exit', (code) => stop(`exit code ${code}`));
  });
  try {
    await opened;
  } catch (error) {
    await worker.terminate();
    throw error;
  }

  return {
    query(sql, parameters) {
      if (gone) return Promise.reject(gone);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ kind: 'query', id, sql, parameters } satisfies SqliteThreadRequest);
      });
    },
    async close() {
      if (gone) return;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage({ kind: 'close' } satisfies SqliteThreadRequest);
      await exited;
    },
  };
}

/**
 * The compiled server starts the worker's bundle as it is. From the sources, Node refuses a .ts file
 * as a worker's entry point, and an eval'd entry gets no --import: the entry registers tsx's require
 * hook, then loads the TypeScript module through it.
 */
function sqliteWorker(entry: URL, workerData: { dataDir: string; maxSizeBytes?: number | undefined }): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData });
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs');
  return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(fileURLToPath(entry))});`, { eval: true, workerData });
}
