import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from './app.ts';
import { createServices } from './compose.ts';
import { buildMetricsApp } from './metrics-app.ts';
import { loadConfig, type Config } from './config.ts';
import { serverSettings } from './settings/server-settings.ts';
import { ConfigError } from './settings/config-error.ts';
import { settingsHelp } from './settings/settings-table.ts';
import { KeyMismatchError } from './oprf/check-key-fingerprint.ts';
import { OprfNodeSetMismatch } from './oprf/nodes/watch-node-keys.ts';

/**
 * `npm start`: the process. It reads the configuration, builds the web app if there is no build
 * yet, builds the services (`createServices`) and the app around them, and listens at once; the
 * services open the database in the background (compose.ts), so until it answers /livez is 200 and
 * /healthz 503. A database that belongs to another OPRF key is the one fault that waiting cannot fix:
 * the process exits 1 and says what to do. SIGTERM and SIGINT drain the instance and let in-flight
 * requests finish before the services close.
 */
async function main() {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(settingsHelp('ZeroID server (npm start): the API, the web app and Sign in with ZeroID.', serverSettings));
    return;
  }
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

  // An explicit WEB_DIST is the operator's build (or, in API-only tests, none at all).
  if (!process.env.WEB_DIST) ensureWebBuild(config.webDist);
  refuseEarlierDefaultDataDir(config);

  const services = await createServices(config, { eager: true });
  const app = await buildApp(services);
  const metricsApp = config.metricsPort === undefined ? undefined : await buildMetricsApp({ config, metrics: services.metrics });
  services.start(app.log).catch((error: unknown) => refuseToStart(error, config));

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    services.stop();
    // First report not-ready while still serving, so a load balancer stops sending requests here
    // and nothing already on its way is cut off; then stop accepting connections, let in-flight
    // requests finish (each is bounded by the request timeout), and close the services.
    services.lifecycle.draining = true;
    app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down: draining');
    await sleep(config.shutdownDrainMs);
    app.log.info('shutting down: finishing in-flight requests');
    // A keep-alive connection that finishes its request after close() began would otherwise stay
    // open until its keep-alive timeout.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      await Promise.all([app.close(), metricsApp?.close()]);
      clearInterval(sweep);
    } finally {
      await services.close();
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  if (metricsApp) {
    await metricsApp.listen({ port: config.metricsPort, host: config.metricsHost });
    app.log.info({ metrics: `http://${config.metricsHost}:${config.metricsPort}/metrics` }, 'metrics listener');
  }
}

/** Another key's database, or nodes whose shares do not fit, cannot become ready by waiting: stop, and say what to fix. */
function refuseToStart(error: unknown, config: Config): never {
  if (error instanceof KeyMismatchError && config.oprfNodes.length > 0) {
    console.error(
      `ZeroID refuses to start: the OPRF nodes in OPRF_NODES hold shares of another key than the one this database was created ` +
        `with (its fingerprint ${error.recorded.slice(0, 16)}…, the nodes' group key ${error.current.slice(0, 16)}…). Every identity ` +
        "in it was derived with that key. Point OPRF_NODES at the nodes whose shares were split from this database's key " +
        '(npm run oprf -- split of its oprf-key.json or OPRF_PRIVATE_KEY).',
    );
  } else if (error instanceof KeyMismatchError || error instanceof OprfNodeSetMismatch) {
    console.error(`ZeroID refuses to start: ${error.message}`);
  } else {
    console.error('ZeroID failed to start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
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

/**
 * Before decision 045, `npm start` kept its data in apps/server/data (npm runs the script there) while
 * `npm run oidc` opened ./data at the root. Started by an earlier version, the server would find no
 * key in the new place and make a new one, unrelated to every identity registered: refuse instead.
 */
function refuseEarlierDefaultDataDir(config: Config) {
  if (process.env.DATA_DIR || config.oprfPrivateKey || config.oprfNodes.length > 0) return;
  const earlier = path.resolve('data');
  if (earlier === config.dataDir || existsSync(path.join(config.dataDir, 'oprf-key.json'))) return;
  if (!existsSync(path.join(earlier, 'oprf-key.json'))) return;
  console.error(
    `ZeroID now keeps its data in ${config.dataDir} (DATA_DIR is taken from where npm was started), but an earlier version ` +
      `kept it in ${earlier}. Move it there (mv ${earlier} ${config.dataDir}) or start with DATA_DIR=${earlier}.`,
  );
  process.exit(1);
}
