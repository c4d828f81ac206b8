import { base64urlnopad } from '@scure/base';
import { encodePoint, pointFromAffine } from '../v3/baby-jubjub-group.ts';
import type { SignInCredentialInput } from './sign-in-credential-input.ts';
import type { WireCredentialSignInProof } from './sign-in-credential-schemas.ts';

/**
 * The witness generator and proving key of `circuits/sign-in-credential.circom`: their bytes (the web
 * app's prover checks them against the SHA-256 GET /artifacts publishes, as for the registration
 * circuits) or, in Node, their file paths.
 */
export interface SignInCredentialArtifacts {
  wasm: Uint8Array | string;
  zkey: Uint8Array | string;
}

/**
 * Proves, with snarkjs's Groth16 (in Node, or in the web app's prover worker), that the person holds a
 * credential of the input's issuer: their credential leaf is in the credential tree, and the proof's
 * nullifier is their Semaphore nullifier for the sign-in's scope (decision 087). The proof shows the
 * issuer, a root of the tree and the nullifier; it hides the secret, the leaf and its place. Rejects
 * when there is no witness: a leaf not in that tree, another issuer's key or another secret.
 */
export async function proveSignInCredential(
  input: SignInCredentialInput,
  artifacts: SignInCredentialArtifacts,
): Promise<WireCredentialSignInProof> {
  // Loaded when a proof is made, not with the package: the index is imported where no proof is (a page's main thread).
  const [{ groth16 }, { packGroth16Proof }] = await Promise.all([import('snarkjs'), import('@semaphore-protocol/proof')]);
  const { proof, publicSignals } = await groth16.fullProve(input, artifacts.wasm, artifacts.zkey);
  const [merkleTreeRoot, nullifier] = publicSignals as [string, string];
  const [x, y] = (input.issuer as string[]).map(BigInt) as [bigint, bigint];
  return {
    issuer: base64urlnopad.encode(encodePoint(pointFromAffine({ x, y })!)),
    merkleTreeRoot,
    merkleTreeDepth: Number(input.merkleProofLength),
    nullifier,
    points: packGroth16Proof(proof).map(String),
  };
}
