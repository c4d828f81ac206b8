import { isIP } from 'node:net';
import path from 'node:path';
import { ConfigError, parseTrustProxy, type Config } from '../config.ts';
import { exactAddress } from '../http/exact-address.ts';

/**
 * An OPRF node's whole configuration, read once from the environment at start, in the server's
 * manner: every setting has a working default, and a bad value stops the node with a list of
 * everything that is wrong. Names match the server's where the meaning is the same.
 */
export interface NodeConfig {
  port: number;
  host: string;
  /** The share file (unless OPRF_SHARE) and the node's own SQLite file of attempt counters. */
  dataDir: string;
  /** Base64url of the whole share file's JSON; overrides DATA_DIR/oprf-share.json. */
  oprfShare: string | undefined;
  logLevel: Config['logLevel'];
  /** The web app's origins, which call the node from the browser; exactly these, never '*'. */
  corsOrigins: string[];
  trustProxy: Config['trustProxy'];
  /** Per-client POST /oprf requests a minute (the burst limit); 0 disables every limit. */
  rateLimitPerMinute: number;
  /** Evaluations a minute from all clients together, the ZeroID servers included; kept in storage. */
  rateLimitGlobalPerMinute: number;
  ipv6ClientPrefix: number;
  /** Evaluations an end user's client may have before each further one waits (doubling). */
  guessesBeforeDelay: number;
  guessDelayMs: number;
  guessMaxDelayMs: number;
  guessForgetMs: number;
  /**
   * The ZeroID servers' exact addresses (`exactAddress`: never a network, so a neighbour in a server's
   * IPv6 /64 is an ordinary client): on their raw path one server address speaks for many people, each
   * already limited by the server. They get `serverClientPerMinute` evaluations a minute (kept in
   * storage) instead of the per-person guess budget; the global budget still binds them.
   */
  serverClients: string[];
  serverClientPerMinute: number;
  /**
   * The Ed25519 public keys (32 bytes each) of the ZeroID servers whose admissions this node accepts
   * (decision 032): it evaluates only a request one of them admitted, after counting the client's
   * guess. Required: a node without it would give a client the server refused fresh guesses.
   */
  admissionKeys: Uint8Array[];
  /** How old an admission may be when it reaches this node. */
  admissionMaxAgeMs: number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Reads and validates the node's configuration; throws ConfigError listing every problem at once. */
export function loadNodeConfig(env: NodeJS.ProcessEnv = process.env): NodeConfig {
  const problems: string[] = [];
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };

  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const corsOrigins = (env.CORS_ORIGINS || '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin === '*' || !URL.canParse(origin) || new URL(origin).origin !== origin) {
      problems.push(
        `CORS_ORIGINS entry "${origin}" is not an origin like https://app.example (a node allows the app's origins only, never *)`,
      );
    }
  }

  const trustProxy = parseTrustProxy(env.TRUST_PROXY);

  const ipv6ClientPrefix = integer('IPV6_CLIENT_PREFIX', 64, 16, 128);
  const serverClients = (env.SERVER_CLIENTS || '')
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
  for (const address of serverClients) if (isIP(address) === 0) problems.push(`SERVER_CLIENTS entry "${address}" is not an IP address`);

  const admissionKeys = (env.ADMISSION_KEYS || '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  if (admissionKeys.length === 0) {
    problems.push(
      "ADMISSION_KEYS is not set: list the admission key of each ZeroID server (its GET /oprf/public-key's admissionKey, also in its start-up log); the node evaluates only what a server admitted",
    );
  }
  for (const key of admissionKeys) {
    if (!/^[A-Za-z0-9_-]{43}$/.test(key))
      problems.push(`ADMISSION_KEYS entry "${key}" is not a base64url Ed25519 public key (43 characters)`);
  }

  const config: NodeConfig = {
    port: integer('PORT', 8091, 0, 65535),
    host: env.HOST || '127.0.0.1',
    // From where the operator typed `npm run oprf-node` (npm itself runs it from the repository root).
    dataDir: path.resolve(env.INIT_CWD || process.cwd(), env.DATA_DIR || './data/oprf-node'),
    oprfShare: env.OPRF_SHARE || undefined,
    logLevel,
    corsOrigins,
    trustProxy,
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', 60, 0, 1_000_000),
    rateLimitGlobalPerMinute: integer('RATE_LIMIT_GLOBAL_PER_MINUTE', 6000, 0, 100_000_000),
    ipv6ClientPrefix,
    guessesBeforeDelay: integer('GUESSES_BEFORE_DELAY', 20, 0, 10_000),
    guessDelayMs: integer('GUESS_DELAY_SECONDS', 30, 1, 86_400) * 1000,
    guessMaxDelayMs: integer('GUESS_MAX_DELAY_SECONDS', 900, 1, 7 * 86_400) * 1000,
    guessForgetMs: integer('GUESS_FORGET_SECONDS', 86_400, 60, 365 * 86_400) * 1000,
    serverClients: serverClients.map((address) => exactAddress(address) ?? address),
    serverClientPerMinute: integer('SERVER_CLIENT_PER_MINUTE', 3000, 1, 100_000_000),
    admissionKeys: admissionKeys.map((key) => new Uint8Array(Buffer.from(key, 'base64url'))),
    admissionMaxAgeMs: integer('ADMISSION_MAX_AGE_SECONDS', 60, 5, 3600) * 1000,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
