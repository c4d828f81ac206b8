import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { barChart } from './chart.ts';
import type { ScaleRow } from './scale.ts';
import type { BenchEntry } from './stats.ts';

const here = path.dirname(new URL(import.meta.url).pathname);
export const resultsDir = path.join(here, 'results');
const docs = path.join(here, '..', 'docs');

/** The anchors measured on this kind of machine when the goals were set. */
const ANCHORS: Record<string, string> = {
  'server.verify_throughput': 'snarkjs loop ~59/s; goal ≥ 3× (≥ 180/s), then ≥ 20× (decision 030)',
  'http.zk_verify_rps': 'goal ≥ 0.8× server.verify_throughput of the same run (decision 024)',
  'http.zk_verify_p99_ms': 'goal < 100 ms at concurrency 16 (decision 024)',
  'http.zk_verify_server_cpu_ratio': 'goal: ratio ≤ 1.25 (server CPU a verification over the verifier’s a proof; decision 054)',
  'browser.verify_journey': 'bare generateProof at depth 10 ~590 ms; goal ≤ 1.2×',
  'browser.registration_proof': 'protocol v3 registration proof (decision 040 estimated 1.7×); goal ≤ 1.5× bare depth-20 generateProof',
  'browser.second_verify_artifact_bytes': 'snarkjs with URLs 4.2 MB every proof; goal 0',
  'http.raw_register_rps': '~100/s (bound by new Identity()); goal ≥ 300/s',
  'http.raw_register_p99_ms': 'goal < 100 ms',
  'http.raw_verify_rps': '~100/s; goal ≥ 300/s',
  'http.raw_verify_p99_ms': 'goal < 100 ms',
  'web.welcome_js_gzip_kb': 'goal ≤ 150 KB',
  'browser.oidc_login_journey':
    'Sign in with ZeroID, click to signed-in page, returning browser (decisions 023, 050); goal ≤ 1.5× bare generateProof',
  'browser.oidc_login_journey_cold':
    'the same journey with empty browser caches (decision 028); goal ≤ 2× bare generateProof (decision 050)',
  'browser.phone_sign_in_journey':
    'Sign in with ZeroID on a phone, QR code to signed-in page (decision 050); goal ≤ 2× the same-device journey',
  'browser.first_verify_slow_phone':
    'first visit, 1.6 Mbps / 150 ms / page CPU 4×: click to verdict 23.5 s before; goal ≤ 5 s (decision 043)',
  'browser.first_verify_slow_phone_journey': 'the whole first visit: welcome page 3 s, typing 5 s, verdict (decision 043)',
  'browser.verify_journey_threshold': '2-of-3 nodes (decision 026); goal ≤ 1.25× bare generateProof',
  'http.raw_register_rps_threshold': '2-of-3 nodes (decision 026); goal ≥ 0.5× single-key',
  'startup.ready_ms': 'spawn to /healthz 200, empty SQLite; compiled on plain Node vs the tsx CLI (decision 018)',
  'startup.peak_rss_mb': 'whole process tree, through start-up and 20 raw registrations (decision 018)',
};

