/** The burst limit's window: each guess-capable route counts a client's requests per minute. */
export const BURST_WINDOW_MS = 60_000;

/**
 * Clients each route's burst limit remembers at once. `@fastify/rate-limit` keeps 5,000 by default,
 * least recently used first out, so 5,000 other addresses in a minute (an IPv6 /51 holds 8,192
 * networks of /64) gave a refused client a fresh count. 50,000 entries cost a few MB per route.
 */
export const BURST_CLIENTS = 50_000;

/** Seconds until a burst-limited client may come back, from the limit's time to live; at least 1. */
export const burstRetrySeconds = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs / 1000));
