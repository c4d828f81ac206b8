import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export { freePort } from '../../apps/server/test/server-process.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * Starts `node <args>` from the repository's root and waits until `readyUrl` answers 2xx; fails with
 * everything the process wrote when it exits first or is not ready within `timeoutMs`.
 */
export async function startProcess(
  args: string[],
  env: Record<string, string | undefined>,
  readyUrl: string,
  timeoutMs = 90_000,
): Promise<ChildProcess> {
  const output: string[] = [];
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => output.push(String(chunk)));
  child.stderr.on('data', (chunk) => output.push(String(chunk)));
  for (const deadline = Date.now() + timeoutMs; ;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}:\n${output.join('')}`);
    const ready = await fetch(readyUrl).then(
      (reply) => reply.ok,
      () => false,
    );
    if (ready) return child;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')} not ready at ${readyUrl} within ${timeoutMs} ms:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** SIGKILLs `child` and waits until it is gone. */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
