import { Type, type TSchema } from '@sinclair/typebox';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The settings the server and an OPRF node both read: one name, type, range and default each
 * (decision 046). A process may describe one in its own words (`describedAs`).
 */
export const sharedSettings = {
  HOST: Type.String({ default: '127.0.0.1', description: 'address to listen on' }),
  LOG_LEVEL: Type.Unsafe<(typeof LOG_LEVELS)[number]>({
    type: 'string',
    enum: [...LOG_LEVELS],
    default: 'info',
    description: 'pino level (`silent` … `trace`); one line per request at `debug`, no ids or query strings; no bodies',
  }),
  TRUST_PROXY: Type.String({
    default: 'false',
    description: 'Fastify `trustProxy`: which proxy may set `X-Forwarded-For` (`true`, a hop count, or addresses)',
  }),
  IPV6_CLIENT_PREFIX: Type.Integer({
    minimum: 16,
    maximum: 128,
    default: 64,
    description: 'IPv6 clients are grouped by this network prefix (16–128) for every per-client limit; IPv4-mapped count as IPv4',
  }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 60 }),
  RATE_LIMIT_GLOBAL_PER_MINUTE: Type.Integer({ minimum: 0, maximum: 100_000_000, default: 6000 }),
  GUESSES_BEFORE_DELAY: Type.Integer({ minimum: 0, maximum: 10_000, default: 200 }),
  GUESS_REFILL_PER_HOUR: Type.Integer({
    minimum: 1,
    maximum: 3_600_000,
    default: 4,
    description: "evaluations a client's guess bucket gains back an hour, continuously (one every 15 min by default)",
  }),
  GUESS_DELAY_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 30,
    description: 'the wait once a client is past its failed verifications (NIST: at least 30 s); it doubles with each further failure…',
  }),
  GUESS_MAX_DELAY_SECONDS: Type.Integer({ minimum: 1, maximum: 7 * 86_400, default: 900, description: '…up to this' }),
  GUESS_FORGET_SECONDS: Type.Integer({
    minimum: 60,
    maximum: 365 * 86_400,
    default: 86_400,
    description: "a client's failed verifications are forgotten after this long without a verification",
  }),
};

/** PORT, whose default differs: 8080 for the server, 8091 for a node. */
export const port = (fallback: number) => Type.Integer({ minimum: 0, maximum: 65535, default: fallback, description: 'port to listen on' });

/** A shared setting in one process's words. */
export const describedAs = <T extends TSchema>(setting: T, description: string, notes: object = {}): T => ({
  ...setting,
  ...notes,
  description,
});

/** TRUST_PROXY as Fastify takes it: true, false (the default), a hop count, or addresses. Server and OPRF node alike. */
export function parseTrustProxy(value: string): boolean | string | number {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** A comma-separated list, each entry trimmed, empty entries dropped. */
export const listOf = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
