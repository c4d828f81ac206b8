import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { OprfEvaluator } from '@zeroid/protocol';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { Artifacts } from './services/artifacts.ts';
import { loadOprfKey } from './services/oprf-key.ts';
import { Registry } from './services/registry.ts';
import { openStorage } from './storage/open-storage.ts';

/**
 * `npm start`: reads the configuration, builds the web app if there is no build yet, opens storage
 * (running migrations), loads the tree, then listens. SIGTERM and SIGINT let in-flight requests
 * finish before the database is closed.
 */
async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  ensureWebBuild(config.webDist);

  const storage = await openStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
  const oprf = new OprfEvaluator(await loadOprfKey(config.dataDir, config.oprfPrivateKey));
  const registry = new Registry(storage, {
    onError: (error) => console.error('Could not save a tree checkpoint:', error instanceof Error ? error.message : error),
  });
  const [artifacts] = await Promise.all([Artifacts.load(), registry.catchUp()]);

  const app = await buildApp({ config, storage, registry, oprf, artifacts });
  // Expired challenges are useless; purge them so the table cannot grow without bound.
  const purge = setInterval(() => {
    storage.challenges
      .purgeExpired()
      .catch((error: unknown) => app.log.warn({ err: { name: (error as Error).name } }, 'challenge purge failed'));
  }, 60_000);
  purge.unref();
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    clearInterval(purge);
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    try {
      await app.close();
      await registry.flush();
    } finally {
      await storage.close();
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ members: registry.size, storage: storage.dialect, publicUrl: config.publicUrl }, 'ZeroID is ready');
}

/** The README promises `npm ci && npm start`: build the web app on first start. */
function ensureWebBuild(webDist: string) {
  if (existsSync(path.join(webDist, 'index.html'))) return;
  console.log(`No web build in ${webDist}; building it once (vite build)…`);
  execFileSync('npm', ['run', 'build', '--workspace', '@zeroid/web'], {
    stdio: 'inherit',
    cwd: new URL('../../..', import.meta.url).pathname,
  });
}

main().catch((error: unknown) => {
  console.error('ZeroID failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
