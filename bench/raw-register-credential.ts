import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { issueCredential, issuerPublicKey } from '@zeroid/protocol/credential';
import { startServerProcess } from '../apps/server/test/server-process.ts';
import { median } from './stats.ts';

/**
 * The raw-path goal of decisions 079 and 085: a raw registration with a credential at least 0.5× the
 * rate of a plain raw registration, on one server process (SQLite, single key, default threads)
 * trusting two issuers, in the same run. Each turn sends `perTurn` new registrations, 16 in flight,
 * plain and credential turns taking turns (the order flips each round), every reply checked to be a
 * new DID. Credentials are signed beforehand (about a quarter of a second each in zk-kit's JavaScript).
 * Not a suite: a goal check printed to the console.
 *
 *   npx tsx bench/raw-register-credential.ts [rounds = 3] [perTurn = 120]
 */
const [roundsArg, perTurnArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 3);
const perTurn = Number(perTurnArg ?? 120);
const CONCURRENCY = 16;
const university = new Uint8Array(32).fill(1);
const employer = new Uint8Array(32).fill(2);
const tag = Date.now().toString(36);

console.log(`Signing ${rounds * perTurn} credentials…`);
const credentials = Array.from({ length: rounds * perTurn }, (_, i) =>
  issueCredential(university, `bench credential ${tag} ${i}`, { expires: '2099-12-31' }),
);
const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-bench-credential-'));
const server = await startServerProcess(
  { DATA_DIR: dataDir, TRUSTED_ISSUERS: `Example University=${issuerPublicKey(university)},${issuerPublicKey(employer)}` },
  { readyTimeoutMs: 180_000 },
);

/** Registrations a second for `bodies`, CONCURRENCY in flight; throws unless each made a new DID. */
async function turn(bodies: { id_info: string; bio_info: string }[]): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        const reply = await fetch(`${server.url}/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const answer = (await reply.json()) as { 'DID already generated'?: boolean };
        if (reply.status !== 200 || answer['DID already generated'] !== false) throw new Error(`Not a new registration: ${reply.status}`);
      }
    }),
  );
  return bodies.length / ((performance.now() - started) / 1000);
}

const rates = { plain: [] as number[], credential: [] as number[] };
try {
  // One uncounted turn of each warms the derivation threads.
  await turn(Array.from({ length: 16 }, (_, i) => ({ id_info: `warm ${tag} ${i}`, bio_info: `warm bio ${tag} ${i}` })));
  for (let round = 0; round < rounds; round++) {
    const plain = () =>
      turn(
        Array.from({ length: perTurn }, (_, i) => ({
          id_info: `bench plain ${tag} ${round} ${i}`,
          bio_info: `bench bio p ${tag} ${round} ${i}`,
        })),
      );
    const credential = () =>
      turn(
        credentials
          .slice(round * perTurn, (round + 1) * perTurn)
          .map((line, i) => ({ id_info: line, bio_info: `bench bio c ${tag} ${round} ${i}` })),
      );
    for (const kind of round % 2 ? (['credential', 'plain'] as const) : (['plain', 'credential'] as const)) {
      rates[kind].push(await (kind === 'plain' ? plain() : credential()));
      console.log(round, kind, rates[kind].at(-1)!.toFixed(1), 'req/s', 'load', loadavg()[0]!.toFixed(1));
    }
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
const ratios = rates.credential.map((rate, i) => rate / rates.plain[i]!);
console.log(
  `medians of ${rounds}: plain ${median(rates.plain).toFixed(1)} req/s, credential ${median(rates.credential).toFixed(1)} req/s; ` +
    `ratio ${(median(rates.credential) / median(rates.plain)).toFixed(2)} (median of round ratios ${median(ratios).toFixed(2)}; goal ≥ 0.5)`,
);
