/** Marks the bare prover's own artifact downloads, so a journey's artifact byte count leaves them out. */
export const BASELINE_HEADER = 'x-bench-baseline';
