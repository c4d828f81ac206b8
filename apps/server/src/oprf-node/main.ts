import { mkdir } from 'node:fs/promises';
import { ConfigError } from '../settings/config-error.ts';
import { ristretto255Backend } from '../oprf/libsodium.ts';
import { loadNodeShare } from '../oprf/oprf-share-store.ts';
import { ShareFileError } from '../oprf/oprf-share-file.ts';
import { openStorage } from '../storage/open-storage.ts';
import { buildNodeApp } from './build-node-app.ts';
import { warmUpNode } from './warm-up-node.ts';
import { loadNodeConfig, nodeSettings, type NodeConfig } from './node-config.ts';
import { settingsHelp } from '../settings/settings-table.ts';

/**
 * `npm run oprf-node`: one OPRF node of a threshold set. It loads and checks its share (a share that
 * does not match the place it would publish stops it, with what to fix), opens its own SQLite file
 * of attempt counters in DATA_DIR, and listens. SIGTERM and SIGINT close it cleanly.
 */
async function main() {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(settingsHelp('ZeroID OPRF node (npm run oprf-node): one node of a threshold OPRF set (decision 020).', nodeSettings));
    return;
  }
  let config: NodeConfig;
  try {
    config = loadNodeConfig();
  } catch (error) {
    if (error instanceof ConfigError) return refuse(error.message);
    throw error;
  }
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  let share;
  try {
    share = await loadNodeShare(config.dataDir, config.oprfShare);
  } catch (error) {
    if (error instanceof ShareFileError) return refuse(error.message);
    throw error;
  }
  const storage = await openStorage({ dataDir: config.dataDir });
  const app = await buildNodeApp({ config, share, attempts: storage.attempts, ping: () => storage.ping() });

  const purge = setInterval(() => {
    storage.attempts.purgeIdle(Date.now() - config.guessForgetMs).catch(() => undefined);
  }, 60_000);
  purge.unref();
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    clearInterval(purge);
    try {
      await app.close();
    } finally {
      await storage.close();
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());

  warmUpNode(share);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { index: share.index, threshold: share.threshold, count: share.count, group: ristretto255Backend },
    'ZeroID OPRF node is ready',
  );
  if (!share.v3) {
    app.log.warn(
      { index: share.index },
      'This node serves protocol v2 only: its share file holds no v3 share. Give it its file from `npm run oprf -- refresh` (docs/oprf-nodes.md).',
    );
  }
}

function refuse(message: string): never {
  console.error(`ZeroID OPRF node refuses to start: ${message}`);
  process.exit(1);
}

main().catch((error: unknown) => {
  console.error('ZeroID OPRF node failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
