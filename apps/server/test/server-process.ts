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

/** What to start: an entry under tsx, the same compiled for bare Node, and defaults for its environment. */
interface Program {
  name: string;
  entry: string;
  compiledStart: string;
  defaults: Record<string, string>;
  /** Where it runs from; this checkout by default. */
  cwd?: string;
}

const SERVER: Program = {
  name: 'server',
  entry: serverEntry,
  compiledStart,
  defaults: { RATE_LIMIT_PER_MINUTE: '0', WEB_DIST: '/nonexistent' },
};

export interface StartOptions {
  readyTimeoutMs?: number;
  /** `ready`: /healthz 200; `alive`: /livez 200, for a server whose database is not there. */
  waitFor?: 'ready' | 'alive';
  uid?: number;
  /** Run the build as the npm script does, on bare Node, instead of the sources under tsx. */
  compiled?: boolean;
  /** A fixed port (a process restarted at the same address); a free one otherwise. */
  port?: number;
  /** Node's own options before the program (`--cpu-prof`, which NODE_OPTIONS may not carry). */
  nodeArgs?: string[];
}

/**
 * Starts `server.ts` as a real process on a free port and waits until it is ready (/healthz 200), or
 * only until it is alive (/livez 200) for tests of a server whose database is not there. `compiled`
 * starts it as `npm start` does: the build in dist/ (made first if missing or stale) on bare Node.
 */
export function startServerProcess(env: Record<string, string>, options: StartOptions = {}): Promise<ServerProcess> {
  return startProgram(SERVER, env, options);
}

/**
 * Starts the server of another checkout at `root` (a bench's baseline: main before a change), from
 * its own sources and modules under tsx, and waits until it is ready, as `startServerProcess` does.
 */
export function startServerOfCheckout(root: string, env: Record<string, string>, options: StartOptions = {}): Promise<ServerProcess> {
  const program = { ...SERVER, name: `server of ${root}`, entry: path.join(root, 'apps/server/src/server.ts'), cwd: root };
  return startProgram(program, env, { ...options, compiled: false });
}

/**
 * Starts `server.ts` expecting it to stop by itself (a start it must refuse), and waits for its exit
 * code and everything it wrote. Killed, and reported as such, if it is still running after the timeout.
 */
export function runServerUntilExit(env: Record<string, string>, options: { timeoutMs?: number } = {}) {
  return runProgramUntilExit(SERVER, env, options);
}

/** Starts `program` on a port and waits until it answers /healthz (or /livez) with 200. */
export async function startProgram(
  program: Program,
  env: Record<string, string>,
  { readyTimeoutMs = 60_000, waitFor = 'ready', uid, compiled = false, port, nodeArgs }: StartOptions = {},
): Promise<ServerProcess> {
  const chosen = port ?? (await freePort());
  const url = `http://127.0.0.1:${chosen}`;
  const output: string[] = [];
  const child = spawnProgram(program, { PORT: String(chosen), ...env }, output, { uid, compiled, nodeArgs });
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${program.name} exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      if ((await fetch(`${url}/${waitFor === 'ready' ? 'healthz' : 'livez'}`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${program.name} not ready within ${readyTimeoutMs} ms:\n${output.join('')}`);
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

/** Starts `program` expecting it to stop by itself; its exit code and everything it wrote. */
export async function runProgramUntilExit(
  program: Program,
  env: Record<string, string>,
  { timeoutMs = 60_000 }: { timeoutMs?: number } = {},
): Promise<{ code: number | null; output: string }> {
  const output: string[] = [];
  const child = spawnProgram(program, { PORT: String(await freePort()), ...env }, output);
  const timer = setTimeout(() => {
    output.push(`\n[still running after ${timeoutMs} ms: killed]`);
    child.kill('SIGKILL');
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, output: output.join('') };
}

/**
 * The program with our test defaults under `env`, its output collected into `output`: the sources
 * under tsx's loader, or (`compiled`) the build as its npm script runs it on bare Node.
 */
function spawnProgram(
  program: Program,
  env: Record<string, string>,
  output: string[],
  { uid, compiled = false, nodeArgs = [] }: { uid?: number | undefined; compiled?: boolean; nodeArgs?: string[] | undefined } = {},
): ChildProcess {
  // Node itself with tsx's loader, not the tsx CLI: the CLI runs the program in a child process, so a
  // SIGKILL would kill only the CLI and leave the program running.
  const args = compiled ? [...noTypeStripping, program.compiledStart] : ['--import', 'tsx', program.entry];
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: program.cwd ?? repoRoot,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...program.defaults, ...env },
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
