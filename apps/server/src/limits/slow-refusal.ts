/** How long a refused request waits for its 429. */
export const REFUSAL_DELAY_MS = 1000;

/**
 * Holds a refusal back, so a flooding connection spends its time waiting instead of making the server
 * work: an answered 429 still costs the event loop a little, and a client that resends at once on
 * each of 32 connections would keep it busy with nothing but refusals (a healthy client's p95 grew
 * many times with immediate 429s: docs/benchmarks.md, "Refusal pause"). With the pause each
 * connection gets one refusal a second.
 */
export const slowRefusal = () => new Promise<void>((resolve) => setTimeout(resolve, REFUSAL_DELAY_MS));
