import { existsSync } from 'node:fs';
import path from 'node:path';
import { OprfEvaluator, precomputeFixedBases } from '@zeroid/protocol';
import { REGISTRATION_CREDENTIAL_SETUP, REGISTRATION_V3_SETUP, SIGN_IN_CREDENTIAL_SETUP } from '@zeroid/protocol/v3';
import type { AppDeps, Lifecycle } from './app-deps.ts';
import type { Config } from './config.ts';
import { createRawDeriver } from './identity/raw/create-raw-deriver.ts';
import type { OprfNodesState } from './oprf/nodes/oprf-node-set.ts';
import { connectStorage } from './jobs/connect-storage.ts';
import type { JobLog } from './jobs/job-log.ts';
import { schedulePurge } from './jobs/schedule-purge.ts';
import { guessKeySecret, loadGuessKeySecret } from './limits/guess-key-secret.ts';
import { createGuessLimits } from './limits/create-guess-limits.ts';
import { Registry } from './member-tree/member-tree.ts';
import { credentialLeaves } from './member-tree/leaf-sources.ts';
import { credentialSignInVerifier } from './proofs/verify-credential-sign-in.ts';
import { createMetrics, observeOprfNodes, observeSessionStreams } from './metrics.ts';
import { loadOidcKeySecret } from './openid/oidc-key-secret.ts';
import { providerHolder } from './openid/provider-holder.ts';
import { libsodiumReady, ristretto255Backend, sodiumRistrettoMultiply } from './oprf/libsodium.ts';
import { watchNodeKeys } from './oprf/nodes/watch-node-keys.ts';
import { admissionSeed, admissionSigner } from './oprf/oprf-admission-signer.ts';
import { loadOprfKey } from './oprf/oprf-key.ts';
import { oprfV3Key } from './oprf/oprf-key-v3.ts';
import { Artifacts } from './proofs/artifacts.ts';
import { createProofVerifier } from './proofs/verifier/proof-verifier.ts';
import { verificationKeys } from './proofs/verifier/verification-keys.ts';
import { setupWarning } from './proofs/setup-warning.ts';
import { createSessionQrImages } from './sessions/session-qr-images.ts';
import { createSessionStreamCaps } from './sessions/session-stream-caps.ts';
import { createSessionWatcher } from './sessions/session-watcher.ts';
import { deferredStorage } from './storage/deferred-storage.ts';
import type { Storage } from './storage/types.ts';

/** What a caller may hand in instead of what `createServices` would make. */
export interface ServiceOverrides {
  /**
   * An opened database, used as it is and closed by `close()` (the tests, the bench). Without it the
   * server's way: the services are built around a database that is not there yet, and `start()`
   * opens it in the background, again and again until it answers.
   */
  storage?: Storage;
  /** Artifacts already checked: checksumming 180 MB once per test file is enough. */
  artifacts?: Artifacts;
  /** A lifecycle the caller drives itself (a test of /healthz); otherwise warming up until the derivation threads are. */
  lifecycle?: Lifecycle;
  /** Start the proof verifier's threads now rather than on the first proof (the server). */
  eager?: boolean;
}

/** Every service of one server process, and the background work that keeps them. */
export interface Services extends AppDeps {
  /**
   * Starts a serving process's background work, reporting to `log` (the app's logger): opening the
   * database until it answers (unless one was handed in), reading the OPRF nodes' keys again every
   * few seconds (threshold mode), and the purge. Resolves once the database answers, the tree is
   * loaded and the derivation threads have warmed up; rejects on the faults that waiting cannot fix
   * (a database of another OPRF key, OPRF nodes whose shares do not fit).
   */
  start(log: JobLog): Promise<void>;
  /** Stops the background work: the database is no longer tried, the nodes' keys no longer read, the purge ends. */
  stop(): void;
  /**
   * Stops, then closes every service, the database last. A process that was started saves a tree
   * checkpoint first, for a fast next start.
   */
  close(): Promise<void>;
}

/**
 * The one assembly point (decision 046): builds every service of a server process from its
 * configuration. `server.ts`, the tests (`test/test-app.ts`) and the bench call it; `buildApp` is
 * handed the result and constructs nothing.
 */
