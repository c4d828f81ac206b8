import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Identity } from '@semaphore-protocol/identity';
import { VERIFICATION_RESULT } from '@zeroid/protocol';
import { Artifacts } from '../server.ts';
import { startServerProcess } from '../../apps/server/test/server-process.ts';
import { viaHttp, ZkTestClient } from '../../apps/server/test/zk-client.ts';
import { releaseSnarkjs } from '../../apps/server/test/real-proofs.ts';
import { processTreeCpuMs } from '../process-cpu.ts';
import { entry, median, repeat, type BenchEntry } from '../stats.ts';

export interface HttpOptions {
  runs: number;
  /** Seconds of load per run for the raw routes. */
  seconds: number;
  /** Proofs per run for the zero-knowledge route (each needs its own challenge). */
  proofsPerRun: number;
}

const CONNECTIONS = 16;
/** POST /verify's reply to a valid proof for a fresh challenge. */
export const VERIFIED = { [VERIFICATION_RESULT]: 'Success' };
/** A server process may take minutes to be ready on a machine shared with other work: a benchmark waits. */
const READY_TIMEOUT_MS = 300_000;

interface Load {
  rps: number;
  p50: number;
  p99: number;
}

/** One autocannon run at concurrency 16 for `seconds`; every request gets its own body. */
export async function load(url: string, path: string, body: (i: number) => unknown, seconds: number, timeoutSeconds = 10): Promise<Load> {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: timeoutSeconds,
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: JSON.stringify(body(i++)) }),
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${path}: ${result.non2xx} non-2xx replies and ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/**
 * A fixed set of requests, 16 in flight at a time, timed here: each zero-knowledge verification
 * needs its own proof for its own challenge, so there is no endless stream to give autocannon, and
 * autocannon ends a fixed-amount run only on its next one-second tick, which caps the rate it reports.
 * Every reply must be `expected`: a load of refusals would time the wrong work.
 */
export async function fixedLoad(url: string, path: string, bodies: unknown[], expected: unknown): Promise<Load> {
  const times: number[] = [];
  const expectedReply = JSON.stringify(expected);
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const sent = performance.now();
      const response = await fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const reply = await response.text();
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
      if (reply !== expectedReply) throw new Error(`${path}: ${reply}, not ${expectedReply}`);
      times.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, lane));
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(times.length * q) - 1)]!;
  return { rps: bodies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

/** The same request one at a time: the latency the load adds queueing to. */
async function unloaded(url: string, route: string, body: (i: number) => unknown, count = 30): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(url + route, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body(i)),
    });
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  return median(times);
}

/** How many `new Identity()` a second one core derives: what bounded the raw API before (DESIGN anchor ~100/s). */
function identityDerivationsPerSecond(): number {
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < 1000) {
    void new Identity(`baseline ${n++}`).commitment;
  }
  return n / ((performance.now() - started) / 1000);
}

/**
 * http.*: autocannon at concurrency 16 against a real server process (`RATE_LIMIT_PER_MINUTE=0`, the
 * setting for load tests), on SQLite. Raw register and verify run for `seconds`; the zero-knowledge
 * verification sends `proofsPerRun` distinct real proofs, each bound to its own one-time challenge,
 * 16 at a time (`fixedLoad`).
 */
export async function runHttp(options: HttpOptions, verifier: VerifierRates): Promise<BenchEntry[]> {
  return [...(await runHttpRaw(options)), ...(await runHttpZk(options, verifier))];
}

