import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runScale, type ScaleRow } from './scale.ts';

/**
 * `npm run bench [-- <suite>]`. Suites: `scale` (1k, 100k and 1M identities on SQLite and
 * PostgreSQL), `quick` (the same at 1k and 10k). Results go to bench/results/ and are rendered into
 * docs/benchmarks.md.
 */
const suite = process.argv[2] ?? 'scale';
const sizes = suite === 'quick' ? [1_000, 10_000] : suite === 'scale' ? [1_000, 100_000, 1_000_000] : undefined;
if (!sizes) {
  console.error(`Unknown suite "${suite}". Use: scale, quick.`);
  process.exit(2);
}

const here = path.dirname(new URL(import.meta.url).pathname);
const rows = await runScale(sizes);
mkdirSync(path.join(here, 'results'), { recursive: true });
writeFileSync(path.join(here, 'results', `scale-${suite}.json`), JSON.stringify({ date: new Date().toISOString(), rows }, null, 2) + '\n');
writeFileSync(path.join(here, '..', 'docs', 'benchmarks.md'), render(rows, suite));
console.log(render(rows, suite));

function render(rows: ScaleRow[], name: string): string {
  const table = rows
    .map(
      (r) =>
        `| ${r.dialect} | ${r.identities.toLocaleString('en')} | ${r.readyMs} | ${r.rssMb} | ${r.registerMs} | ${r.membersMs} | ${r.rawVerifyMs} |`,
    )
    .join('\n');
  const ratio = (dialect: string, key: keyof ScaleRow) => {
    const mine = rows.filter((r) => r.dialect === dialect);
    const first = mine[0];
    const last = mine[mine.length - 1];
    return first && last ? ((last[key] as number) / (first[key] as number)).toFixed(2) : '–';
  };
  return `# Benchmarks

Produced by \`npm run bench -- ${name}\` on ${new Date().toISOString().slice(0, 10)} (2 cores, Node ${process.version}).
Each row seeds the database with random identities (random field elements as commitments, not
derived from anyone) plus a tree checkpoint, starts a real server process, and measures the median of
15 sequential requests of each kind.

## Scale

| storage | identities | ready (ms, spawn to /healthz) | server peak RSS (MB) | raw register (ms) | /members (ms) | raw verify (ms) |
|---|---|---|---|---|---|---|
${table}

Largest over smallest size: SQLite register ×${ratio('sqlite', 'registerMs')}, members ×${ratio('sqlite', 'membersMs')}, verify ×${ratio('sqlite', 'rawVerifyMs')};
PostgreSQL register ×${ratio('postgres', 'registerMs')}, members ×${ratio('postgres', 'membersMs')}, verify ×${ratio('postgres', 'rawVerifyMs')}.
The target is at most ×1.5 apart from start-up. \`/members\` below 1,024 members answers the whole
group (decision 003), so it is heaviest at the smallest size.
`;
}
