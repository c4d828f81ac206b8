import { mkdtempSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startServerOfCheckout } from '../apps/server/test/server-process.ts';

/**
 * The raw-path goal over HTTP (decision 065): raw registration under protocol v3 (this checkout) at least 0.5×
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
  { name: 'v3', root: path.join(import.meta.dirname, '..') },
  { name: 'v2 (fec250e)', root: path.resolve(v2Checkout) },
];
const started = await Promise.all(
  servers.map(({ root }) =>
    startServerOfCheckout(root, { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'rawcmp-')) }, { readyTimeoutMs: 180_000 }),
  ),
);
const tag = Date.now().toString(36);
const results: Record<string, number[]> = {};
const runs = Number(runsArg ?? 5);
for (let run = 0; run < runs; run++) {
  for (const [n, s] of run % 2 ? [...servers.entries()].reverse() : [...servers.entries()]) {
    let i = 0;
    const r = await autocannon({
      url: `${started[n]!.url}/register`,
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
await Promise.all(started.map((server) => server.stop()));
