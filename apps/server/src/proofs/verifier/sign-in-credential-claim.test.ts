import { readFileSync } from 'node:fs';
import { Group } from '@semaphore-protocol/group';
import { poseidon4 } from 'poseidon-lite/poseidon4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proveSignInCredential, signInCredentialInput, signInMessage, signInScope, type WireCredentialSignInProof } from '@zeroid/protocol';
import { issuerPublicKey, parseIssuerKey } from '@zeroid/protocol/credential';
import { asciiField } from '@zeroid/protocol/v3';
import { releaseSnarkjs } from '../../../test/real-proofs.ts';
import { Artifacts } from '../artifacts.ts';
import { createProofVerifier, type ProofVerifier } from './proof-verifier.ts';
import { signInCredentialClaim } from './sign-in-credential-claim.ts';
import { SIGN_IN_CREDENTIAL_KEY, verificationKeys } from './verification-keys.ts';

/**
 * The server's way to check a credential sign-in proof (decision 087): the pinned verification key the
 * verifier threads hold under SIGN_IN_CREDENTIAL_KEY, and the claim built from the sign-in's own binding.
 */
const university = issuerPublicKey(new Uint8Array(32).fill(1));
const employer = issuerPublicKey(new Uint8Array(32).fill(2));
const secret = 123456789n;
const binding = { scope: signInScope('a-site'), message: signInMessage('7', 'an-interaction') };

let verifier: ProofVerifier;
let proof: WireCredentialSignInProof;
beforeAll(async () => {
  const artifacts = await Artifacts.load();
  const keys = await verificationKeys(artifacts);
  verifier = createProofVerifier({ keys, threads: 1 });
  const { x, y } = parseIssuerKey(university)!;
  const leaf = poseidon4([asciiField('zeroid/credential-leaf/v1'), x, y, secret]);
  const tree = new Group([11n, leaf, 13n]);
  const path = tree.generateMerkleProof(1);
  const input = signInCredentialInput({ secret, issuerPublicKey: university, proofIndex: path.index, siblings: path.siblings, ...binding });
  proof = await proveSignInCredential(input, {
    wasm: readFileSync(artifacts.get('sign-in-credential.wasm')!.path),
    zkey: await artifacts.get('sign-in-credential.zkey')!.read(),
  });
  await releaseSnarkjs();
}, 180_000);
afterAll(async () => {
  await verifier?.close();
  await releaseSnarkjs();
});

describe('a credential sign-in proof on the batched verifier', () => {
  it('is accepted under the pinned key for its own binding, and refused for another scope, message, issuer or nullifier', async () => {
    const claim = signInCredentialClaim(proof, binding)!;
    expect(claim.key).toBe(SIGN_IN_CREDENTIAL_KEY);
    expect(await verifier.verifyClaim(claim)).toBe(true);
    const others = [
      signInCredentialClaim(proof, { ...binding, scope: signInScope('another-site') }),
      signInCredentialClaim(proof, { ...binding, message: signInMessage('8', 'an-interaction') }),
      signInCredentialClaim({ ...proof, issuer: employer }, binding),
      signInCredentialClaim({ ...proof, nullifier: (BigInt(proof.nullifier) ^ 1n).toString() }, binding),
    ];
    for (const other of others) expect(await verifier.verifyClaim(other!)).toBe(false);
  });

  it('is no claim at all when malformed: no curve arithmetic for it', () => {
    expect(signInCredentialClaim({ ...proof, points: proof.points.slice(1) }, binding)).toBeUndefined();
    expect(signInCredentialClaim({ ...proof, issuer: 'A'.repeat(43) }, binding)).toBeUndefined();
    expect(signInCredentialClaim({ ...proof, merkleTreeRoot: '-1' }, binding)).toBeUndefined();
    expect(signInCredentialClaim(undefined, binding)).toBeUndefined();
  });
});
