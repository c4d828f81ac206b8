import { BabyJubjub } from './baby-jubjub-commitment.ts';
import { G } from './v3/baby-jubjub-group.ts';

/**
 * Window tables for Baby Jubjub's generator (Base8): protocol v3's G and the Semaphore commitment's
 * base, one point under two curve definitions. In a long-lived process (the server, an OPRF node)
 * they make r·G, k·G and s·Base8 a few times faster once built. A browser's prover worker multiplies
 * a handful of times and is gone: there the tables cost more than they save (a first blinded r·G
 * builds a 381-bit table: docs/benchmarks.md, "Prover worker start-up"), so only the processes that
 * serve call this (decision 066).
 * The tables are built on first use; calling this again changes nothing.
 */
export function precomputeFixedBases(): void {
  G.precompute(8);
  BabyJubjub.BASE.precompute(8);
}
