import * as snarkjs from 'snarkjs';

// @types/snarkjs leaves out `curves`; snarkjs 0.7 exports it (main.js).
const { curves } = snarkjs as unknown as { curves: { getCurveFromName(name: string): Promise<unknown> } };

/**
 * Builds the proof's curve (BN254 in ffjavascript: its WebAssembly and its thread pool) now, instead
 * of inside the first `generateProof` of this worker. ffjavascript keeps it on `globalThis`, so the
 * proof reuses it; a page that proves once (a sign-in screen) saves the build from its proof time.
 */
export function warmUpCurve(): Promise<void> {
  return curves.getCurveFromName('bn128').then(
    () => undefined,
    () => undefined, // the proof will build it, and report any failure itself
  );
}
