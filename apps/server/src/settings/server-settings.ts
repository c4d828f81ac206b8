import { Type } from '@sinclair/typebox';
import { describedAs, port, sharedSettings as shared } from './shared-settings.ts';

const BASE64URL_32_BYTES = '^[A-Za-z0-9_-]{43}$';
const seconds = (min: number, max: number, fallback: number, description: string) =>
  Type.Integer({ minimum: min, maximum: max, default: fallback, description });

/**
 * The server's settings, declared once (decision 046): name, type and range, default, and the line
 * the README's table (`npm run settings:readme`) and `--help` print. `loadConfig` reads them; the
 * checks across settings are its own.
 */
export const serverSettings = Type.Object({
  PORT: port(8080),
  HOST: shared.HOST,
  DATA_DIR: Type.String({
    default: './data',
    description:
      'SQLite database and the OPRF key file (`oprf-key.json`, mode 0600: **back it up**; losing it loses every identity); relative to where npm was started (decision 045)',
  }),
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      description: '`postgres://…` to use PostgreSQL instead of SQLite',
      'x-problem': 'DATABASE_URL must start with postgres:// or postgresql:// (leave it unset for SQLite)',
    }),
  ),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 1000, default: 10, description: 'PostgreSQL connections per process' }),
  PUBLIC_URL: Type.Optional(
    Type.String({ description: 'base of QR links; the OpenID issuer (decision 023)', 'x-default': '`http://HOST:PORT`' }),
  ),
  WEB_DIST: Type.Optional(
    Type.String({
      description:
        'the built web app the server serves; when set, `npm start` does not build it (an API-only server: a folder without one)',
      'x-default': '`apps/web/dist`',
    }),
  ),
  CIRCUIT_ARTIFACTS: Type.Optional(
    Type.String({
      description:
        "folder of the v3 registration circuit's wasm, zkey and vkey (`circuits/artifacts`); only the files whose SHA-256 this build pins (decision 072)",
      'x-default': 'the repository’s',
    }),
  ),
  LOG_LEVEL: shared.LOG_LEVEL,
  CORS_ORIGINS: Type.Optional(
    Type.String({
      description: 'comma-separated origins, or `*`, allowed to call the API from another origin',
      'x-default': 'unset (closed)',
    }),
  ),
  RATE_LIMIT_PER_MINUTE: describedAs(
    shared.RATE_LIMIT_PER_MINUTE,
    'per-client requests a minute on the guess-testing routes; `0` disables all limits',
  ),
  RATE_LIMIT_GLOBAL_PER_MINUTE: describedAs(
    shared.RATE_LIMIT_GLOBAL_PER_MINUTE,
    'guess-capable requests a minute from all clients together, kept in the database (shared, survives restarts)',
  ),
  GUESSES_BEFORE_DELAY: describedAs(
    shared.GUESSES_BEFORE_DELAY,
    "OPRF evaluations a client's guess bucket holds (`/oprf` 1, raw `/verify` 1, `/register` 2), spent at once if need be; then it waits for the refill; `0` turns the bucket off",
  ),
  GUESS_REFILL_PER_HOUR: shared.GUESS_REFILL_PER_HOUR,
  FAILED_VERIFICATIONS_BEFORE_DELAY: Type.Integer({
    minimum: 0,
    maximum: 100,
    default: 5,
    description: 'failed verifications a client may have before each further verification waits (NIST SP 800-63B-4); `0` turns it off',
  }),
  // The server named these three FAILED_VERIFICATION_*; the node, GUESS_*. One name now, the earlier one still read.
  GUESS_DELAY_SECONDS: describedAs(
    shared.GUESS_DELAY_SECONDS,
    'the wait once a client is past its failed verifications (NIST: at least 30 s); it doubles with each further failure…',
    { 'x-aliases': ['FAILED_VERIFICATION_DELAY_SECONDS'] },
  ),
  GUESS_MAX_DELAY_SECONDS: { ...shared.GUESS_MAX_DELAY_SECONDS, 'x-aliases': ['FAILED_VERIFICATION_MAX_DELAY_SECONDS'] },
  GUESS_FORGET_SECONDS: { ...shared.GUESS_FORGET_SECONDS, 'x-aliases': ['FAILED_VERIFICATION_FORGET_SECONDS'] },
  SQLITE_MAX_SIZE_MB: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 16_000_000,
      description: 'cap on the SQLite file: past it writes get 503 (as on a full disk) instead of filling the volume',
    }),
  ),
  SHUTDOWN_DRAIN_MS: Type.Integer({
    minimum: 0,
    maximum: 120_000,
    default: 1000,
    description: 'on SIGTERM, how long `/healthz` says not-ready while still serving, before the listener closes',
  }),
  DERIVATION_THREADS: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 256,
      description: "worker threads for the raw API's derivations (OPRF, Baby Jubjub, Ed25519); `0` runs them on the event loop",
      'x-default': 'cores',
    }),
  ),
  PROOF_VERIFIER_THREADS: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 256,
      description: 'worker threads verifying Groth16 proofs, in batches (decision 008)',
      'x-default': 'cores',
    }),
  ),
  TRUST_PROXY: shared.TRUST_PROXY,
  IPV6_CLIENT_PREFIX: shared.IPV6_CLIENT_PREFIX,
  OPRF_PRIVATE_KEY: Type.Optional(
    Type.String({ description: 'base64url OPRF key; overrides the key file. A server whose key the database does not know exits' }),
  ),
  OPRF_NODES: Type.Optional(
    Type.String({
      description: "threshold mode (decision 021): the OPRF nodes' URLs in share order; the server then holds no key",
    }),
  ),
  OPRF_THRESHOLD: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 255,
      description: 'how many nodes must answer (t); must be what the key was split for (`docs/deploy.md`)',
      'x-default': 'majority of nodes',
    }),
  ),
  OPRF_NODE_TIMEOUT_MS: Type.Integer({
    minimum: 50,
    maximum: 60_000,
    default: 2000,
    description: 'threshold mode: how long the raw path waits for a node before going on without it',
  }),
  OPRF_NODE_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 1024,
    default: 4,
    description:
      'threshold mode: raw-path derivations talking to the nodes at once; more wait their turn, and OPRF_NODE_TIMEOUT_MS counts from when one is sent',
  }),
  OPRF_NODE_QUEUE: Type.Integer({
    minimum: 0,
    maximum: 100_000,
    default: 256,
    description:
      'threshold mode: raw-path derivations that may wait for their turn; beyond it a request is refused at once with `503 OPRF_BUSY` and Retry-After',
  }),
  OPRF_NODE_REREAD_MS: Type.Integer({
    minimum: 100,
    maximum: 600_000,
    default: 5000,
    description:
      "threshold mode: how often the nodes' keys are read again (a node joins, refreshed keys are taken up, a misfit is left out)",
  }),
  ATTEMPT_KEY_SECRET: Type.Optional(
    Type.String({
      pattern: BASE64URL_32_BYTES,
      description: "threshold mode: the attempt counters' HMAC secret (base64url, 32 bytes; the same on every instance)",
      'x-default': 'a file in DATA_DIR',
      'x-problem': 'ATTEMPT_KEY_SECRET must be 32 bytes in base64url, 43 characters (e.g. openssl rand 32 | basenc --base64url | tr -d =)',
    }),
  ),
  METRICS_PORT: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 65535,
      description: 'a listener serving only `/metrics`; without it or a token, `/metrics` is not served at all',
    }),
  ),
  METRICS_HOST: Type.String({ default: '127.0.0.1', description: 'address of the `METRICS_PORT` listener' }),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      pattern: '^[\\x21-\\x7e]{32,}$',
      description: 'bearer token (≥ 32 characters): `/metrics` on `PORT` too, for `Authorization: Bearer <token>` only',
      'x-problem': 'METRICS_TOKEN must be at least 32 printable characters without spaces (e.g. openssl rand -hex 32)',
    }),
  ),
  CHALLENGE_TTL_SECONDS: seconds(10, 86_400, 300, 'life of a one-time challenge'),
  ROOT_WINDOW_SECONDS: seconds(0, 30 * 86_400, 3600, 'how long a previous Merkle root stays acceptable'),
  SESSION_TTL_SECONDS: seconds(5, 3600, 300, 'life of a cross-device verification session'),
  SIGN_IN_TTL_SECONDS: seconds(5, 3600, 600, 'how long a "Sign in with ZeroID" authorization request waits for its proof (decision 037)'),
  PURGE_INTERVAL_SECONDS: seconds(1, 3600, 60, 'how often expired challenges, sessions, sign-in records and idle counters are deleted'),
  OIDC_KEY_SECRET: Type.Optional(
    Type.String({
      pattern: BASE64URL_32_BYTES,
      description: 'the secret the OpenID signing keys are encrypted under (base64url, 32 bytes; the same on every instance; dec. 038)',
      'x-default': 'derived or a file',
      'x-problem': 'OIDC_KEY_SECRET must be 32 bytes in base64url, 43 characters (e.g. openssl rand 32 | basenc --base64url | tr -d =)',
    }),
  ),
  SESSION_POLL_MS: Type.Integer({
    minimum: 50,
    maximum: 60_000,
    default: 500,
    description: 'how often each process reads the sessions its screens follow (one query for all of them)',
  }),
  SESSION_STREAMS_PER_CLIENT: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 16,
    description: 'open session event streams one client may hold; past it `429` with `Retry-After` (decision 012)',
  }),
  SESSION_STREAMS_PER_SESSION: Type.Integer({ minimum: 1, maximum: 100_000, default: 4, description: 'open event streams on one session' }),
  SESSION_STREAMS_MAX: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10_000, description: 'open event streams in one process' }),
  TRUSTED_ISSUERS: Type.Optional(
    Type.String({
      description:
        'issuers whose credentials register (decision 079): comma-separated public keys as `npm run issuer -- public-key` prints them, each optionally `name=key`',
      'x-default': 'none',
    }),
  ),
  REQUIRE_CREDENTIAL: Type.Boolean({
    default: false,
    description:
      '`true` refuses a plain ID: only a credential from a trusted issuer registers, proven in zero knowledge or checked on the raw path (decisions 079, 085)',
  }),
  EXPERIMENTAL_NOISY_BIOMETRICS: Type.Boolean({
    default: false,
    description:
      '`true`: a raw biometric that is an iris code of 2,048 bits (hex or base64, optional mask) verifies from a later reading within the genuine distance; a JSON feature vector is refused (decision 084; experimental)',
  }),
  QR_CACHE_ENTRIES: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 1000,
    description: 'session QR images kept in memory (about 1 KB each), least recently used dropped first',
  }),
});
