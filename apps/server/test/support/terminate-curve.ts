/**
 * Ends the worker threads of snarkjs's bn128 curve, which it keeps on `globalThis` once a file has
 * proved or verified: without this, the file's run would wait on them. Nothing to do otherwise.
 */
export async function terminateCurve(): Promise<void> {
  await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
}
