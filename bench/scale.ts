import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { generateOprfKeyPair } from '@zeroid/protocol';
import { openStorage } from './server.ts';
import { startEmbeddedPostgres } from '../apps/server/test/embedded-postgres.ts';
import { startPersistentPostgres } from './persistent-postgres.ts';
import { startServerProcess } from '../apps/server/test/server-process.ts';
import { randomIdentities, SeedTree, seedIdentities } from './seed-identities.ts';
import { median } from './stats.ts';

export interface ScaleRow {
  dialect: 'sqlite' | 'postgres';
  identities: number;
  readyMs: number;
  rssMb: number;
  registerMs: number;
  membersMs: number;
  rawVerifyMs: number;
  /** Min and max of the samples whose medians are above, in ms. */
  ranges?: { register: [number, number]; members: [number, number]; rawVerify: [number, number] };
  /** Which invocation measured the row (`scale` or `scale 10m`): ratios compare rows of one run. */
  run?: string;
}

const range = (xs: number[]): [number, number] => [+Math.min(...xs).toFixed(1), +Math.max(...xs).toFixed(1)];

/**
 * Resident memory in MB of the server: the largest process under the one we spawned (tsx runs the
 * server in a child node process, beside a small esbuild service).
 */
function rssMb(pid: number): number {
  const own = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  let largest = own ? Number(own[1]) / 1024 : 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) {
      largest = Math.max(largest, rssMb(Number(child)));
    }
  }
  return largest;
}

async function timed(request: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await request();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return performance.now() - started;
}

/** Starts a server on the seeded database, measures, and stops it. */
async function measure(env: Record<string, string>, dialect: ScaleRow['dialect'], identities: number, samples: number): Promise<ScaleRow> {
  const started = performance.now();
  const server = await startServerProcess(env, { readyTimeoutMs: 600_000 });
  const readyMs = performance.now() - started;
  const pid = server.process.pid!;
  let peak = rssMb(pid);
  const post = (url: string, body: object) =>
    fetch(server.url + url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const tag = randomBytes(6).toString('hex');
  const register: number[] = [];
  const members: number[] = [];
  const verify: number[] = [];
  const { bucketHexChars } = (await (await fetch(`${server.url}/members`)).json()) as { bucketHexChars: number };
  for (let i = 0; i < samples; i++) {
    register.push(await timed(() => post('/register', { id_info: `scale-${tag}-${i}`, bio_info: `scale bio ${tag} ${i}` })));
    const bucket = randomBytes(2).toString('hex').slice(0, bucketHexChars);
    members.push(await timed(() => fetch(`${server.url}/members?bucket=${bucket}`)));
    verify.push(await timed(() => post('/verify', { bio_info: `scale bio ${tag} ${i}` })));
    peak = Math.max(peak, rssMb(pid));
  }
  await server.stop();
  return {
    dialect,
    identities,
    readyMs: Math.round(readyMs),
    rssMb: Math.round(peak),
    registerMs: +median(register).toFixed(1),
    membersMs: +median(members).toFixed(1),
    rawVerifyMs: +median(verify).toFixed(1),
    ranges: { register: range(register), members: range(members), rawVerify: range(verify) },
  };
}

/**
 * Time to ready, memory and latencies at growing registry sizes, on SQLite and on PostgreSQL, each
 * filled with random identities and a tree checkpoint, as a running server would have left them.
 */
export async function runScale(sizes: number[], samples = 15, seededDir?: string): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = [];
  // A seeded data set remembers the OPRF key of the first server on it (decision 019): keep it beside the data.
  const keyFile = seededDir && path.join(seededDir, 'bench-oprf-key');
  const key =
    keyFile && existsSync(keyFile)
      ? readFileSync(keyFile, 'utf8').trim()
      : Buffer.from((await generateOprfKeyPair()).privateKey).toString('base64url');
  if (keyFile) writeFileSync(keyFile, key);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-scale-'));
  const postgres = await startEmbeddedPostgres();
  const backends: Array<{ dialect: ScaleRow['dialect']; storage: Awaited<ReturnType<typeof openStorage>>; env: Record<string, string> }> = [
    { dialect: 'sqlite', storage: await openStorage({ dataDir }), env: { DATA_DIR: dataDir, OPRF_PRIVATE_KEY: key } },
    {
      dialect: 'postgres',
      storage: await openStorage({ databaseUrl: postgres.url, dataDir }),
      env: { DATA_DIR: dataDir, DATABASE_URL: postgres.url, OPRF_PRIVATE_KEY: key },
    },
  ];
  try {
    const groups = backends.map(() => new SeedTree());
    for (const size of sizes) {
      for (const [i, backend] of backends.entries()) {
        const group = groups[i]!;
        const started = performance.now();
        await seedIdentities(backend.storage, group, randomIdentities(Math.max(0, size - group.size)));
        console.error(`seeded ${backend.dialect} to ${group.size} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
        await backend.storage.close();
        const row = await measure(backend.env, backend.dialect, group.size, samples);
        console.error(JSON.stringify(row));
        rows.push(row);
        backend.storage = await openStorage(backend.dialect === 'postgres' ? { databaseUrl: postgres.url, dataDir } : { dataDir });
        // The measurement registered a few identities of its own: keep the seeding tree in step.
        const added = await backend.storage.identities.commitmentsFrom(group.size, Number.MAX_SAFE_INTEGER);
        group.add(added);
      }
    }
  } finally {
    for (const backend of backends) await backend.storage.close().catch(() => undefined);
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (seededDir) rows.push(...(await measureSeeded(seededDir, env0(key), samples)));
  return rows;
}

const env0 = (key: string) => ({ OPRF_PRIVATE_KEY: key });

/**
 * The same measurements on a data set left by `bench/seed-large.ts` (ten million takes hours to
 * seed, so it is seeded once, resumably, and kept): SQLite in `<dir>/sqlite`, PostgreSQL in
 * `<dir>/postgres`. Each run adds its few registrations to it, and the server's stop saves a checkpoint.
 */
async function measureSeeded(dir: string, env: Record<string, string>, samples: number): Promise<ScaleRow[]> {
  const times = JSON.parse(readFileSync(path.join(dir, 'seed-times.json'), 'utf8')) as Record<string, { done?: boolean; count?: number }>;
  if (!times.finish?.done) throw new Error(`${dir} is not seeded: run bench/seed-large.ts --part tree, sqlite, postgres, then finish`);
  const rows: ScaleRow[] = [];
  const sqliteDir = path.join(dir, 'sqlite');
  const count = async (options: Parameters<typeof openStorage>[0]) => {
    const storage = await openStorage(options);
    try {
      return await storage.identities.leafCount();
    } finally {
      await storage.close();
    }
  };
  // SCALE_DIALECTS=sqlite measures a data set seeded (or finished) on SQLite only.
  const dialects = (process.env.SCALE_DIALECTS ?? 'sqlite,postgres').split(',');
  if (dialects.includes('sqlite')) {
    rows.push(await measure({ ...env, DATA_DIR: sqliteDir }, 'sqlite', await count({ dataDir: sqliteDir }), samples));
    console.error(JSON.stringify(rows[rows.length - 1]));
  }
  if (!dialects.includes('postgres')) return rows;
  const postgres = await startPersistentPostgres(path.join(dir, 'postgres'));
  try {
    const options = { databaseUrl: postgres.url, dataDir: dir };
    rows.push(await measure({ ...env, DATA_DIR: dir, DATABASE_URL: postgres.url }, 'postgres', await count(options), samples));
    console.error(JSON.stringify(rows[rows.length - 1]));
  } finally {
    await postgres.stop();
  }
  return rows;
}
