import { availableParallelism } from 'node:os';
import path from 'node:path';

/**
 * The server's whole configuration, read once from the environment at start. Every setting has a
 * working default; a bad value stops the server with a list of everything that is wrong, rather
 * than failing later on the first request that needs it.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Absent: SQLite in dataDir. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** SQLite only: a cap on the database file, so it fails cleanly (503) before the volume fills. */
  sqliteMaxSizeBytes: number | undefined;
  /** Base of the links we print into QR codes, and the OpenID issuer of Sign in with ZeroID (decision 023). */
  publicUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Origins allowed to call the API from another origin; empty means CORS stays closed. */
  corsOrigins: string[] | '*';
  /** Per-client requests a minute on the routes that can test a guess; 0 disables every limit. */
  rateLimitPerMinute: number;
  /** Guess-capable requests a minute from all clients together, across processes; protects the OPRF key. */
  rateLimitGlobalPerMinute: number;
  /** IPv6 clients are grouped by this prefix length for every per-client limit (64: one subscriber's network). */
  ipv6ClientPrefix: number;
  /** OPRF evaluations a client may cause on any route (/oprf 1, raw /verify 1, raw /register 2) before each further one waits. */
  guessesBeforeDelay: number;
  /** Failed verifications a client may have before each further attempt must wait (NIST SP 800-63B-4: 5). */
  failedVerificationsBeforeDelay: number;
  /** That wait (NIST: at least 30 s); it doubles with each further failure, up to the maximum. */
  failedVerificationDelayMs: number;
  failedVerificationMaxDelayMs: number;
  /** A client's failures are forgotten after this long without one. */
  failedVerificationForgetMs: number;
  /** Fastify's trustProxy: which proxies may set X-Forwarded-For. false trusts nobody. */
  trustProxy: boolean | string | number;
  /** OPRF private key from the environment (base64url); otherwise a key file in dataDir. */
  oprfPrivateKey: string | undefined;
  /**
   * Threshold mode (decision 021): the OPRF nodes' base URLs, in share-index order (the first holds
   * share 1). Empty: the single-key mode, with the key in this process.
   */
  oprfNodes: string[];
  /** How many of the nodes must answer (t of n); the nodes were split for it. */
  oprfThreshold: number;
  /** How long the raw path waits for the nodes' answers before it gives up on the slow ones. */
  oprfNodeTimeoutMs: number;
  /** Threshold mode: how often the nodes' published keys are read again (a node joins, refreshes, or is left out). */
  oprfNodeRereadMs: number;
  /** Threshold mode: the attempt counters' HMAC secret (base64url, 32 bytes); otherwise a file in dataDir. */
  attemptKeySecret: string | undefined;
  /** Where the built web app lives. */
  webDist: string;
  /** How long a one-time challenge stays usable. */
  challengeTtlMs: number;
  /** How long a cross-device verification session stays open. */
  sessionTtlMs: number;
  /** How long a "Sign in with ZeroID" authorization request waits for its proof (decision 037). */
  signInTtlSeconds: number;
  /** How often expired challenges, sessions, sign-in records and idle counters are purged. */
  purgeIntervalMs: number;
  /** The secret the OpenID keys are sealed under (base64url, 32 bytes); absent: derived or kept in dataDir (decision 038). */
  oidcKeySecret: string | undefined;
  /** How often the session watcher reads the sessions that screens follow (once for all of them). */
  sessionPollMs: number;
  /** Open session event streams one client may hold. */
  sessionStreamsPerClient: number;
  /** Open event streams on one session. */
  sessionStreamsPerSession: number;
  /** Open event streams in one process. */
  sessionStreamsMax: number;
  /** Session QR images kept in memory (about 1 KB each). */
  qrCacheEntries: number;
  /** How long an old Merkle root stays acceptable after the tree moves on. */
  rootWindowMs: number;
  /** On SIGTERM, how long to keep serving while /healthz reports not-ready, before closing. */
  shutdownDrainMs: number;
  /** Worker threads for the raw path's derivations; 0 runs them on the event loop. */
  derivationThreads: number;
  /** Worker threads verifying Groth16 proofs. */
  proofVerifierThreads: number;
  /** A second listener that serves only /metrics; absent: none. */
  metricsPort: number | undefined;
  /** Where that listener binds: loopback unless the operator opens it. */
  metricsHost: string;
  /** A bearer token for /metrics: with it, /metrics is also served on the public listener, to holders only. */
  metricsToken: string | undefined;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the configuration; throws ConfigError listing every problem at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];

  const numeric = (name: string, fallback: number, min: number, max: number, kind: 'an integer' | 'a number'): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    const wellFormed = kind === 'an integer' ? Number.isInteger(value) : Number.isFinite(value);
    if (!wellFormed || value < min || value > max) {
      problems.push(`${name} must be ${kind} from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const integer = (name: string, fallback: number, min: number, max: number) => numeric(name, fallback, min, max, 'an integer');
  const decimal = (name: string, fallback: number, min: number, max: number) => numeric(name, fallback, min, max, 'a number');

  const port = integer('PORT', 8080, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  // From where the operator typed `npm start` (npm runs the server's script in apps/server): the same
  // ./data that `npm run oidc` and `npm run seed`, run from the root, open.
  const dataDir = path.resolve(env.INIT_CWD || process.cwd(), env.DATA_DIR || './data');

  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql:// (leave it unset for SQLite)');
  }

  const publicUrl = (env.PUBLIC_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  if (!URL.canParse(publicUrl)) problems.push(`PUBLIC_URL must be an absolute URL (got "${publicUrl}")`);

  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const corsRaw = (env.CORS_ORIGINS || '').trim();
  const corsOrigins: Config['corsOrigins'] =
    corsRaw === '*'
      ? '*'
      : corsRaw
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean);
  if (Array.isArray(corsOrigins)) {
    for (const origin of corsOrigins) {
      if (!URL.canParse(origin)) problems.push(`CORS_ORIGINS entry "${origin}" is not an origin like https://app.example`);
    }
  }

  const trustProxy = parseTrustProxy(env.TRUST_PROXY);

  const metricsPortRaw = env.METRICS_PORT;
  const metricsPort = metricsPortRaw === undefined || metricsPortRaw === '' ? undefined : integer('METRICS_PORT', 0, 1, 65535);
  if (metricsPort !== undefined && metricsPort === port) problems.push('METRICS_PORT must differ from PORT');
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && !/^[\x21-\x7e]{32,}$/.test(metricsToken)) {
    problems.push('METRICS_TOKEN must be at least 32 printable characters without spaces (e.g. openssl rand -hex 32)');
  }

  const oprfNodes = (env.OPRF_NODES || '')
    .split(',')
    .map((node) => node.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  for (const node of oprfNodes) {
    if (!/^https?:\/\//.test(node) || !URL.canParse(node))
      problems.push(`OPRF_NODES entry "${node}" is not a URL like https://oprf-1.example`);
  }
  if (new Set(oprfNodes).size !== oprfNodes.length) problems.push('OPRF_NODES lists a node twice');
  if (oprfNodes.length === 1) problems.push('OPRF_NODES needs at least 2 nodes (one node is the single-key mode: leave OPRF_NODES unset)');
  const oprfThreshold = integer('OPRF_THRESHOLD', Math.floor(oprfNodes.length / 2) + 1, 1, 255);
  if (oprfNodes.length > 1 && (oprfThreshold < 2 || oprfThreshold > oprfNodes.length)) {
    problems.push(`OPRF_THRESHOLD must be from 2 to the number of OPRF_NODES (${oprfNodes.length}), got ${oprfThreshold}`);
  }
  if (oprfNodes.length > 0 && env.OPRF_PRIVATE_KEY) {
    problems.push(
      'OPRF_PRIVATE_KEY and OPRF_NODES exclude each other: in threshold mode the server holds no OPRF key (unset OPRF_PRIVATE_KEY)',
    );
  }
  const attemptKeySecret = env.ATTEMPT_KEY_SECRET || undefined;
  if (attemptKeySecret !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(attemptKeySecret)) {
    problems.push('ATTEMPT_KEY_SECRET must be 32 bytes in base64url, 43 characters (e.g. openssl rand 32 | basenc --base64url | tr -d =)');
  }

  const oidcKeySecret = env.OIDC_KEY_SECRET || undefined;
  if (oidcKeySecret !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(oidcKeySecret)) {
    problems.push('OIDC_KEY_SECRET must be 32 bytes in base64url, 43 characters (e.g. openssl rand 32 | basenc --base64url | tr -d =)');
  }

  const config: Config = {
    port,
    host,
    dataDir,
    databaseUrl,
    databasePoolSize: integer('DATABASE_POOL_SIZE', 10, 1, 1000),
    sqliteMaxSizeBytes: Math.round(decimal('SQLITE_MAX_SIZE_MB', 0, 0, 16_000_000) * 1024 * 1024) || undefined,
    publicUrl,
    logLevel,
    corsOrigins,
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', 60, 0, 1_000_000),
    rateLimitGlobalPerMinute: integer('RATE_LIMIT_GLOBAL_PER_MINUTE', 6000, 0, 100_000_000),
    ipv6ClientPrefix: integer('IPV6_CLIENT_PREFIX', 64, 16, 128),
    guessesBeforeDelay: integer('GUESSES_BEFORE_DELAY', 20, 0, 10_000),
    failedVerificationsBeforeDelay: integer('FAILED_VERIFICATIONS_BEFORE_DELAY', 5, 0, 100),
    failedVerificationDelayMs: integer('FAILED_VERIFICATION_DELAY_SECONDS', 30, 1, 86_400) * 1000,
    failedVerificationMaxDelayMs: integer('FAILED_VERIFICATION_MAX_DELAY_SECONDS', 900, 1, 7 * 86_400) * 1000,
    failedVerificationForgetMs: integer('FAILED_VERIFICATION_FORGET_SECONDS', 86_400, 60, 365 * 86_400) * 1000,
    trustProxy,
    oprfPrivateKey: env.OPRF_PRIVATE_KEY || undefined,
    oprfNodes,
    oprfThreshold,
    oprfNodeTimeoutMs: integer('OPRF_NODE_TIMEOUT_MS', 2000, 50, 60_000),
    oprfNodeRereadMs: integer('OPRF_NODE_REREAD_MS', 5000, 100, 600_000),
    attemptKeySecret,
    webDist: path.resolve(env.WEB_DIST || new URL('../../web/dist', import.meta.url).pathname),
    challengeTtlMs: integer('CHALLENGE_TTL_SECONDS', 300, 10, 86_400) * 1000,
    sessionTtlMs: integer('SESSION_TTL_SECONDS', 300, 5, 3600) * 1000,
    signInTtlSeconds: integer('SIGN_IN_TTL_SECONDS', 600, 5, 3600),
    purgeIntervalMs: integer('PURGE_INTERVAL_SECONDS', 60, 1, 3600) * 1000,
    oidcKeySecret,
    sessionPollMs: integer('SESSION_POLL_MS', 500, 50, 60_000),
    sessionStreamsPerClient: integer('SESSION_STREAMS_PER_CLIENT', 16, 1, 100_000),
    sessionStreamsPerSession: integer('SESSION_STREAMS_PER_SESSION', 4, 1, 100_000),
    sessionStreamsMax: integer('SESSION_STREAMS_MAX', 10_000, 1, 1_000_000),
    qrCacheEntries: integer('QR_CACHE_ENTRIES', 1000, 1, 1_000_000),
    rootWindowMs: integer('ROOT_WINDOW_SECONDS', 3600, 0, 30 * 86_400) * 1000,
    shutdownDrainMs: integer('SHUTDOWN_DRAIN_MS', 1000, 0, 120_000),
    derivationThreads: integer('DERIVATION_THREADS', availableParallelism(), 0, 256),
    proofVerifierThreads: integer('PROOF_VERIFIER_THREADS', availableParallelism(), 1, 256),
    metricsPort,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    metricsToken,
  };

  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** TRUST_PROXY as Fastify takes it: true, false (the default), a hop count, or addresses. Server and OPRF node alike. */
export function parseTrustProxy(raw: string | undefined): Config['trustProxy'] {
  const value = raw || 'false';
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}
