import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort, type ServerProcess } from './server-process.ts';

const nodeEntry = path.resolve(import.meta.dirname, '../src/oprf-node/main.ts');
const compiledStart = path.resolve(import.meta.dirname, '../scripts/start-oprf-node.js');
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const noTypeStripping = (process.features as { typescript?: string }).typescript === undefined ? [] : ['--no-experimental-strip-types'];

/**
 * Starts an OPRF node (`npm run oprf-node`) as a real process on a free port and waits until it is
 * ready (/healthz 200). `compiled` runs it as the npm script does: the esbuild bundle on bare Node.
 * Pass the node's own DATA_DIR (or OPRF_SHARE and a DATA_DIR) in `env`.
 */
export async function startOprfNodeProcess(
  env: Record<string, string>,
  { readyTimeoutMs = 60_000, compiled = false }: { readyTimeoutMs?: number; compiled?: boolean } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawnNode({ PORT: String(port), ...env }, output, compiled);
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`OPRF node exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`OPRF node not ready within ${readyTimeoutMs} ms:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    process: child,
    output,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

/** Starts an OPRF node expecting it to refuse to start; returns its exit code and what it wrote. */
export async function runOprfNodeUntilExit(env: Record<string, string>, { timeoutMs = 60_000 } = {}) {
  const output: string[] = [];
  const child = spawnNode({ PORT: String(await freePort()), ...env }, output, false);
  const timer = setTimeout(() => {
    output.push(`\n[still running after ${timeoutMs} ms: killed]`);
    child.kill('SIGKILL');
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, output: output.join('') };
}

function spawnNode(env: Record<string, string>, output: string[], compiled: boolean): ChildProcess {
  // Node with tsx's loader rather than the tsx CLI, so that a signal reaches the node itself.
  const child = spawn(process.execPath, compiled ? [...noTypeStripping, compiledStart] : ['--import', 'tsx', nodeEntry], {
    cwd: repoRoot,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk) => output.push(String(chunk)));
  child.stderr.on('data', (chunk) => output.push(String(chunk)));
  return child;
}