/** Rewrites docs/benchmarks.md (and its charts) from the newest results of every suite. */
export function renderBenchmarks(): string {
  const latest = readJson<{ date: string; suite: string; node: string; entries: BenchEntry[]; notes?: string[] }>('latest-run.json');
  const scale = readJson<{ date: string; rows: ScaleRow[]; notes?: string[] }>('scale-scale.json');
  const sections = ['# Benchmarks', '', 'Produced by `npm run bench` on this machine (2 cores); see `bench/README.md`.', ''];

  if (latest) {
    mkdirSync(path.join(docs, 'benchmarks'), { recursive: true });
    sections.push(
      `## Speed, against baselines measured in the same run`,
      '',
      `\`npm run bench${latest.suite === 'full' ? '' : ` -- ${latest.suite}`}\`, ${latest.date.slice(0, 10)}, Node ${latest.node}. Value and baseline are medians of \`runs\` runs; min and max are ours.`,
      '',
      '| name | value | min | max | runs | baseline | ratio | better | baseline is | anchor / goal |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...latest.entries.map(
        (e) =>
          `| \`${e.name}\` | ${e.value} ${e.unit} | ${e.min} | ${e.max} | ${e.runs} | ${e.baseline} | ×${e.ratio} | ${e.better} | ${e.baselineLabel} | ${ANCHORS[e.name] ?? ''} |`,
      ),
      '',
      // Rows replaced in place by a single suite keep their own conditions here (load, runs).
      ...(latest.notes ?? []).flatMap((note) => [note, '']),
    );
    for (const e of latest.entries.filter((entry) => !/_p(50|99)_ms$/.test(entry.name))) {
      writeFileSync(path.join(docs, 'benchmarks', `${e.name}.svg`), barChart(e));
      sections.push(`![${e.name}](benchmarks/${e.name}.svg)`, '');
    }
  }

  if (scale) {
    const rows = scale.rows;
    const runs = [...new Set(rows.map((r) => r.run ?? 'scale'))];
    // Ratios only between rows of one invocation: the 10M rows against the 1k rows measured with them.
    const ratio = (run: string, dialect: string, key: 'registerMs' | 'membersMs' | 'rawVerifyMs') => {
      const mine = rows.filter((r) => r.dialect === dialect && (r.run ?? 'scale') === run).sort((a, b) => a.identities - b.identities);
      const first = mine[0];
      const last = mine[mine.length - 1];
      return first && last && mine.length > 1 ? (last[key] / first[key]).toFixed(2) : '–';
    };
    const cell = (median: number, range?: [number, number]) => (range ? `${median} (${range[0]}–${range[1]})` : String(median));
    sections.push(
      '## Scale',
      '',
      `\`npm run bench -- scale\`, ${scale.date.slice(0, 10)}. Each row seeds the database with random identities (random field`,
      'elements as commitments, not derived from anyone) plus a tree checkpoint, starts a real server',
      'process, and measures the median (min–max) of 15 sequential requests of each kind. Ten million',
      'identities are seeded once, resumably, by `bench/seed-large.ts` and measured by `npm run bench -- scale 10m`',
      'beside a 1k row of the same run.',
      '',
      ...(scale.notes ?? []).flatMap((note) => [note, '']),
      '| run | storage | identities | ready (ms, spawn to /healthz) | server peak RSS (MB) | raw register (ms) | /members (ms) | raw verify (ms) |',
      '|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.run ?? 'scale'} | ${r.dialect} | ${r.identities.toLocaleString('en')} | ${r.readyMs} | ${r.rssMb} | ${cell(r.registerMs, r.ranges?.register)} | ${cell(r.membersMs, r.ranges?.members)} | ${cell(r.rawVerifyMs, r.ranges?.rawVerify)} |`,
      ),
      '',
      ...runs.map(
        (run) =>
          `Largest over smallest size in \`${run}\`: SQLite register ×${ratio(run, 'sqlite', 'registerMs')}, members ×${ratio(run, 'sqlite', 'membersMs')}, verify ×${ratio(run, 'sqlite', 'rawVerifyMs')}; ` +
          `PostgreSQL register ×${ratio(run, 'postgres', 'registerMs')}, members ×${ratio(run, 'postgres', 'membersMs')}, verify ×${ratio(run, 'postgres', 'rawVerifyMs')}.`,
      ),
      'The target is at most ×1.5 apart from start-up. `/members` below 1,024 members answers the whole',
      'group (decision 003), so it is heaviest at the smallest size. Resident memory includes the worker',
      'threads (raw-path derivations and proof verification, one of each per core), about 250 MB at any',
      'size; the live heap at a million members is about 140 MB (decision 006).',
      '',
    );
  }
  // Hand-written: the measurements the server's comments point to, kept beside the generated tables.
  sections.push(readFileSync(path.join(here, 'design-measurements.md'), 'utf8'));
  const markdown = sections.join('\n');
  writeFileSync(path.join(docs, 'benchmarks.md'), markdown);
  return markdown;
}

function readJson<T>(name: string): T | undefined {
  const file = path.join(resultsDir, name);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}
