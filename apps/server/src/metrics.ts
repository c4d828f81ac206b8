import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { usableNodes, type OprfNodeSet } from './oprf/nodes/oprf-node-set.ts';

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
    oprfNodeFaults: new Counter({
      name: 'zeroid_oprf_node_faults_total',
      help: 'Threshold mode: answers of an OPRF node left out of an evaluation, by node index and reason.',
      labelNames: ['node', 'reason'] as const,
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

/**
 * Threshold mode: one series per OPRF node the server does not use, or cannot reach, at the last read
 * of the nodes' keys (`problem`: unreachable, inconsistent-key, wrong-place, …), and how many it uses.
 */
export function observeOprfNodes(metrics: Metrics, read: () => OprfNodeSet | undefined) {
  new Gauge({
    name: 'zeroid_oprf_node_left_out',
    help: 'Threshold mode: 1 for each OPRF node left out or unreachable at the last read of their keys, by node index and problem.',
    labelNames: ['node', 'problem'] as const,
    registers: [metrics.registry],
    collect() {
      this.reset();
      for (const node of read()?.nodes ?? []) if (node.problem) this.set({ node: String(node.index), problem: node.problem }, 1);
    },
  });
  new Gauge({
    name: 'zeroid_oprf_nodes_usable',
    help: 'Threshold mode: OPRF nodes whose keys fit the group key, at the last read.',
    registers: [metrics.registry],
    collect() {
      this.set(usableNodes(read()).length);
    },
  });
}

export type Metrics = ReturnType<typeof createMetrics>;
