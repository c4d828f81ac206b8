import path from 'node:path';

/** Where one circuit's setup lives: its source, its artifacts directory and its transcript. */
export interface SetupLayout {
  /** The circom source the R1CS and witness generator are compiled from. */
  circuit: string;
  /** Artifacts directory: phase1.ptau, <name>.r1cs, .wasm, .zkey, .vkey.json. */
  artifacts: string;
  transcript: string;
  /** Scratch and cache (the prepared phase 1, recompiles). */
  work: string;
}

/** The hashes a build pins for a setup (for v3: `REGISTRATION_V3_SETUP` in @zeroid/protocol/v3). */
export interface SetupPins {
  files: Record<string, { sha256: string; bytes: number }>;
  /** SHA-256 of phase1.ptau prepared for phase 2 (snarkjs's preparation is deterministic). */
  preparedPhase1: string;
  state: { phase1: 'public' | 'local'; contributions: number; beacon: boolean; final: boolean };
}

export function setupFiles(layout: SetupLayout) {
  const name = path.basename(layout.circuit, '.circom');
  const file = (f: string) => path.join(layout.artifacts, f);
  return {
    name,
    phase1: file('phase1.ptau'),
    r1cs: file(`${name}.r1cs`),
    wasm: file(`${name}.wasm`),
    zkey: file(`${name}.zkey`),
    vkey: file(`${name}.vkey.json`),
  };
}
