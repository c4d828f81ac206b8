import path from 'node:path';
import { runProgramUntilExit, startProgram, type ServerProcess, type StartOptions } from './server-process.ts';

const OPRF_NODE = {
  name: 'OPRF node',
  entry: path.resolve(import.meta.dirname, '../src/oprf-node/main.ts'),
  compiledStart: path.resolve(import.meta.dirname, '../scripts/start-oprf-node.js'),
  defaults: {},
};

/**
 * Starts an OPRF node (`npm run oprf-node`) as a real process (on `port`, or a free one) and waits
 * until it is ready (/healthz 200). `compiled` runs it as the npm script does: the esbuild bundle on
 * bare Node. Pass the node's own DATA_DIR (or OPRF_SHARE and a DATA_DIR) in `env`.
 */
export function startOprfNodeProcess(
  env: Record<string, string>,
  options: Pick<StartOptions, 'readyTimeoutMs' | 'compiled' | 'port'> = {},
): Promise<ServerProcess> {
  return startProgram(OPRF_NODE, env, options);
}

/** Starts an OPRF node expecting it to refuse to start; returns its exit code and what it wrote. */
export function runOprfNodeUntilExit(env: Record<string, string>, options: { timeoutMs?: number } = {}) {
  return runProgramUntilExit(OPRF_NODE, env, options);
}
