import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeProofs, releaseSnarkjs } from '../apps/server/test/real-proofs.ts';
import { renderBenchmarks, resultsDir } from './render.ts';
import { runScale, type ScaleRow } from './scale.ts';
import { ASSUMPTIONS, extrapolate, measureInputs, simulationTable, writeSimulation } from './simulate.ts';
import type { BenchEntry } from './stats.ts';
import { runBrowser } from './suites/browser.ts';
import { runFirstVerify } from './suites/first-verify.ts';
import { runHttp, runHttpZk } from './suites/http.ts';
import { runNoisy } from './suites/noisy.ts';
import { runStartup } from './suites/startup.ts';
import { runOidcLogin } from './suites/oidc-login.ts';
import { runRegistrationProof } from './suites/registration-proof.ts';
import { runThreshold } from './suites/threshold.ts';
import { runVerifier } from './suites/verifier.ts';
import { createBenchVerifier } from './suites/our-verifier.ts';

/**
 * `npm run bench [-- <suite>]`:
 * - (none) or `full`: every speed benchmark beside its baseline, 5 runs each → bench/results/latest.json;
 * - `quick`: the same with shorter runs, in under 3 minutes;
 * - `scale`: 1k, 100k and 1M identities on SQLite and PostgreSQL → bench/results/scale-scale.json;
 *   `scale 10m` measures 1k (the same-run baseline) and the ten-million data set seeded beforehand by
 *   bench/seed-large.ts in SCALE_DATA_DIR (default .tmp/scale-10m), and adds its rows to that file;
 * - `simulate`: small-scale measurements extrapolated to 1 billion → bench/results/simulate.json and docs/scaling.md;
 * - `startup`: only the start-up entries (compiled against tsx), replaced in place in the latest results;
 * - `oidc`: only browser.oidc_login_journey, its cold row and browser.phone_sign_in_journey (Sign in with ZeroID,
 *   decisions 023, 028 and 050), replaced in place;
 * - `threshold`: only the threshold OPRF entries (2-of-3 nodes, decision 021), replaced likewise;
 * - `verify`: only `server.verify_throughput` and `http.zk_verify_*`, replaced in place likewise;
 * - `first-verify`: only browser.first_verify_slow_phone and its whole-journey row (decision
 *   043), a first visitor on a throttled phone beside the same unthrottled, replaced likewise;
 * - `browser`: only the verification journey's rows (browser.verify_journey, the second verification's
 *   bytes, the welcome page's JavaScript), replaced likewise;
 * - `noisy`: the experimental noise-tolerant biometrics (decision 077): simulated error rates, anonymity and
 *   bytes, and the whole verification in Chromium beside a bare depth-20 proof → bench/results/noisy-biometrics.json
 *   (BENCH_RUNS turns, default 3); latest.json is left alone;
 * - `registration`: only browser.registration_proof (protocol v3's registration proof against a bare
 *   depth-20 Semaphore proof, decision 040), replaced likewise (BENCH_RUNS turns, default 9);
 * - `credential`, `sign-in-credential`: the same for the credential registration proof (decision 085)
 *   and the credential sign-in proof (decision 087).
 * Each rewrites docs/benchmarks.md from the newest results of both.
 */
const suite = process.argv[2] ?? 'full';
/** Zero-knowledge verifications a run sends (each with its own proof, made beforehand). */
const ZK_PROOFS_PER_RUN = 64;

/** Replaces the entries `stale` picks, in the latest results, by `fresh` (in their place). */
function replaceInLatest(stale: (name: string) => boolean, fresh: BenchEntry[]) {
  const replace = (entries: BenchEntry[]) => {
    const at = entries.findIndex((e) => stale(e.name));
    const kept = entries.filter((e) => !stale(e.name));
    kept.splice(at === -1 ? kept.length : at, 0, ...fresh);
    return kept;
  };
  const latest = JSON.parse(readFileSync(path.join(resultsDir, 'latest.json'), 'utf8')) as BenchEntry[];
  writeFileSync(path.join(resultsDir, 'latest.json'), JSON.stringify(replace(latest), null, 2) + '\n');
  const run = JSON.parse(readFileSync(path.join(resultsDir, 'latest-run.json'), 'utf8')) as { entries: BenchEntry[] };
  writeFileSync(path.join(resultsDir, 'latest-run.json'), JSON.stringify({ ...run, entries: replace(run.entries) }, null, 2) + '\n');
}
mkdirSync(resultsDir, { recursive: true });
const started = performance.now();

