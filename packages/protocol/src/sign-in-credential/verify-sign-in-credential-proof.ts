import { signInCredentialPublicSignals, type SignInBinding } from './sign-in-credential-signals.ts';

/**
 * Whether `proof` is a valid proof of `circuits/sign-in-credential.circom` under `verificationKey`
 * (`sign-in-credential.vkey.json`, pinned in SIGN_IN_CREDENTIAL_SETUP) for the sign-in's own scope and
 * message: then some credential leaf of `proof.issuer`, made with the secret whose nullifier for that
 * scope is `proof.nullifier`, is in the credential tree of root `proof.merkleTreeRoot`. The caller
 * still checks that the root is one of its tree's, that the issuer is trusted and that the nullifier
 * is the sign-in proof's. False, never a throw, for anything malformed: a value out of its field, a
 * point not on the curve, an invalid issuer key. It does not check that B is in G2's subgroup (snarkjs
 * does not); the server's batched verifier does.
 */
export async function verifySignInCredentialProof(verificationKey: object, proof: unknown, binding: SignInBinding): Promise<boolean> {
  const publicSignals = signInCredentialPublicSignals(proof, binding);
  if (!publicSignals) return false;
  // Loaded when a proof is checked, not with the package (see proveSignInCredential); a failure to
  // load is this machine's fault, not the proof's, so it throws.
  const [{ groth16 }, { unpackGroth16Proof }] = await Promise.all([import('snarkjs'), import('@semaphore-protocol/proof')]);
  try {
    const points = (proof as { points: string[] }).points;
    const unpacked = unpackGroth16Proof(points as Parameters<typeof unpackGroth16Proof>[0]);
    return await groth16.verify(verificationKey, publicSignals, unpacked);
  } catch {
    return false;
  }
}
