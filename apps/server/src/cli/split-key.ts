import { promises as fs } from 'node:fs';
import path from 'node:path';
import { oprfPublicKey, splitOprfKey } from '@zeroid/protocol';
import { babyJubjubSuite, v3KeyFromV2 } from '@zeroid/protocol/v3';
import { loadOprfKey } from '../oprf/oprf-key.ts';
import { shareFilesOf } from '../oprf/oprf-share-file.ts';
import { UsageError, type CliContext } from './cli-context.ts';
import { writeShares } from './write-shares.ts';

/**
 * `split`: shares the server's existing OPRF key, read exactly as the server reads it
 * (OPRF_PRIVATE_KEY, else DATA_DIR/oprf-key.json), so every identity registered so far keeps
 * verifying. It never creates a key: a missing one is a wrong DATA_DIR, not a fresh start. The
 * protocol v3 key is the one the single-key server derives from it (`v3KeyFromV2`, decision 056),
 * shared among the same nodes: v3 identities keep verifying too.
 */
export async function splitKey(
  options: { threshold: number; shares: number; out: string; dataDir: string },
  context: CliContext,
): Promise<void> {
  const fromEnv = context.env.OPRF_PRIVATE_KEY || undefined;
  const keyFile = path.join(options.dataDir, 'oprf-key.json');
  if (!fromEnv && !(await fs.stat(keyFile).catch(() => undefined))) {
    throw new UsageError(
      `No OPRF key to split: ${keyFile} does not exist and OPRF_PRIVATE_KEY is not set. Set DATA_DIR to the server's data folder.`,
    );
  }
  const privateKey = await loadOprfKey(options.dataDir, fromEnv);
  context.print(`Splitting the OPRF key from ${fromEnv ? 'OPRF_PRIVATE_KEY' : keyFile}.`);
  const v3Key = v3KeyFromV2(privateKey);
  try {
    const shares = splitOprfKey(privateKey, options.threshold, options.shares);
    const v3 = {
      groupPublicKey: babyJubjubSuite.publicKey(v3Key),
      shares: babyJubjubSuite.splitKey(v3Key, options.threshold, options.shares),
    };
    await writeShares(options.out, shareFilesOf(oprfPublicKey(privateKey), shares, options.threshold, v3), context);
  } finally {
    privateKey.fill(0);
    v3Key.fill(0);
  }
  context.print(
    `The whole key is still in ${fromEnv ? 'OPRF_PRIVATE_KEY' : keyFile}: once every node runs, delete it (docs/oprf-nodes.md, "Deleting the whole key").`,
  );
}
