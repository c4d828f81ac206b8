import { packGroth16Proof } from '@semaphore-protocol/proof';
import { groth16 } from 'snarkjs';
import {
  credentialIdTag,
  credentialLeaf,
  credentialProofInput,
  credentialPublicSignals,
  dayOf,
  issuerTree,
  parseIssuerKey,
  readCredential,
  usableCredential,
} from '@zeroid/protocol/credential';
import { encodePoint, registrationStatement, signWithDid, v3RegistrationMessage, type ZkRegisterV3Body } from '@zeroid/protocol/v3';
import type { Artifacts } from '../src/proofs/artifacts.ts';
import type { ZkTestClient } from './zk-client.ts';

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * A proven v3 registration whose ID is a credential, as the web app makes it (decision 085): the
 * credential checked on the device against `trustedKeys` (GET /issuers, in order) at `now`, the OPRF
 * rounds of the biometric and of the credential's ID, the credential circuit's proof for the tree of
 * `trustedKeys` and the day `today` (the day of `now` unless given), the DID's signature, and the
 * credential leaf the proof outputs (decision 086), checked against `credentialLeaf`. The body
 * carries neither the credential nor its ID. `unchecked` skips the device's checks, as a client that
 * wants to see the server refuse would.
 */
export async function proveCredentialRegistration(
  client: ZkTestClient,
  artifacts: Artifacts,
  line: string,
  bioInfo: string,
  options: { trustedKeys: readonly string[]; now?: Date; today?: number; challenge?: string; unchecked?: boolean },
): Promise<{ body: ZkRegisterV3Body & { credential: NonNullable<ZkRegisterV3Body['credential']> }; did: string; secret: bigint }> {
  const now = options.now ?? new Date();
  const { credential, issuerIndex } = options.unchecked
    ? { credential: readCredential(line), issuerIndex: options.trustedKeys.indexOf(readCredential(line).issuerKey) }
    : usableCredential(line, options.trustedKeys, now);
  const tree = issuerTree(options.trustedKeys.map((key) => parseIssuerKey(key)!));
  const { bio, id, registration, groupKey } = await client.deriveV3(credential.id, bioInfo);
  const challenge = options.challenge ?? (await client.challenge());
  const today = options.today ?? dayOf(now);
  const statement = { ...registrationStatement({ bio, id }, groupKey, challenge, registration.didKey.did), today, issuersRoot: tree.root };
  const idTag = credentialIdTag(credential.issuer, id.output);
  const { proof, publicSignals } = await groth16.fullProve(
    credentialProofInput(bio.query, id.query, credential, tree.pathOf(issuerIndex), statement),
    artifacts.get('registration-credential.wasm')!.path,
    artifacts.get('registration-credential.zkey')!.path,
  );
  const leaf = credentialLeaf(credential.issuerKey, registration.secretScalar);
  const expected = credentialPublicSignals(registration.commitment, BigInt(`0x${idTag}`), leaf, statement);
  if (publicSignals.join() !== expected.join()) throw new Error('The circuit’s public signals are not the statement');
  const fields = { commitment: registration.commitment, idTag, did: registration.didKey.did, challenge };
  return {
    did: registration.didKey.did,
    secret: registration.secretScalar,
    body: {
      ...fields,
      // Threshold mode: each round carries the node answers it combined.
      bio: { blinded: base64url(encodePoint(bio.query.blinded)), ...(bio.answers ? { answers: bio.answers } : {}) },
      id: { blinded: base64url(encodePoint(id.query.blinded)), ...(id.answers ? { answers: id.answers } : {}) },
      proof: packGroth16Proof(proof).map(String),
      didSignature: signWithDid(v3RegistrationMessage(fields), registration.didKey.secretKey),
      // The leaf as the web app sends it: the proof's own third public signal.
      credential: { today, issuersRoot: tree.root.toString(), leaf: publicSignals[2]! },
    },
  };
}