/** http.raw_*: the raw routes, registered and verified by autocannon for `seconds` a run. */
export async function runHttpRaw(options: HttpOptions): Promise<BenchEntry[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-bench-http-'));
  const server = await startServerProcess({ DATA_DIR: dataDir }, { readyTimeoutMs: READY_TIMEOUT_MS });
  const tag = Date.now().toString(36);
  const registerBody = (run: number) => (i: number) => ({ id_info: `bench ${tag} ${run} ${i}`, bio_info: `bench bio ${tag} ${run} ${i}` });
  try {
    const identityRate = await repeat(options.runs, async () => identityDerivationsPerSecond());

    const registerUnloaded = await unloaded(server.url, '/register', registerBody(-1));
    const register = await repeat(options.runs, (run) => load(server.url, '/register', registerBody(run), options.seconds).then(keep));
    const verifyBody = (i: number) => ({ bio_info: `bench bio ${tag} 0 ${i % 200}` });
    const verifyUnloaded = await unloaded(server.url, '/verify', verifyBody);
    const verify = await repeat(options.runs, () => load(server.url, '/verify', verifyBody, options.seconds).then(keep));

    const identityLabel = '`new Identity()` a second on one core (what bounded the raw API)';
    return [
      entry('http.raw_register_rps', 'req/s', 'higher', rps(register), identityRate, identityLabel),
      entry('http.raw_register_p50_ms', 'ms', 'lower', p(register, 'p50'), [registerUnloaded], 'one request at a time'),
      entry('http.raw_register_p99_ms', 'ms', 'lower', p(register, 'p99'), [registerUnloaded], 'one request at a time (median)'),
      entry('http.raw_verify_rps', 'req/s', 'higher', rps(verify), identityRate, identityLabel),
      entry('http.raw_verify_p50_ms', 'ms', 'lower', p(verify, 'p50'), [verifyUnloaded], 'one request at a time'),
      entry('http.raw_verify_p99_ms', 'ms', 'lower', p(verify, 'p99'), [verifyUnloaded], 'one request at a time (median)'),
    ];
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Rates measured earlier in the same run: the snarkjs loop, and our verifier in-process. */
export interface VerifierRates {
  snarkjsRps: number[];
  verifierRps: number[];
  /** CPU milliseconds a proof of our verifier in-process, its worker threads included. */
  verifierCpuMsPerProof: number[];
}

/**
 * http.zk_verify_*: one registered person proves again and again, each time for a fresh challenge,
 * against its own server process. The rate's baseline is `server.verify_throughput` of the same run
 * (what the verifier alone reaches: the HTTP path should lose little of it); the latencies' is one
 * snarkjs verification. `http.zk_verify_server_cpu_ratio` counts what the server process spends (every
 * process and thread under the one spawned: tsx's, the server's, its verifier and derivation threads)
 * per verification of the same fixed load, against the verifier's CPU a proof in-process (decision 054).
 */
export async function runHttpZk(
  options: HttpOptions,
  { snarkjsRps, verifierRps, verifierCpuMsPerProof }: VerifierRates,
): Promise<BenchEntry[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-bench-zk-'));
  const artifacts = await Artifacts.load();
  // BENCH_PROFILE=<dir>: the server runs under V8's CPU profiler (every thread writes a .cpuprofile
  // there when it stops), for decision 054's profiles; the CPU it then spends is the profiler's too.
  // The server runs as `npm start` runs it: the build, on bare Node.
  const profile = process.env.BENCH_PROFILE;
  const zkServer = await startServerProcess(
    { DATA_DIR: dataDir },
    {
      readyTimeoutMs: READY_TIMEOUT_MS,
      compiled: true,
      ...(profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`] } : {}),
    },
  );
  try {
    const zkClient = new ZkTestClient(viaHttp(zkServer.url), artifacts);
    await zkClient.register('bench zk id', 'bench zk biometric');
    const identity = await zkClient.identityOf('bench zk biometric');
    const serverPid = zkServer.process.pid;
    if (serverPid === undefined) throw new Error('the server process has no pid');
    const serverCpuMsPerVerification: number[] = [];
    const freshProofs = async () => {
      const proofs: unknown[] = [];
      for (let i = 0; i < options.proofsPerRun; i++) proofs.push(await zkClient.proveIdentity(identity));
      return proofs;
    };
    // A long-running server's code is compiled by V8's optimizing tier; a fresh one interprets its
    // first verifications (keccak alone cost 30× its warm time in decision 064's profile). One load,
    // not counted, brings it to the steady state the rows describe, as the verifier's baseline is.
    await fixedLoad(
      zkServer.url,
      '/verify',
      (await freshProofs()).map((proof) => ({ proof })),
      VERIFIED,
    );
    const zk = await repeat(options.runs, async () => {
      const proofs = await freshProofs();
      const cpuBefore = processTreeCpuMs(serverPid);
      const measured = await fixedLoad(
        zkServer.url,
        '/verify',
        proofs.map((proof) => ({ proof })),
        VERIFIED,
      );
      serverCpuMsPerVerification.push((processTreeCpuMs(serverPid) - cpuBefore) / proofs.length);
      console.error(`  server CPU ${serverCpuMsPerVerification.at(-1)!.toFixed(2)} ms a verification`);
      return keep(measured);
    });
    await releaseSnarkjs();
    return [
      entry('http.zk_verify_rps', 'req/s', 'higher', rps(zk), verifierRps, '`server.verify_throughput` (the verifier alone, in-process)'),
      entry(
        'http.zk_verify_p50_ms',
        'ms',
        'lower',
        p(zk, 'p50'),
        snarkjsRps.map((r) => 1000 / r),
        'one snarkjs verification',
      ),
      entry(
        'http.zk_verify_p99_ms',
        'ms',
        'lower',
        p(zk, 'p99'),
        snarkjsRps.map((r) => 1000 / r),
        'one snarkjs verification',
      ),
      entry(
        'http.zk_verify_server_cpu_ratio',
        'ms CPU',
        'lower',
        serverCpuMsPerVerification,
        verifierCpuMsPerProof,
        "the verifier's CPU a proof, in-process (ratio: goal ≤ 1.25, decision 054)",
      ),
    ];
  } finally {
    await zkServer.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rps = (loads: Load[]) => loads.map((l) => l.rps);
const p = (loads: Load[], key: 'p50' | 'p99') => loads.map((l) => l[key]);

const keep = (l: Load) => {
  console.error(`  ${JSON.stringify(l)}`);
  return l;
};
