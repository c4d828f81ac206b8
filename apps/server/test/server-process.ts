import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

export interface ServerProcess {
  url: string;
  process: ChildProcess;
  /** Everything the process wrote, for scanning and for diagnosing a failure. */
  output: string[];
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const serverEntry = path.resolve(import.meta.dirname, '../src/server.ts');
const compiledStart = path.resolve(import.meta.dirname, '../scripts/start-server.js');
const repoRoot = path.resolve(import.meta.dirname, '../../..');
// Node 22.6+ would load a stray .ts file by stripping its types; the compiled server must need none.
const noTypeStripping = (process.features as { typescript?: string }).typescript === undefined ? [] : ['--no-experimental-strip-types'];

/**
 * Starts `server.ts` as a real process on a free port and waits until it is ready (/healthz 200), or
 * only until it is alive (/livez 200) for tests of a server whose database is not there. `compiled`
 * starts it as `npm start` does: the build in dist/ (made first if missing or stale) on bare Node.
 */
export async function startServerProcess(
  env: Record<string, string>,
  {
    readyTimeoutMs = 60_000,
    waitFor = 'ready',
    uid,
    compiled = false,
  }: { readyTimeoutMs?: number; waitFor?: 'ready' | 'alive'; uid?: number; compiled?: boolean } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawnServer({ PORT: String(port), ...env }, output, { uid, compiled });
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      if ((await fetch(`${url}/${waitFor === 'ready' ? 'healthz' : 'livez'}`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready within ${readyTimeoutMs} ms:\n${output.join('')}`);
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

/**
 * Starts `server.ts` expecting it to stop by itself (a start it must refuse), and waits for its exit
 * code and everything it wrote. Killed, and reported as such, if it is still running after the timeout.
 */
export async function runServerUntilExit(
  env: Record<string, string>,
  { timeoutMs = 60_000 }: { timeoutMs?: number } = {},
): Promise<{ code: number | null; output: string }> {
  const output: string[] = [];
  const child = spawnServer({ PORT: String(await freePort()), ...env }, output);
  const timer = setTimeout(() => {
    output.push(`\n[still running after ${timeoutMs} ms: killed]`);
    child.kill('SIGKILL');
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, output: output.join('') };
}

/**
 * The server with our test defaults under `env`, its output collected into `output`: the sources under
 * tsx's loader, or (`compiled`) the build as `npm start` runs it on bare Node.
 */
function spawnServer(
  env: Record<string, string>,
  output: string[],
  { uid, compiled = false }: { uid?: number; compiled?: boolean } = {},
): ChildProcess {
  // Node itself with tsx's loader, not the tsx CLI: the CLI runs the server in a child process, so a
  // SIGKILL would kill only the CLI and leave the server running.
  const child = spawn(process.execPath, compiled ? [...noTypeStripping, compiledStart] : ['--import', 'tsx', serverEntry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      WEB_DIST: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(uid === undefined ? {} : { uid, gid: uid }),
  });
  child.stdout.on('data', (chunk) => output.push(String(chunk)));
  child.stderr.on('data', (chunk) => output.push(String(chunk)));
  return child;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}
