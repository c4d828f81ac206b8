import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../apps/server/test/server-process.ts';
import { entry, repeat, type BenchEntry } from '../stats.ts';

const serverDir = path.resolve(import.meta.dirname, '../../apps/server');

/** The two ways the server has been started by `npm start` (decision 018), npm itself left out. */
const RUNTIMES = {
  compiled: [process.execPath, path.join(serverDir, 'scripts/start-server.js')],
  tsx: [path.resolve(serverDir, '../../node_modules/.bin/tsx'), 'src/server.ts'],
} as const;

/** Resident memory in MB of a process and all its descendants (the tsx CLI runs the server in a child node process, beside an esbuild service). */
function treeRssMb(pid: number): number {
  let total = 0;
  try {
    const own = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    total = own ? Number(own[1]) / 1024 : 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) {
        total += treeRssMb(Number(child));
      }
    }
  } catch {
    // the process ended between two reads
  }
  return total;
}

/**
 * Spawn to /healthz 200 on an empty SQLite database, and the peak resident memory of the process
 * tree until then and over 20 raw registrations after it.
 */
async function startOnce(runtime: keyof typeof RUNTIMES): Promise<{ readyMs: number; rssMb: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-startup-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const [command, ...args] = RUNTIMES[runtime];
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      WEB_DIST: '/nonexistent',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let peak = 0;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${runtime}: server exited with ${child.exitCode}`);
      peak = Math.max(peak, treeRssMb(child.pid!));
      const ready = await fetch(`${url}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (performance.now() - started > 60_000) throw new Error(`${runtime}: not ready within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const readyMs = performance.now() - started;
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id_info: `startup id ${i}`, bio_info: `startup biometric ${i}` }),
      });
      if (!response.ok) throw new Error(`${runtime}: registration answered ${response.status}`);
      peak = Math.max(peak, treeRssMb(child.pid!));
    }
    return { readyMs, rssMb: peak };
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * `npm start`'s runtime: the compiled bundles on bare Node against the sources under the tsx CLI,
 * as `npm start` ran them before decision 018. The build is made before the first run, so neither
 * side pays a build; the two alternate run by run so that both see the same machine.
 */
export async function runStartup({ runs }: { runs: number }): Promise<BenchEntry[]> {
  await startOnce('compiled'); // builds dist/ if needed, and warms the file cache for both
  const samples = await repeat(runs, async () => ({ compiled: await startOnce('compiled'), tsx: await startOnce('tsx') }));
  const label = 'the same server under the tsx CLI (npm start before decision 018)';
  return [
    entry(
      'startup.ready_ms',
      'ms',
      'lower',
      samples.map((s) => Math.round(s.compiled.readyMs)),
      samples.map((s) => Math.round(s.tsx.readyMs)),
      label,
    ),
    entry(
      'startup.peak_rss_mb',
      'MB',
      'lower',
      samples.map((s) => Math.round(s.compiled.rssMb)),
      samples.map((s) => Math.round(s.tsx.rssMb)),
      label,
    ),
  ];
}
