import path from 'node:path';
import { Group } from '@semaphore-protocol/group';
import { generateOprfKeyPair } from '@zeroid/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { openStorage } from '../../src/storage/open-storage.ts';
import { usePostgres } from '../support/use-postgres.ts';
import { startServerProcess } from '../server-process.ts';
import { KILL_CYCLES, report } from './chaos-settings.ts';
import { post } from '../support/post.ts';
import { removeTempDirs, tempDir } from '../support/temp-dir.ts';

/**
 * P7, nothing acknowledged is lost: registrations race from 8 clients while the server is killed
 * with SIGKILL, cycle after cycle. Afterwards every registration that was answered `false` answers
 * `true`, and the root the restarted server loads equals the root of a tree built from the table.
 */
const dataDir = tempDir('zeroid-chaos-kill-');
const postgres = usePostgres();
afterAll(async () => {
  removeTempDirs();
});

const backends = [
  { name: 'SQLite', storage: () => ({ dataDir: path.join(dataDir, 'sqlite') }), env: () => ({ DATA_DIR: path.join(dataDir, 'sqlite') }) },
  {
    name: 'PostgreSQL',
    storage: () => ({ dataDir: path.join(dataDir, 'pg'), databaseUrl: postgres.url }),
    env: () => ({ DATA_DIR: path.join(dataDir, 'pg'), DATABASE_URL: postgres.url }),
  },
];

describe.each(backends)('kill -9 under registration load ($name)', (backend) => {
  it(
    `loses no acknowledged registration over ${KILL_CYCLES} kill cycles`,
    async () => {
      const { privateKey } = await generateOprfKeyPair();
      const env = { ...backend.env(), OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url') };
      const acknowledged: Array<{ id_info: string; bio_info: string }> = [];
      let attempted = 0;

      for (let cycle = 0; cycle < KILL_CYCLES; cycle++) {
        const server = await startServerProcess(env);
        let stop = false;
        const workers = Array.from({ length: 8 }, async (_, worker) => {
          for (let i = 0; !stop; i++) {
            const body = { id_info: `chaos-${cycle}-${worker}-${i}`, bio_info: `chaos biometric ${cycle} ${worker} ${i}` };
            attempted++;
            try {
              const response = await post(server.url, '/register', body);
              const reply = (await response.json()) as Record<string, unknown>;
              if (response.ok && reply['DID already generated'] === false) acknowledged.push(body);
            } catch {
              return; // the server is gone: whatever was not answered was not acknowledged
            }
          }
        });
        // Kill at a different moment of the load each cycle.
        await new Promise((resolve) => setTimeout(resolve, 800 + ((cycle * 373) % 900)));
        await server.stop('SIGKILL');
        stop = true;
        await Promise.all(workers);
      }
      expect(acknowledged.length).toBeGreaterThan(KILL_CYCLES * 5);

      const server = await startServerProcess(env);
      try {
        const replies = await Promise.all(
          acknowledged.map(
            async (body) =>
              ((await (await post(server.url, '/register', body)).json()) as Record<string, unknown>)['DID already generated'],
          ),
        );
        const lost = replies.filter((r) => r !== true).length;
        const health = (await (await fetch(`${server.url}/healthz`)).json()) as { members: number; root: string };
        await server.stop();

        const storage = await openStorage(backend.storage());
        const commitments = await storage.identities.commitmentsFrom(0, Number.MAX_SAFE_INTEGER);
        await storage.close();
        const tableRoot = new Group(commitments.map((c) => BigInt(c))).root.toString();
        report('kill-under-load', {
          storage: backend.name,
          cycles: KILL_CYCLES,
          attempted,
          acknowledged: acknowledged.length,
          lost,
          rows: commitments.length,
        });

        expect(lost).toBe(0);
        expect(health.members).toBe(commitments.length);
        expect(health.root).toBe(tableRoot);
      } finally {
        await server.stop();
      }
    },
    60_000 + KILL_CYCLES * 20_000,
  );
});
