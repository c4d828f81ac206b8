import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setTimeout as sleep } from 'node:timers/promises';
import { OPRF_SUITE, OprfEvaluator, oprfPublicKey } from '@zeroid/protocol';
import { buildApp } from './app.ts';
import { buildMetricsApp } from './metrics-app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { Artifacts } from './proofs/artifacts.ts';
import { checkKeyFingerprint, keyFingerprint, KeyMismatchError } from './oprf/check-key-fingerprint.ts';
import { createMetrics, observeOprfNodes } from './metrics.ts';
import { libsodiumReady, ristretto255Backend, sodiumRistrettoMultiply } from './oprf/libsodium.ts';
import { attemptKeySecret, loadAttemptKeySecret } from './limits/attempt-key-secret.ts';
import { loadOprfKey } from './oprf/oprf-key.ts';
import { admissionSeed, admissionSigner } from './oprf/oprf-admission-signer.ts';
import { OprfNodeSetMismatch, watchNodeKeys } from './oprf/nodes/watch-node-keys.ts';
import { thresholdDeriver, workerThresholdDeriver, type OprfNodesState } from './identity/raw/threshold-deriver.ts';
import { inProcessDeriver, workerDeriver } from './identity/raw/raw-deriver.ts';
import { Registry } from './member-tree/member-tree.ts';
import { purgeExpired } from './purge-expired.ts';
import { loadOidcKeySecret } from './openid/oidc-key-secret.ts';
import { deferredStorage } from './storage/deferred-storage.ts';
import { openStorage } from './storage/open-storage.ts';

