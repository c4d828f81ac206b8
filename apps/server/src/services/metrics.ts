import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics. Labels carry routes, modes and verdicts, never anything from a request body.
 * Process metrics (resident memory, event-loop lag, heap) come with them.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new Counter({
      name: 'zeroid_http_requests_total',
      help: 'HTTP requests by route, method and status.',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    registrations: new Counter({
      name: 'zeroid_registrations_total',
      help: 'Registrations by mode (raw, zk) and outcome (new, existing).',
      labelNames: ['mode', 'outcome'] as const,
      registers: [registry],
    }),
    verifications: new Counter({
      name: 'zeroid_verifications_total',
      help: 'Verifications by mode (raw, zk) and result (Success, Failure).',
      labelNames: ['mode', 'result'] as const,
      registers: [registry],
    }),
    proofVerificationSeconds: new Histogram({
      name: 'zeroid_proof_verification_seconds',
      help: 'Time spent in the Groth16 pairing check of one proof.',
      buckets: [0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1],
      registers: [registry],
    }),
    oprfEvaluations: new Counter({
      name: 'zeroid_oprf_evaluations_total',
      help: 'OPRF evaluations, blinded (POST /oprf) and direct (raw API).',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'zeroid_rate_limited_total',
      help: 'Requests refused with 429.',
      labelNames: ['route'] as const,
      registers: [registry],
    }),
  };
}

/** Gauges read when scraped: open session streams and the sessions the watcher reads per poll. */
export function observeSessionStreams(metrics: Metrics, read: () => { streams: number; watchedSessions: number }) {
  new Gauge({
    name: 'zeroid_session_streams',
    help: 'Open session event streams in this process.',
    registers: [metrics.registry],
    collect() {
      this.set(read().streams);
    },
  });
  new Gauge({
    name: 'zeroid_watched_sessions',
    help: 'Sessions the session watcher reads on each poll.',
    registers: [metrics.registry],
    collect() {
      this.set(read().watchedSessions);
    },
  });
}

export type Metrics = ReturnType<typeof createMetrics>;
