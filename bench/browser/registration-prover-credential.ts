import { inPageGroth16 } from './in-page-groth16.ts';

/**
 * Bundled by bench/suites/registration-proof.ts for `npm run bench -- credential` and loaded into
 * Chromium: snarkjs's Groth16 prover on the credential registration circuit (decision 085), its
 * artifacts fetched once and kept in memory, as the web app keeps them.
 */
export const { setup, prove } = inPageGroth16('/v3/registration-credential.wasm', '/v3/registration-credential.zkey');
export { knownAnswer } from './registration-prover-v3.ts';
