/**
 * Not a suite: where `http.zk_verify_server_cpu_ratio`'s CPU goes (decision 067). One
 * compiled server process answers loads of real proofs at concurrency 16, as the suite's do; per
 * load it prints the process's CPU a verification, thread by thread (/proc/<pid>/task: the main
 * thread is the one whose id is the pid; the verifier's, the SQLite thread's and V8's helpers are
 * the others). A longer load than the suite's 64 shows the steady state rather than ramp and drain.
 *   npx tsx bench/zk-verify-by-thread.ts [verifications a load = 256] [loads = 2]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServerProcess } from '../apps/server/test/server-process.ts';
import { viaHttp, ZkTestClient } from '../apps/server/test/zk-client.ts';
import { threadCpuMs } from './process-cpu.ts';
import { Artifacts } from './server.ts';
import { fixedLoad, VERIFIED } from './suites/http.ts';

const [perLoad = 256, loads = 2] = process.argv.slice(2).map(Number);
const dataDir = mkdtempSync(path.join(tmpdir(), 'zeroid-bench-threads-'));
const server = await startServerProcess({ DATA_DIR: dataDir }, { readyTimeoutMs: 300_000, compiled: true });
try {
  const pid = server.process.pid;
  if (pid === undefined) throw new Error('the server process has no pid');
  const client = new ZkTestClient(viaHttp(server.url), await Artifacts.load());
  await client.register('bench threads id', 'bench threads biometric');
  const identity = await client.identityOf('bench threads biometric');
  const proofs = async () => {
    const bodies: unknown[] = [];
    for (let i = 0; i < perLoad; i++) bodies.push({ proof: await client.proveIdentity(identity) });
    return bodies;
  };
  // One load first, not counted: the steady state of a server whose code V8 has optimised.
  await fixedLoad(server.url, '/verify', await proofs(), VERIFIED);
  for (let load = 0; load < loads; load++) {
    const bodies = await proofs();
    const before = threadCpuMs(pid);
    const { rps, p50 } = await fixedLoad(server.url, '/verify', bodies, VERIFIED);
    const spent = [...threadCpuMs(pid)].map(([tid, ms]) => ({ tid, perVerification: (ms - (before.get(tid) ?? 0)) / perLoad }));
    const main = spent.find((t) => t.tid === pid)?.perVerification ?? 0;
    const others = spent.filter((t) => t.tid !== pid && t.perVerification > 0).sort((a, b) => b.perVerification - a.perVerification);
    const total = main + others.reduce((sum, t) => sum + t.perVerification, 0);
    console.log(
      `load ${load + 1}: ${perLoad} verifications, ${rps.toFixed(0)}/s, p50 ${p50.toFixed(0)} ms; ` +
        `${total.toFixed(2)} ms CPU a verification: main thread ${main.toFixed(2)}, others ${others.map((t) => t.perVerification.toFixed(2)).join(', ')}`,
    );
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
