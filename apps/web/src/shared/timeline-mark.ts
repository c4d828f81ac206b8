/**
 * A User Timing mark, `zeroid:<step>`, on the page or in the prover worker: Chromium's profiler and
 * the bench's traces (`BENCH_PROFILE=1 npm run bench -- oidc`, decision 050) show where a journey's
 * time goes. A mark costs about a microsecond and sends nothing anywhere.
 */
export function timelineMark(step: string): void {
  performance.mark(`zeroid:${step}`);
}