if (suite === 'scale') {
  const file = path.join(resultsDir, 'scale-scale.json');
  if (process.argv[3] === '10m') {
    const seeded = path.resolve(process.env.SCALE_DATA_DIR ?? '.tmp/scale-10m');
    const rows = await runScale([1_000], 15, seeded);
    // This run's 1k rows are the baseline of its seeded ones; rows of other runs stay beside them.
    const label = process.env.SCALE_RUN_LABEL ?? 'scale 10m';
    const earlier = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { rows: ScaleRow[]; notes?: string[] }) : { rows: [] };
    const kept = earlier.rows.map((r) => ({ ...r, run: r.run ?? 'scale' })).filter((r) => r.run !== label);
    const tagged = rows.map((r) => ({ ...r, run: label }));
    // The notes describe the kept rows of earlier runs (how they were seeded): they stay with them.
    const notes = earlier.notes && { notes: earlier.notes };
    writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), rows: [...kept, ...tagged], ...notes }, null, 2) + '\n');
  } else {
    const rows = await runScale([1_000, 100_000, 1_000_000]);
    writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), rows }, null, 2) + '\n');
  }
} else if (suite === 'simulate') {
  const inputs = await measureInputs();
  const rows = extrapolate(inputs);
  const date = new Date().toISOString();
  writeFileSync(path.join(resultsDir, 'simulate.json'), JSON.stringify({ date, assumptions: ASSUMPTIONS, inputs, rows }, null, 2) + '\n');
  writeSimulation(path.join(resultsDir, '..', '..', 'docs', 'scaling.md'), date, inputs, rows);
  console.error(simulationTable(rows));
} else if (suite === 'full' || suite === 'quick') {
  const quick = suite === 'quick';
  const runs = 5;
  console.error('server.verify_throughput…');
  const proofs = await makeProofs(quick ? 8 : 16);
  await releaseSnarkjs();
  const verifier = await createBenchVerifier();
  const {
    entries: verifierEntries,
    baselineRps,
    oursRps,
    oursCpuMsPerProof,
  } = await runVerifier(proofs, verifier, { runs, seconds: quick ? 2 : 5 });
  await verifier.close();
  console.error('http.*…');
  const http = await runHttp(
    { runs, seconds: quick ? 3 : 10, proofsPerRun: quick ? 24 : ZK_PROOFS_PER_RUN },
    { snarkjsRps: baselineRps, verifierRps: oursRps, verifierCpuMsPerProof: oursCpuMsPerProof },
  );
  console.error('browser.* and web.*…');
  const browser = await runBrowser({ runs, members: 1_000 });
  console.error('browser.oidc_login_journey…');
  // Sign in with ZeroID (decision 023); runBrowser has just built the web app.
  const oidc = await runOidcLogin({ runs, members: 1_000, build: false });
  console.error('browser.first_verify_slow_phone…');
  // A first visit on a slow phone (decision 043): some 30 s a turn, so 3 turns, and none in quick.
  const firstVerify = quick ? [] : await runFirstVerify({ runs: 3, build: false });
  // Ten server starts take about a minute and a half: too long for quick's three minutes.
  if (!quick) console.error('startup.*…');
  const startup = quick ? [] : await runStartup({ runs });
  console.error('threshold.*…');
  const threshold = await runThreshold({ runs, seconds: quick ? 3 : 10, members: 1_000 });
  console.error('browser.registration_proof…');
  const registration = await runRegistrationProof({ runs: quick ? 3 : runs });
  const entries: BenchEntry[] = [
    ...verifierEntries,
    ...http,
    ...browser,
    ...registration,
    ...oidc,
    ...firstVerify,
    ...startup,
    ...threshold,
  ];
  writeFileSync(path.join(resultsDir, 'latest.json'), JSON.stringify(entries, null, 2) + '\n');
  writeFileSync(
    path.join(resultsDir, 'latest-run.json'),
    JSON.stringify({ date: new Date().toISOString(), suite, node: process.version, entries }, null, 2) + '\n',
  );
} else if (suite === 'startup') {
  const startup = await runStartup({ runs: 5 });
  console.error(JSON.stringify(startup, null, 2));
  replaceInLatest((name) => name.startsWith('startup.'), startup);
} else if (suite === 'threshold') {
  const threshold = await runThreshold({ runs: 5, seconds: 10, members: 1_000 });
  console.error(JSON.stringify(threshold, null, 2));
  const names = new Set(threshold.map((e) => e.name));
  replaceInLatest((name) => names.has(name), threshold);
} else if (suite === 'oidc') {
  // Sign in with ZeroID (decisions 023, 028, 050): only browser.oidc_login_journey, its cold row and the phone's, replaced in place.
  // BENCH_RUNS: more turns for a steadier median on a busy machine (the report must say so).
  const oidc = await runOidcLogin({ runs: Number(process.env.BENCH_RUNS ?? 5), members: 1_000 });
  replaceInLatest((name) => name.startsWith('browser.oidc_login_journey') || name === 'browser.phone_sign_in_journey', oidc);
} else if (suite === 'first-verify') {
  // BENCH_RUNS: more turns for a steadier median (default 3).
  const fresh = await runFirstVerify({ runs: Number(process.env.BENCH_RUNS ?? 3) });
  console.error(JSON.stringify(fresh, null, 2));
  replaceInLatest((name) => name.startsWith('browser.first_verify_slow_phone'), fresh);
} else if (suite === 'browser') {
  const fresh = await runBrowser({ runs: Number(process.env.BENCH_RUNS ?? 5), members: 1_000 });
  const names = new Set(fresh.map((e) => e.name));
  replaceInLatest((name) => names.has(name), fresh);
} else if (suite === 'registration') {
  const fresh = await runRegistrationProof({ runs: Number(process.env.BENCH_RUNS ?? 9) });
  replaceInLatest((name) => name === 'browser.registration_proof', fresh);
} else if (suite === 'credential') {
  // The credential registration proof (decision 085) against bare depth-20 generateProof, taking turns.
  const fresh = await runRegistrationProof({ runs: Number(process.env.BENCH_RUNS ?? 9), circuit: 'registration-credential' });
  replaceInLatest((name) => name === 'browser.credential_registration_proof', fresh);
} else if (suite === 'sign-in-credential') {
  // The credential sign-in proof (decision 087) against bare depth-20 generateProof, taking turns.
  const fresh = await runRegistrationProof({ runs: Number(process.env.BENCH_RUNS ?? 9), circuit: 'sign-in-credential' });
  replaceInLatest((name) => name === 'browser.sign_in_credential_proof', fresh);
} else if (suite === 'noisy') {
  const rows = await runNoisy({ runs: Number(process.env.BENCH_RUNS ?? 3) });
  console.error(JSON.stringify(rows, null, 2));
} else if (suite === 'verify') {
  // BENCH_RUNS and ZK_PROOFS shorten a run on a busy machine (the report must say so).
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  console.error('server.verify_throughput…');
  const proofs = await makeProofs(16);
  await releaseSnarkjs();
  const verifier = await createBenchVerifier();
  const { entries: verifierEntries, baselineRps, oursRps, oursCpuMsPerProof } = await runVerifier(proofs, verifier, { runs, seconds: 5 });
  await verifier.close();
  console.error('http.zk_verify_*…');
  const proofsPerRun = Number(process.env.ZK_PROOFS ?? ZK_PROOFS_PER_RUN);
  const zk = await runHttpZk(
    { runs, seconds: 0, proofsPerRun },
    { snarkjsRps: baselineRps, verifierRps: oursRps, verifierCpuMsPerProof: oursCpuMsPerProof },
  );
  const fresh = [...verifierEntries, ...zk];
  console.error(JSON.stringify(fresh, null, 2));
  replaceInLatest((name) => name === 'server.verify_throughput' || name.startsWith('http.zk_verify_'), fresh);
} else {
  console.error(
    `Unknown suite "${suite}". Use: full (default), quick, scale [10m], simulate, startup, oidc, threshold, verify, first-verify, registration, credential, sign-in-credential, browser, noisy.`,
  );
  process.exit(2);
}

console.log(renderBenchmarks());
console.error(`bench ${suite} took ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exit(0);
