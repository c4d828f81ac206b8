import { isIP } from 'node:net';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { exactAddress } from '../limits/exact-address.ts';
import { readSettings } from '../settings/read-settings.ts';
import { describedAs, listOf, parseTrustProxy, port, sharedSettings as shared } from '../settings/shared-settings.ts';

/**
 * An OPRF node's settings, declared once (decision 046) in the server's manner, with the server's
 * names, ranges and defaults where the meaning is the same (`sharedSettings`).
 */
export const nodeSettings = Type.Object({
  PORT: port(8091),
  HOST: shared.HOST,
  DATA_DIR: Type.String({
    default: './data/oprf-node',
    description:
      "the node's share file `oprf-share.json` (mode 0600, as `npm run oprf -- split` writes it) and its own SQLite attempt counters; relative to where you run it",
  }),
  OPRF_SHARE: Type.Optional(Type.String({ description: "base64url of the whole share file's JSON; overrides `DATA_DIR/oprf-share.json`" })),
  CORS_ORIGINS: Type.Optional(
    Type.String({
      description: 'comma-separated origins of the web app allowed to call the node from the browser (exact origins; `*` is refused)',
      'x-default': 'unset (closed)',
    }),
  ),
  TRUST_PROXY: shared.TRUST_PROXY,
  LOG_LEVEL: shared.LOG_LEVEL,
  RATE_LIMIT_PER_MINUTE: describedAs(shared.RATE_LIMIT_PER_MINUTE, 'per-client `POST /oprf` requests a minute; `0` disables every limit'),
  RATE_LIMIT_GLOBAL_PER_MINUTE: describedAs(
    shared.RATE_LIMIT_GLOBAL_PER_MINUTE,
    "evaluations a minute from all clients together, the ZeroID servers included, kept in the node's storage",
  ),
  GUESSES_BEFORE_DELAY: describedAs(
    shared.GUESSES_BEFORE_DELAY,
    "evaluations an end user's client's guess bucket holds; then it waits for the refill (`429 TOO_MANY_GUESSES`)",
  ),
  GUESS_REFILL_PER_HOUR: shared.GUESS_REFILL_PER_HOUR,
  GUESS_DELAY_SECONDS: shared.GUESS_DELAY_SECONDS,
  GUESS_MAX_DELAY_SECONDS: shared.GUESS_MAX_DELAY_SECONDS,
  GUESS_FORGET_SECONDS: shared.GUESS_FORGET_SECONDS,
  IPV6_CLIENT_PREFIX: shared.IPV6_CLIENT_PREFIX,
  SERVER_CLIENTS: Type.Optional(
    Type.String({
      description:
        'comma-separated exact IP addresses of the ZeroID servers (their raw path speaks for many people from one address); never a network',
    }),
  ),
  SERVER_CLIENT_PER_MINUTE: Type.Integer({
    minimum: 1,
    maximum: 100_000_000,
    default: 3000,
    description: 'evaluations a minute each of those servers may have, instead of the per-person guess budget',
  }),
  ADMISSION_KEYS: Type.Optional(
    Type.String({
      description:
        'comma-separated admission keys (base64url Ed25519) of the ZeroID servers: the node evaluates only what one of them admitted (decision 032)',
      'x-default': 'required',
    }),
  ),
  ADMISSION_MAX_AGE_SECONDS: Type.Integer({
    minimum: 5,
    maximum: 3600,
    default: 60,
    description: 'how old an admission may be when it reaches the node',
  }),
});

/**
 * Reads and validates the node's configuration; throws ConfigError listing every problem at once.
 * Every setting but ADMISSION_KEYS has a working default.
 */
export function loadNodeConfig(env: NodeJS.ProcessEnv = process.env) {
  const { values: s, problems } = readSettings(nodeSettings, env);

  const corsOrigins = listOf(s.CORS_ORIGINS);
  for (const origin of corsOrigins) {
    if (origin === '*' || !URL.canParse(origin) || new URL(origin).origin !== origin) {
      problems.add(
        'CORS_ORIGINS',
        `CORS_ORIGINS entry "${origin}" is not an origin like https://app.example (a node allows the app's origins only, never *)`,
      );
    }
  }

  const serverClients = listOf(s.SERVER_CLIENTS);
  for (const address of serverClients) {
    if (isIP(address) === 0) problems.add('SERVER_CLIENTS', `SERVER_CLIENTS entry "${address}" is not an IP address`);
  }

  const admissionKeys = listOf(s.ADMISSION_KEYS);
  if (admissionKeys.length === 0) {
    problems.add(
      'ADMISSION_KEYS',
      "ADMISSION_KEYS is not set: list the admission key of each ZeroID server (its GET /oprf/public-key's admissionKey, also in its start-up log); the node evaluates only what a server admitted",
    );
  }
  for (const key of admissionKeys) {
    if (!/^[A-Za-z0-9_-]{43}$/.test(key))
      problems.add('ADMISSION_KEYS', `ADMISSION_KEYS entry "${key}" is not a base64url Ed25519 public key (43 characters)`);
  }
  problems.throwIfAny();

  return {
    port: s.PORT,
    host: s.HOST,
    /**
     * The share file (unless OPRF_SHARE) and the node's own SQLite file of attempt counters; from where
     * the operator typed `npm run oprf-node` (npm itself runs it from the repository root).
     */
    dataDir: path.resolve(env.INIT_CWD || process.cwd(), s.DATA_DIR),
    oprfShare: s.OPRF_SHARE,
    logLevel: s.LOG_LEVEL,
    /** The web app's origins, which call the node from the browser; exactly these, never '*'. */
    corsOrigins,
    trustProxy: parseTrustProxy(s.TRUST_PROXY),
    rateLimitPerMinute: s.RATE_LIMIT_PER_MINUTE,
    rateLimitGlobalPerMinute: s.RATE_LIMIT_GLOBAL_PER_MINUTE,
    ipv6ClientPrefix: s.IPV6_CLIENT_PREFIX,
    guessesBeforeDelay: s.GUESSES_BEFORE_DELAY,
    guessRefillMs: Math.max(1, Math.round(3_600_000 / s.GUESS_REFILL_PER_HOUR)),
    guessDelayMs: s.GUESS_DELAY_SECONDS * 1000,
    guessMaxDelayMs: s.GUESS_MAX_DELAY_SECONDS * 1000,
    guessForgetMs: s.GUESS_FORGET_SECONDS * 1000,
    /**
     * The ZeroID servers' exact addresses (`exactAddress`: never a network, so a neighbour in a server's
     * IPv6 /64 is an ordinary client): on their raw path one server address speaks for many people, each
     * already limited by the server. They get `serverClientPerMinute` evaluations a minute (kept in
     * storage) instead of the per-person guess budget; the global budget still binds them.
     */
    serverClients: serverClients.map((address) => exactAddress(address) ?? address),
    serverClientPerMinute: s.SERVER_CLIENT_PER_MINUTE,
    /**
     * The Ed25519 public keys (32 bytes each) of the ZeroID servers whose admissions this node accepts
     * (decision 032): it evaluates only a request one of them admitted, after counting the client's
     * guess. Required: a node without it would give a client the server refused fresh guesses.
     */
    admissionKeys: admissionKeys.map((key) => new Uint8Array(Buffer.from(key, 'base64url'))),
    admissionMaxAgeMs: s.ADMISSION_MAX_AGE_SECONDS * 1000,
  };
}

/** An OPRF node's whole configuration, as `loadNodeConfig` reads it from `nodeSettings`. */
export type NodeConfig = ReturnType<typeof loadNodeConfig>;
