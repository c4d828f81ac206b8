import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

/**
 * Issue 27's raw-path goal over HTTP: raw registration under protocol v3 (this checkout) at least 0.5×
 * the rate of protocol v2, single key, in the same run. No server here registers v2 any more, so the
 * v2 side is a checkout of fec250e, main's last commit before protocol v3 (with its own
 * `npm ci`); both run from their sources under tsx with the same settings, 16 connections, 10 s
 * turns taking turns (the order flips each run). Not a suite: it needs that second checkout.
 *
 *   git worktree add /tmp/zeroid-v2 fec250e && (cd /tmp/zeroid-v2 && npm ci)
 *   npx tsx bench/raw-register-against-v2.ts /tmp/zeroid-v2 [runs = 5]
 */
const [v2Checkout, runsArg] = process.argv.slice(2);
if (!v2Checkout) throw new Error('Usage: npx tsx bench/raw-register-against-v2.ts <checkout of fec250e> [runs]');

const servers = [
  { name: 'v3', cwd: path.join(import.meta.dirname, '..'), port: 18401 },
  { name: 'v2 (fec250e)', cwd: path.resolve(v2Checkout), port: 18402 },
];
const procs = servers.map((s) =>
  spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: s.cwd,
    env: {
      ...process.env,
      PORT: String(s.port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'rawcmp-')),
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
    },
    stdio: 'inherit',
  }),
);
for (const s of servers) {
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${s.port}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
const tag = Date.now().toString(36);
const results: Record<string, number[]> = {};
const runs = Number(runsArg ?? 5);
for (let run = 0; run < runs; run++) {
  for (const s of run % 2 ? [...servers].reverse() : servers) {
    let i = 0;
    const r = await autocannon({
      url: `http://127.0.0.1:${s.port}/register`,
      connections: 16,
      duration: 10,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({ id_info: `cmp ${tag} ${run} ${i}`, bio_info: `cmp bio ${tag} ${run} ${i++}` }),
          }),
        },
      ],
    });
    (results[s.name] ??= []).push(r.requests.average);
    console.log(run, s.name, r.requests.average, 'req/s', 'non2xx', r.non2xx, 'load', loadavg()[0]!.toFixed(1));
  }
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const v3 = results[servers[0]!.name]!,
  v2 = results[servers[1]!.name]!;
console.log(
  'median v3',
  med(v3),
  'v2',
  med(v2),
  'ratio',
  (med(v3) / med(v2)).toFixed(3),
  'per-run ratios',
  v3.map((x, k) => (x / v2[k]!).toFixed(2)).join(' '),
);
procs.forEach((p) => p.kill());