/**
 * `npm start`: reads the configuration, builds the web app if there is no build yet, and listens.
 * The database is opened (and migrated) in the background, again and again until it answers: until
 * then /livez is 200, /healthz is 503 and every route that needs storage answers 503, so a database
 * that is down at start makes the server not-ready instead of a crash loop. A database that belongs
 * to another OPRF key is the one fault that waiting cannot fix: the process exits 1 and says what to
 * do. SIGTERM and SIGINT drain the instance and let in-flight requests finish before the database is
 * closed.
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

  // An explicit WEB_DIST is the operator's build (or, in API-only tests, none at all).
  if (!process.env.WEB_DIST) ensureWebBuild(config.webDist);

  const storage = deferredStorage(config.databaseUrl ? 'postgres' : 'sqlite');
  // Threshold mode (decision 021): no key in this process; the nodes' keys are fetched and checked
  // below, and the raw path becomes their client.
  const threshold = config.oprfNodes.length > 0;
  refuseEarlierDefaultDataDir(config);
  const oprfKey = threshold ? undefined : await loadOprfKey(config.dataDir, config.oprfPrivateKey);
  await libsodiumReady;
  const oprf = oprfKey && new OprfEvaluator(oprfKey, sodiumRistrettoMultiply);
  const secret = oprfKey ? attemptKeySecret(oprfKey) : await loadAttemptKeySecret(config.dataDir, config.attemptKeySecret);
  const oprfNodes: OprfNodesState | undefined = threshold ? { current: undefined } : undefined;
  const metrics = createMetrics();
  /** Where node faults are logged: the app's logger once it is built (faults come only with requests). */
  let faultLog: { warn(fields: object, message: string): void } = {
    warn: (fields, message) => console.warn(message, JSON.stringify(fields)),
  };
  const deriver = oprfNodes
    ? (config.derivationThreads > 0 ? workerThresholdDeriver : thresholdDeriver)(oprfNodes, {
        timeoutMs: config.oprfNodeTimeoutMs,
        threads: config.derivationThreads,
        admissionSeed: admissionSeed(secret),
        onFaults: (faults) => {
          for (const fault of faults) metrics.oprfNodeFaults.inc({ node: String(fault.index), reason: fault.reason });
          // Structured, through the server's logger (set once the app is built); index, URL, reason only.
          faultLog.warn(
            { faults: faults.map(({ index, url, reason, status }) => ({ node: index, url, reason, ...(status ? { status } : {}) })) },
            'OPRF nodes left out of an evaluation',
          );
          // A node that failed may have changed its key or gone: read the keys now, not at the next interval.
          if (faults.some((fault) => fault.reason !== 'rate-limited')) oprfNodes.rereadSoon?.();
        },
      })
    : config.derivationThreads > 0
      ? workerDeriver(oprfKey!, config.derivationThreads)
      : inProcessDeriver(oprf!);
  if (threshold && existsSync(path.join(config.dataDir, 'oprf-key.json'))) {
    console.warn(
      `Threshold mode, yet ${path.join(config.dataDir, 'oprf-key.json')} still holds the whole OPRF key: once the nodes serve, ` +
        'delete it and every copy of it (docs/oprf-nodes.md, "Deleting the whole key"), or it stays the weakest point.',
    );
  }
  const oidcKeySecret = await loadOidcKeySecret({ fromEnv: config.oidcKeySecret, dataDir: config.dataDir, oprfPrivateKey: oprfKey });
  const registry = new Registry(storage, {
    onError: (error) =>
      console.error(
        'Background tree work (a catch-up, a checkpoint or a root record) failed:',
        error instanceof Error ? error.message : error,
      ),
  });
  const artifacts = await Artifacts.load();
  const lifecycle = { warmingUp: true, draining: false };
  const warmedUp = deriver
    .ready()
    .catch((error: unknown) => console.error('Warming up the derivation threads failed:', error instanceof Error ? error.message : error))
    .finally(() => (lifecycle.warmingUp = false));
  const app = await buildApp(
    { config, storage, registry, oprf, oprfNodes, deriver, artifacts, lifecycle, metrics, attemptKeySecret: secret, oidcKeySecret },
    { eager: true },
  );
  faultLog = app.log;
  const nodeKeys =
    oprfNodes &&
    watchNodeKeys(oprfNodes, {
      urls: config.oprfNodes,
      threshold: config.oprfThreshold,
      timeoutMs: config.oprfNodeTimeoutMs,
      rereadMs: config.oprfNodeRereadMs,
      log: app.log,
    });
  if (oprfNodes) {
    observeOprfNodes(metrics, () => oprfNodes.current);
    // Public, and needed by every node (ADMISSION_KEYS, decision 032) before this server can be ready.
    const admissionKey = Buffer.from(admissionSigner(admissionSeed(secret)).publicKey).toString('base64url');
    app.log.info({ admissionKey }, 'admission key for the OPRF nodes');
  }
  const metricsApp = config.metricsPort === undefined ? undefined : await buildMetricsApp({ config, metrics });

  let closing = false;
  const connecting = (async () => {
    for (let attempt = 1, delayMs = 250; !closing; attempt++, delayMs = Math.min(delayMs * 2, 5_000)) {
      try {
        const opened = await openStorage({
          databaseUrl: config.databaseUrl,
          dataDir: config.dataDir,
          poolSize: config.databasePoolSize,
          sqliteMaxSizeBytes: config.sqliteMaxSizeBytes,
        });
        if (closing) return opened.close();
        try {
          const recorded = await opened.keyFingerprints.recorded('oprf');
          const isRecorded = (groupPublicKey: Uint8Array) =>
            keyFingerprint({ purpose: 'oprf', suite: OPRF_SUITE, publicKey: groupPublicKey }) === recorded;
          const publicKey = oprfKey ? oprfPublicKey(oprfKey) : await nodeKeys!.firstRead(isRecorded, () => closing);
          // The group key is the single key's public key: a database made in single-key mode matches
          // the nodes its key was split among, and no others.
          await checkKeyFingerprint(opened.keyFingerprints, { purpose: 'oprf', suite: OPRF_SUITE, publicKey });
        } catch (error) {
          await opened.close();
          throw error;
        }
        storage.attach(opened);
        // An erasure whose scrub a crash cut off (decision 053): scrub now, in the background.
        opened.identities
          .scrubPendingErasures()
          .catch((error: unknown) => app.log.warn({ err: (error as Error).message }, 'scrubbing the bytes of earlier erasures failed'));
        await registry.catchUp();
        releaseStartupGarbage();
        await warmedUp;
        app.log.info(
          { members: registry.size, storage: storage.dialect, publicUrl: config.publicUrl, group: ristretto255Backend },
          'ZeroID is ready',
        );
        return;
      } catch (error) {
        // Another key's database cannot become ready by waiting: stop, and say what to fix.
        if (error instanceof KeyMismatchError && threshold) {
          console.error(
            `ZeroID refuses to start: the OPRF nodes in OPRF_NODES hold shares of another key than the one this database was created ` +
              `with (its fingerprint ${error.recorded.slice(0, 16)}…, the nodes' group key ${error.current.slice(0, 16)}…). Every identity ` +
              "in it was derived with that key. Point OPRF_NODES at the nodes whose shares were split from this database's key " +
              '(npm run oprf -- split of its oprf-key.json or OPRF_PRIVATE_KEY).',
          );
          process.exit(1);
        }
        if (error instanceof KeyMismatchError || error instanceof OprfNodeSetMismatch) {
          console.error(`ZeroID refuses to start: ${error.message}`);
          process.exit(1);
        }
        const { name, code } = error as { name?: string; code?: string };
        app.log.warn({ attempt, err: { name, code, message: (error as Error).message }, retryInMs: delayMs }, 'storage not ready');
        await sleep(delayMs);
      }
    }
  })();

  // The nodes' keys are read again every few seconds (watch-node-keys.ts): a node that was down
  // joins once it publishes a key that fits, refreshed keys are taken up, and a node whose key no
  // longer fits the others is left out and named.
  nodeKeys?.watch();

  // Expired challenges, sessions and sign-in records and idle counters are useless; purge them so
  // no table grows without bound and a full database frees itself (decision 037).
  const purge = setInterval(() => {
    if (!storage.attached) return;
    purgeExpired(storage, config).catch((error: unknown) =>
      app.log.warn({ err: { name: (error as Error).name, code: (error as { code?: unknown }).code } }, 'purge failed'),
    );
  }, config.purgeIntervalMs);
  purge.unref();

  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    clearInterval(purge);
    nodeKeys?.stop();
    // First report not-ready while still serving, so a load balancer stops sending requests here
    // and nothing already on its way is cut off; then stop accepting connections, let in-flight
    // requests finish (each is bounded by the request timeout), and close the database.
    lifecycle.draining = true;
    app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down: draining');
    await sleep(config.shutdownDrainMs);
    app.log.info('shutting down: finishing in-flight requests');
    // A keep-alive connection that finishes its request after close() began would otherwise stay
    // open until its keep-alive timeout.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      await Promise.all([app.close(), metricsApp?.close()]);
      clearInterval(sweep);
      await connecting;
      if (storage.attached) await registry.flush();
      await deriver.close();
    } finally {
      await storage.close();
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

/**
 * Loading a large tree leaves hundreds of MB of short-lived strings behind (at a million members the
 * heap holds ~600 MB of which ~140 MB is live), which V8 would keep committed until memory pressure
 * makes it collect. One full collection right after start-up gives that memory back at once.
 */
function releaseStartupGarbage() {
  v8.setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
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
 * Before issue 29, `npm start` kept its data in apps/server/data (npm runs the script there) while
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
