import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { openStorage, type StorageOptions } from '../src/storage/open-storage.ts';
import type { RegisterOutcome } from '../src/storage/types.ts';

type NewIdentity = { commitment: string; idTag: string; did: string };

const tsx = path.resolve(import.meta.dirname, '../../../node_modules/.bin/tsx');

/**
 * Starts one Node process per batch; once every process has loaded, all of them open storage on
 * the same database at the same moment (migrations included) and register their batch
 * concurrently: the way server processes meet on one database when they are deployed together.
 * Without the barrier, process start-up (about a second each, staggered) keeps the migrations
 * from ever overlapping. In-process connections cannot stand in for this with SQLite, whose busy
 * wait blocks the event loop.
 */
export async function registerInProcessesAtOnce(options: StorageOptions, batches: NewIdentity[][]): Promise<RegisterOutcome[][]> {
  const children = batches.map((identities) => {
    const child = spawn(tsx, [import.meta.filename, JSON.stringify({ options, identities })], { stdio: ['pipe', 'pipe', 'pipe'] });
    const output = { stdout: '', stderr: '' };
    child.stdout.on('data', (chunk) => (output.stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (output.stderr += String(chunk)));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => output.stdout.startsWith('ready\n') && resolve());
      void exited.then(([code]) => reject(new Error(`storage process exited with ${code} before it was ready:\n${output.stderr}`)));
    });
    return { child, output, exited, ready };
  });
  try {
    await Promise.all(children.map((c) => c.ready));
    for (const { child } of children) child.stdin.end('go\n');
    return await Promise.all(
      children.map(async ({ output, exited }) => {
        const [code] = await exited;
        if (code !== 0) throw new Error(`storage process exited with ${code}:\n${output.stderr}`);
        return JSON.parse(output.stdout.slice('ready\n'.length)) as RegisterOutcome[];
      }),
    );
  } finally {
    for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

if (process.argv[1] === import.meta.filename) {
  const { options, identities } = JSON.parse(process.argv[2] ?? '') as { options: StorageOptions; identities: NewIdentity[] };
  process.stdout.write('ready\n');
  await once(createInterface({ input: process.stdin }), 'line');
  const storage = await openStorage(options);
  try {
    process.stdout.write(JSON.stringify(await Promise.all(identities.map((identity) => storage.identities.register(identity)))));
  } finally {
    await storage.close();
  }
}
