import { generateProof } from '@semaphore-protocol/proof';
import { signErasure, type EraseReply, type Static, type SignInScopesReply } from '@zeroid/protocol';
import type { Progress } from '../../shared/progress.ts';
import { requestJson } from '../../shared/http.ts';
import { apiUrls } from '../../shared/paths.ts';
import { provingArtifacts } from './artifact-cache.ts';
import { deriveSigningKeys } from './derive-signing-keys.ts';

/** The group of one identity alone: its root is the commitment itself (decision 048). */
const OWN_GROUP_DEPTH = 1;

/**
 * Zero-knowledge erasure (decisions 022 and 048), entirely on this device, as registration derives:
 * the Semaphore identity and did:key sign a fresh challenge with the commitment, DID and ID tag. The
 * ID's OPRF output goes along: its HKDF is the ID tag, so the server erases only when the ID matches
 * too. So that the server can delete this person's Sign in with ZeroID records and tokens, a
 * Semaphore proof per registered sector goes too, in the group of this identity alone and bound to
 * the challenge: its nullifier is the person's pseudonym there. The secret never leaves the device;
 * nothing raw is sent.
 */
export async function eraseFlow(input: { idInfo: string; bioInfo: string }, progress: (p: Progress) => void): Promise<EraseReply> {
  const scopesRequest = requestJson<Static<typeof SignInScopesReply>>(apiUrls.signInScopes());
  scopesRequest.catch(() => undefined); // awaited below; never an unhandled rejection
  const { oprfId, identity, didKey, challenge } = await deriveSigningKeys(input, progress);
  const { fields, signatures } = signErasure(identity, didKey.secretKey, oprfId, {
    commitment: identity.commitment.toString(),
    did: didKey.did,
    challenge,
  });
  const { scopes } = await scopesRequest;
  const signInProofs = [];
  if (scopes.length > 0) {
    const artifacts = await provingArtifacts(OWN_GROUP_DEPTH, (loaded, total) => progress({ stage: 'downloading', loaded, total }));
    progress({ stage: 'proving' });
    for (const scope of scopes) {
      // A fresh group each time: generateProof pads `siblings` in place, which would change the root it proves.
      const ownGroup = { root: identity.commitment, leaf: identity.commitment, index: 0, siblings: [] };
      // snarkjs takes bytes as well as URLs; its types only say string.
      signInProofs.push(
        await generateProof(identity, ownGroup, challenge, scope, OWN_GROUP_DEPTH, {
          wasm: artifacts.wasm as unknown as string,
          zkey: artifacts.zkey as unknown as string,
        }),
      );
    }
  }
  progress({ stage: 'sending' });
  return requestJson<EraseReply>(apiUrls.erase(), { method: 'POST', body: { ...fields, signatures, signInProofs } });
}
