import { inPageGroth16 } from '../browser/in-page-groth16.ts';

/**
 * Bundled by bench/binding-costs.ts and loaded into Chromium: snarkjs's Groth16 prover on the
 * registration cost model, artifacts in memory as the web app keeps Semaphore's.
 */
export const { setup, prove } = inPageGroth16('/cost-model/registration-cost-model.wasm', '/cost-model/registration-cost-model.zkey');