export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  // Threshold mode (decision 021): no key in this process; `start()` reads and checks the nodes' keys,
  // and the raw path becomes their client.
  const threshold = config.oprfNodes.length > 0;
  const oprfKey = threshold ? undefined : await loadOprfKey(config.dataDir, config.oprfPrivateKey);
  await libsodiumReady;
  precomputeFixedBases(); // a long-lived process: r·G, k·G and s·Base8 from window tables (decision 066)
  const oprf = oprfKey && new OprfEvaluator(oprfKey, sodiumRistrettoMultiply);
  const oprfV3 = oprfKey && oprfV3Key(oprfKey);
  const keySecret = oprfKey ? guessKeySecret(oprfKey) : await loadGuessKeySecret(config.dataDir, config.attemptKeySecret);
  const oprfNodes: OprfNodesState | undefined = threshold ? { current: undefined } : undefined;
  if (threshold) warnOfTheWholeKey(config.dataDir);
  const metrics = createMetrics();
  const deriver = createRawDeriver(config, {
    oprfKey,
    oprfNodes,
    keySecret,
    metrics,
    // Node faults come only with requests, so after `start()` has handed over the app's logger.
    faultLog: (fields, message) => log.warn(fields, message),
  });
  const oidcKeySecret = await loadOidcKeySecret({ fromEnv: config.oidcKeySecret, dataDir: config.dataDir, oprfPrivateKey: oprfKey });

  const deferred = overrides.storage ? undefined : deferredStorage(config.databaseUrl ? 'postgres' : 'sqlite');
  const storage = overrides.storage ?? deferred!;
  const onTreeError = (error: unknown) =>
    console.error(
      'Background tree work (a catch-up, a checkpoint or a root record) failed:',
      error instanceof Error ? error.message : error,
    );
  // The credential tree (decision 088): its own leaves and root history, rebuilt from the rows at start.
  const credentialRegistry = new Registry(storage, { leaves: credentialLeaves(storage), onError: onTreeError });
  const registry = new Registry(storage, { onError: onTreeError, onTableMoved: () => credentialRegistry.catchUpSoon() });
  if (overrides.storage) await Promise.all([registry.catchUp(), credentialRegistry.catchUp()]);
  const artifacts = overrides.artifacts ?? (await Artifacts.load(config.circuitArtifacts));

  const lifecycle = overrides.lifecycle ?? { warmingUp: true, draining: false };
  const warmedUp = deriver
    .ready()
    .catch((error: unknown) => console.error('Warming up the derivation threads failed:', error instanceof Error ? error.message : error))
    .finally(() => {
      if (!overrides.lifecycle) lifecycle.warmingUp = false;
    });

  // Until `start()` hands over the app's logger, a failed poll goes to the console.
  let log: JobLog = consoleLog;
  const sessionWatcher = createSessionWatcher(storage.sessions, {
    intervalMs: config.sessionPollMs,
    onError: (error) => log.warn({ err: { name: (error as Error).name } }, 'session poll failed'),
  });
  const streamCaps = createSessionStreamCaps({
    perClient: config.sessionStreamsPerClient,
    perSession: config.sessionStreamsPerSession,
    total: config.sessionStreamsMax,
  });
  observeSessionStreams(metrics, () => ({ streams: streamCaps.openStreams, watchedSessions: sessionWatcher.watchedSessions }));
  if (oprfNodes) observeOprfNodes(metrics, () => oprfNodes.current);
  const admissions = oprfNodes ? admissionSigner(admissionSeed(keySecret)) : undefined;
  const proofVerifier = createProofVerifier({
    keys: await verificationKeys(artifacts),
    threads: config.proofVerifierThreads,
    eager: overrides.eager,
  });

  let started = false;
  let closing = false;
  let connecting: Promise<unknown> = Promise.resolve();
  let stopJobs = () => {};
  const stop = () => {
    closing = true;
    stopJobs();
  };
  return {
    config,
    lifecycle,
    storage,
    registry,
    credentialRegistry,
    oprf,
    oprfV3,
    oprfNodes,
    admissions,
    deriver,
    proofVerifier,
    verifyCredentialProof: credentialSignInVerifier(proofVerifier),
    artifacts,
    limits: createGuessLimits(config, storage.attempts, keySecret, { failuresBeforeDelay: config.failedVerificationsBeforeDelay }),
    metrics,
    sessionWatcher,
    streamCaps,
    qrImages: createSessionQrImages({
      link: (session) => `${config.publicUrl}/user-verification?session=${session}`,
      maxEntries: config.qrCacheEntries,
    }),
    openidProvider: providerHolder({
      issuer: config.publicUrl,
      oidc: storage.oidc,
      keySecret: oidcKeySecret,
      signInTtlSeconds: config.signInTtlSeconds,
      trustedIssuers: config.trustedIssuers,
    }),

    start(appLog) {
      started = true;
      log = appLog;
      const setupNotFinal = setupWarning(REGISTRATION_V3_SETUP.state);
      if (setupNotFinal) log.warn({ setup: REGISTRATION_V3_SETUP.state }, setupNotFinal);
      const credentialNotFinal = setupWarning(REGISTRATION_CREDENTIAL_SETUP.state, 'credential registration circuit');
      if (credentialNotFinal) log.warn({ setup: REGISTRATION_CREDENTIAL_SETUP.state }, credentialNotFinal);
      const signInNotFinal = setupWarning(SIGN_IN_CREDENTIAL_SETUP.state, 'sign-in credential circuit', 'sign-in credential proofs');
      if (signInNotFinal) log.warn({ setup: SIGN_IN_CREDENTIAL_SETUP.state }, signInNotFinal);
      const nodeKeys =
        oprfNodes &&
        watchNodeKeys(oprfNodes, {
          urls: config.oprfNodes,
          threshold: config.oprfThreshold,
          timeoutMs: config.oprfNodeTimeoutMs,
          rereadMs: config.oprfNodeRereadMs,
          log,
          fingerprints: storage.keyFingerprints,
        });
      // Public, and needed by every node (ADMISSION_KEYS, decision 032) before this server can be ready.
      if (admissions)
        log.info({ admissionKey: Buffer.from(admissions.publicKey).toString('base64url') }, 'admission key for the OPRF nodes');
      const attached = deferred
        ? connectStorage(deferred, {
            options: {
              databaseUrl: config.databaseUrl,
              dataDir: config.dataDir,
              poolSize: config.databasePoolSize,
              sqliteMaxSizeBytes: config.sqliteMaxSizeBytes,
            },
            oprfKey,
            groupKey: nodeKeys && ((isRecorded) => nodeKeys.firstRead(isRecorded, () => closing)),
            bindV3: nodeKeys?.bindV3,
            registry: { catchUp: async () => void (await Promise.all([registry.catchUp(), credentialRegistry.catchUp()])) },
            log,
            closing: () => closing,
          })
        : Promise.resolve(true);
      connecting = attached.catch(() => undefined);
      // The nodes' keys are read again every few seconds (watch-node-keys.ts): a node that was down
      // joins once it publishes a key that fits, refreshed keys are taken up, and a node whose key no
      // longer fits the others is left out and named.
      nodeKeys?.watch();
      const stopPurge = schedulePurge(storage, {
        intervalMs: config.purgeIntervalMs,
        guessForgetMs: config.guessForgetMs,
        attached: () => deferred?.attached ?? true,
        log,
      });
      stopJobs = () => {
        stopPurge();
        nodeKeys?.stop();
      };
      return attached.then(async (ready) => {
        if (!ready) return;
        await warmedUp;
        log.info(
          { members: registry.size, storage: storage.dialect, publicUrl: config.publicUrl, group: ristretto255Backend },
          'ZeroID is ready',
        );
      });
    },

    stop,

    async close() {
      stop();
      try {
        await connecting;
        if (started && (deferred?.attached ?? true)) await Promise.all([registry.flush(), credentialRegistry.flush()]);
        sessionWatcher.close();
        await Promise.all([deriver.close(), proofVerifier.close()]);
      } finally {
        await storage.close();
      }
    },
  };
}

function warnOfTheWholeKey(dataDir: string) {
  const keyFile = path.join(dataDir, 'oprf-key.json');
  if (!existsSync(keyFile)) return;
  console.warn(
    `Threshold mode, yet ${keyFile} still holds the whole OPRF key: once the nodes serve, ` +
      'delete it and every copy of it (docs/oprf-nodes.md, "Deleting the whole key"), or it stays the weakest point.',
  );
}

const consoleLog: JobLog = {
  info: (fields, message) => console.log(message, fields),
  warn: (fields, message) => console.warn(message, fields),
};
