import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Group } from '@semaphore-protocol/group';
import { generateOprfKeyPair } from '@zeroid/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { openStorage } from '../src/storage/open-storage.ts';
import { startServerProcess } from './server-process.ts';

/**
 * P7, nothing acknowledged is lost: registrations race while the server is killed with SIGKILL;
 * after a restart every registration that was answered `false` answers `true`, and the tree the
 * server loads equals the tree of the table. (The long version, with more cycles and PostgreSQL,
 * belongs to the chaos suite.)
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const CYCLES = 3;

describe('kill -9 under registration load (SQLite)', () => {
  it(`loses no acknowledged registration over ${CYCLES} kill cycles`, async () => {
    const { privateKey } = await generateOprfKeyPair();
    const env = { DATA_DIR: dataDir, OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url') };
    const acknowledged: Array<{ id_info: string; bio_info: string }> = [];

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const server = await startServerProcess(env);
      let stop = false;
      const workers = Array.from({ length: 8 }, async (_, worker) => {
        for (let i = 0; !stop; i++) {
          const body = { id_info: `crash-${cycle}-${worker}-${i}`, bio_info: `crash biometric ${cycle} ${worker} ${i}` };
          try {
            const response = await fetch(`${server.url}/register`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
            const reply = (await response.json()) as Record<string, unknown>;
            if (response.ok && reply['DID already generated'] === false) acknowledged.push(body);
          } catch {
            return; // the server is gone: whatever was not answered was not acknowledged
          }
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await server.stop('SIGKILL');
      stop = true;
      await Promise.all(workers);
    }
    expect(acknowledged.length).toBeGreaterThan(CYCLES * 5);

    const server = await startServerProcess(env);
    try {
      const replies = await Promise.all(
        acknowledged.map(async (body) => {
          const response = await fetch(`${server.url}/register`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          return ((await response.json()) as Record<string, unknown>)['DID already generated'];
        }),
      );
      expect(replies.filter((r) => r !== true)).toEqual([]);
      const health = (await (await fetch(`${server.url}/healthz`)).json()) as { members: number; root: string };
      await server.stop();

      const storage = await openStorage({ dataDir });
      const commitments = await storage.identities.commitmentsFrom(0, Number.MAX_SAFE_INTEGER);
      await storage.close();
      expect(health.members).toBe(commitments.length);
      expect(health.root).toBe(new Group(commitments.map((c) => BigInt(c))).root.toString());
    } finally {
      await server.stop();
    }
  }, 180_000);
});
