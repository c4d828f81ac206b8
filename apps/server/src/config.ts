import { availableParallelism } from 'node:os';
import path from 'node:path';
import { readTrustedIssuers } from './credentials/trusted-issuers.ts';
import { readSettings } from './settings/read-settings.ts';
import { serverSettings } from './settings/server-settings.ts';
import { listOf, parseTrustProxy } from './settings/shared-settings.ts';

/**
 * Reads and validates the server's configuration from the environment, once at start. Every setting
 * has a working default; a bad value throws ConfigError listing every problem at once, rather than
 * failing later on the first request that needs it.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const { values: s, problems } = readSettings(serverSettings, env);

  const publicUrl = (s.PUBLIC_URL || `http://${s.HOST.includes(':') ? `[${s.HOST}]` : s.HOST}:${s.PORT}`).replace(/\/+$/, '');
  if (!URL.canParse(publicUrl)) problems.add('PUBLIC_URL', `PUBLIC_URL must be an absolute URL (got "${publicUrl}")`);

  const corsOrigins = s.CORS_ORIGINS?.trim() === '*' ? ('*' as const) : listOf(s.CORS_ORIGINS);
  if (Array.isArray(corsOrigins)) {
    for (const origin of corsOrigins) {
      if (!URL.canParse(origin)) problems.add('CORS_ORIGINS', `CORS_ORIGINS entry "${origin}" is not an origin like https://app.example`);
    }
  }

  if (s.METRICS_PORT !== undefined && s.METRICS_PORT === s.PORT) problems.add('METRICS_PORT', 'METRICS_PORT must differ from PORT');

  const oprfNodes = listOf(s.OPRF_NODES).map((node) => node.replace(/\/+$/, ''));
  for (const node of oprfNodes) {
    if (!/^https?:\/\//.test(node) || !URL.canParse(node))
      problems.add('OPRF_NODES', `OPRF_NODES entry "${node}" is not a URL like https://oprf-1.example`);
  }
  if (new Set(oprfNodes).size !== oprfNodes.length) problems.add('OPRF_NODES', 'OPRF_NODES lists a node twice');
  if (oprfNodes.length === 1) {
    problems.add('OPRF_NODES', 'OPRF_NODES needs at least 2 nodes (one node is the single-key mode: leave OPRF_NODES unset)');
  }
  const oprfThreshold = s.OPRF_THRESHOLD ?? Math.floor(oprfNodes.length / 2) + 1;
  if (oprfNodes.length > 1 && (oprfThreshold < 2 || oprfThreshold > oprfNodes.length)) {
    problems.add('OPRF_THRESHOLD', `OPRF_THRESHOLD must be from 2 to the number of OPRF_NODES (${oprfNodes.length}), got ${oprfThreshold}`);
  }
  if (oprfNodes.length > 0 && s.OPRF_PRIVATE_KEY) {
    problems.add(
      'OPRF_PRIVATE_KEY',
      'OPRF_PRIVATE_KEY and OPRF_NODES exclude each other: in threshold mode the server holds no OPRF key (unset OPRF_PRIVATE_KEY)',
    );
  }
  const trustedIssuers = readTrustedIssuers(s.TRUSTED_ISSUERS, (message) => problems.add('TRUSTED_ISSUERS', message));
  if (s.REQUIRE_CREDENTIAL && trustedIssuers.length === 0) {
    problems.add('REQUIRE_CREDENTIAL', 'REQUIRE_CREDENTIAL=true needs at least one issuer in TRUSTED_ISSUERS: nobody could register');
  }
  problems.throwIfAny();

  return {
    port: s.PORT,
    host: s.HOST,
    // From where the operator typed `npm start` (npm runs the server's script in apps/server): the same
    // ./data that `npm run oidc` and `npm run seed`, run from the root, open.
    dataDir: path.resolve(env.INIT_CWD || process.cwd(), s.DATA_DIR),
    /** Absent: SQLite in dataDir. */
    databaseUrl: s.DATABASE_URL,
    databasePoolSize: s.DATABASE_POOL_SIZE,
    /** SQLite only: a cap on the database file, so it fails cleanly (503) before the volume fills. */
    sqliteMaxSizeBytes: Math.round((s.SQLITE_MAX_SIZE_MB ?? 0) * 1024 * 1024) || undefined,
    publicUrl,
    logLevel: s.LOG_LEVEL,
    corsOrigins,
    rateLimitPerMinute: s.RATE_LIMIT_PER_MINUTE,
    rateLimitGlobalPerMinute: s.RATE_LIMIT_GLOBAL_PER_MINUTE,
    ipv6ClientPrefix: s.IPV6_CLIENT_PREFIX,
    guessesBeforeDelay: s.GUESSES_BEFORE_DELAY,
    guessRefillMs: Math.max(1, Math.round(3_600_000 / s.GUESS_REFILL_PER_HOUR)),
    failedVerificationsBeforeDelay: s.FAILED_VERIFICATIONS_BEFORE_DELAY,
    guessDelayMs: s.GUESS_DELAY_SECONDS * 1000,
    guessMaxDelayMs: s.GUESS_MAX_DELAY_SECONDS * 1000,
    guessForgetMs: s.GUESS_FORGET_SECONDS * 1000,
    trustProxy: parseTrustProxy(s.TRUST_PROXY),
    oprfPrivateKey: s.OPRF_PRIVATE_KEY,
    /** Threshold mode (decision 021), in share-index order (the first holds share 1); empty: the single key, in this process. */
    oprfNodes,
    oprfThreshold,
    oprfNodeTimeoutMs: s.OPRF_NODE_TIMEOUT_MS,
    oprfNodeRereadMs: s.OPRF_NODE_REREAD_MS,
    /** The queue in front of the nodes (decision 075): derivations in flight, and how many more may wait. */
    oprfNodeConcurrency: s.OPRF_NODE_CONCURRENCY,
    oprfNodeQueue: s.OPRF_NODE_QUEUE,
    attemptKeySecret: s.ATTEMPT_KEY_SECRET,
    /** Absent: circuits/artifacts of this checkout. */
    circuitArtifacts: s.CIRCUIT_ARTIFACTS ? path.resolve(env.INIT_CWD || process.cwd(), s.CIRCUIT_ARTIFACTS) : undefined,
    webDist: path.resolve(s.WEB_DIST || new URL('../../web/dist', import.meta.url).pathname),
    challengeTtlMs: s.CHALLENGE_TTL_SECONDS * 1000,
    sessionTtlMs: s.SESSION_TTL_SECONDS * 1000,
    signInTtlSeconds: s.SIGN_IN_TTL_SECONDS,
    purgeIntervalMs: s.PURGE_INTERVAL_SECONDS * 1000,
    oidcKeySecret: s.OIDC_KEY_SECRET,
    sessionPollMs: s.SESSION_POLL_MS,
    sessionStreamsPerClient: s.SESSION_STREAMS_PER_CLIENT,
    sessionStreamsPerSession: s.SESSION_STREAMS_PER_SESSION,
    sessionStreamsMax: s.SESSION_STREAMS_MAX,
    qrCacheEntries: s.QR_CACHE_ENTRIES,
    /** The issuers whose credentials register, in the order listed (decision 079). */
    trustedIssuers,
    requireCredential: s.REQUIRE_CREDENTIAL,
    rootWindowMs: s.ROOT_WINDOW_SECONDS * 1000,
    shutdownDrainMs: s.SHUTDOWN_DRAIN_MS,
    derivationThreads: s.DERIVATION_THREADS ?? availableParallelism(),
    proofVerifierThreads: s.PROOF_VERIFIER_THREADS ?? availableParallelism(),
    metricsPort: s.METRICS_PORT,
    metricsHost: s.METRICS_HOST,
    metricsToken: s.METRICS_TOKEN,
  };
}

/** The server's whole configuration, as `loadConfig` reads it from `serverSettings`. */
export type Config = ReturnType<typeof loadConfig>;
