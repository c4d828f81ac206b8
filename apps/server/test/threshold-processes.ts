import { execFile, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { admissionSeed, admissionSigner } from '../src/oprf/oprf-admission-signer.ts';
import { startOprfNodeProcess } from './oprf-node-process.ts';
import { freePort } from './server-process.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const cliEntry = path.resolve(import.meta.dirname, '../src/cli/oprf.ts');

/**
 * The attempt-key secret the tests' threshold servers share (ATTEMPT_KEY_SECRET), and so their
 * admission key (decision 032), which every test node accepts (ADMISSION_KEYS). `admissions.issue`
 * admits a request as such a server would.
 */
const ATTEMPT_KEY_SECRET = Buffer.alloc(32, 7).toString('base64url');
export const admissions = admissionSigner(admissionSeed(new Uint8Array(Buffer.from(ATTEMPT_KEY_SECRET, 'base64url'))));
/** Environment for a test server in threshold mode: the shared attempt-key secret. */
export const SERVER_SECRET_ENV = { ATTEMPT_KEY_SECRET };
/** Environment for a test node: it accepts the test servers' admissions. */
export const NODE_ADMISSION_ENV = { ADMISSION_KEYS: Buffer.from(admissions.publicKey).toString('base64url') };

/** A running OPRF node (`npm run oprf-node`), started from its sources under tsx. */
export interface OprfNodeProcess {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  output: string[];
}

/**
 * Splits the key a server would use with `env` (DATA_DIR's oprf-key.json or OPRF_PRIVATE_KEY) into
 * `shares` node directories under `out` with the CLI; returns them in index order.
 */
export async function splitKey(env: Record<string, string>, out: string, threshold = 2, shares = 3): Promise<string[]> {
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', cliEntry, 'split', '--threshold', String(threshold), '--shares', String(shares), '--out', out],
    { cwd: repoRoot, env: { ...process.env, ...env } },
  );
  return Array.from({ length: shares }, (_, i) => path.join(out, `node-${i + 1}`));
}

/** Refreshes the shares in `from` (every node's folder) into `out` with the CLI (same key, new shares); returns them in index order. */
export async function refreshShares(from: string, out: string, threshold = 2, shares = 3): Promise<string[]> {
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', cliEntry, 'refresh', '--threshold', String(threshold), '--shares', String(shares), '--in', from, '--out', out],
    { cwd: repoRoot },
  );
  return Array.from({ length: shares }, (_, i) => path.join(out, `node-${i + 1}`));
}

/** Starts a node on `dataDir` (on `port` if given: a restarted node keeps its URL) and waits for /healthz. */
export async function startOprfNode(
  dataDir: string,
  { port, env = {} }: { port?: number; env?: Record<string, string> } = {},
): Promise<OprfNodeProcess> {
  const chosen = port ?? (await freePort());
  const node = await startOprfNodeProcess(
    { DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', ...NODE_ADMISSION_ENV, ...env },
    { port: chosen, readyTimeoutMs: 120_000 },
  );
  return { url: node.url, port: chosen, dataDir, child: node.process, output: node.output };
}

/** SIGKILLs a node (a crash, not a shutdown) and waits for it to be gone. */
export function killOprfNode(node: OprfNodeProcess): Promise<void> {
  return new Promise((resolve) => {
    if (node.child.exitCode !== null || node.child.signalCode !== null) return resolve();
    node.child.once('exit', () => resolve());
    node.child.kill('SIGKILL');
  });
}
