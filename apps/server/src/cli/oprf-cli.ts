import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MAX_OPRF_SHARES } from '@zeroid/protocol';
import { ShareFileError } from '../oprf/oprf-share-file.ts';
import { UsageError, type CliContext } from './cli-context.ts';
import { refreshShares } from './refresh-shares.ts';
import { splitKey } from './split-key.ts';

const USAGE = `Usage:
  npm run oprf -- split --threshold T --shares N --out DIR
  npm run oprf -- refresh --threshold T --shares N --in DIR --out DIR2

split   shares the server's OPRF key (DATA_DIR/oprf-key.json, or OPRF_PRIVATE_KEY) among N nodes, any T of which answer.
refresh re-shares the key held by at least T share files in DIR (and its node-* folders) into new shares; old shares become useless.
Each writes DIR/node-<i>/oprf-share.json (mode 0600), one per node: node i's DATA_DIR, or its OPRF_SHARE.`;

/**
 * `npm run oprf -- split|refresh …` as a function: returns the exit code (0 done, 1 failed, 2 bad
 * arguments) so tests call it in-process. Prints public keys only, never a share or the key.
 */
export async function runOprfCli(argv: string[], context: CliContext): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command !== 'split' && command !== 'refresh') throw new UsageError(`Unknown command "${command ?? ''}".`);
    const options = parseOptions(rest, command, context.cwd);
    await assertEmptyOutput(options.out);
    if (command === 'split') await splitKey({ ...options, dataDir: serverDataDir(context.env) }, context);
    else await refreshShares({ ...options, input: options.input! }, context);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      context.printError(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ShareFileError || error instanceof RangeError) {
      context.printError(error.message);
      return 1;
    }
    throw error;
  }
}

/**
 * The server's DATA_DIR as `npm start` and `npm run dev` see it: they run in the server's workspace
 * folder, so a relative DATA_DIR (and the default ./data) is taken from apps/server, not from here.
 */
function serverDataDir(env: NodeJS.ProcessEnv): string {
  return path.resolve(import.meta.dirname, '../..', env.DATA_DIR || './data');
}

function parseOptions(args: string[], command: 'split' | 'refresh', cwd: string) {
  let values: { threshold?: string; shares?: string; out?: string; in?: string };
  try {
    ({ values } = parseArgs({
      args,
      options: { threshold: { type: 'string' }, shares: { type: 'string' }, out: { type: 'string' }, in: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const threshold = count(values.threshold, '--threshold');
  const shares = count(values.shares, '--shares');
  if (threshold < 2) throw new UsageError('--threshold must be at least 2: with 1, every node alone holds the whole key.');
  if (shares > MAX_OPRF_SHARES) throw new UsageError(`--shares must be at most ${MAX_OPRF_SHARES} (share indices are one byte).`);
  if (threshold > shares) throw new UsageError('--threshold cannot exceed --shares: the key could never be used.');
  if (!values.out) throw new UsageError('--out DIR is required.');
  if (command === 'refresh' && !values.in) throw new UsageError('refresh needs --in DIR, the folder of the current share files.');
  if (command === 'split' && values.in) throw new UsageError('split takes no --in: it reads the key as the server does.');
  const out = path.resolve(cwd, values.out);
  const input = values.in === undefined ? undefined : path.resolve(cwd, values.in);
  if (input !== undefined && (input === out || out.startsWith(input + path.sep))) throw new UsageError('--out must be outside --in.');
  return { threshold, shares, out, input };
}

function count(value: string | undefined, flag: string): number {
  if (value === undefined) throw new UsageError(`${flag} is required.`);
  if (!/^\d{1,4}$/.test(value)) throw new UsageError(`${flag} must be a whole number (got "${value}").`);
  return Number(value);
}

/** Writing into a folder that already holds files could mix two sharings, or overwrite a share. */
async function assertEmptyOutput(out: string): Promise<void> {
  try {
    if ((await fs.readdir(out)).length > 0) throw new UsageError(`${out} exists and is not empty; choose a new --out folder.`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
