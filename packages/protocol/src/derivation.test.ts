import { describe, expect, it } from 'vitest';
import { ed25519 } from '@noble/curves/ed25519.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { deriveKeyPair, Oprf } from '@cloudflare/voprf-ts';
import { OPRF_CRYPTO, OPRF_SUITE, generateOprfKeyPair } from './oprf-suite.ts';
import { OprfEvaluator } from './oprf-evaluator.ts';
import { blindOprfInput } from './blind-oprf-input.ts';
import { normaliseInput } from './normalise-input.ts';
import { deriveIdentity } from './derive-identity.ts';
import { deriveIdTag } from './derive-id-tag.ts';
import { deriveDidKey, didDocument, didKeyPublicKey } from './did-key.ts';
import known from './vectors/derivation.json' with { type: 'json' };

async function derive(evaluator: OprfEvaluator, id: string, bio: string) {
  const oprfBio = await evaluator.evaluate('bio', normaliseInput(bio));
  const oprfId = await evaluator.evaluate('id', normaliseInput(id));
  return { commitment: deriveIdentity(oprfBio).commitment.toString(), did: deriveDidKey(oprfBio).did, idTag: deriveIdTag(oprfId) };
}

describe('known-answer vectors: fixed input → commitment, DID, ID tag', () => {
  it('derives the checked-in OPRF key from its seed', async () => {
    const { privateKey } = await deriveKeyPair(
      Oprf.Mode.VOPRF,
      OPRF_SUITE,
      hexToBytes(known.oprfKey.seed),
      new TextEncoder().encode(known.oprfKey.info),
      OPRF_CRYPTO,
    );
    expect(Buffer.from(privateKey).toString('hex')).toBe(known.oprfKey.privateKey);
  });

  it.each(known.vectors)('$id', async (vector) => {
    const evaluator = new OprfEvaluator(hexToBytes(known.oprfKey.privateKey));
    expect(await derive(evaluator, vector.id, vector.bio)).toEqual({ commitment: vector.commitment, did: vector.did, idTag: vector.idTag });
  });

  it('gives the browser path (blind, evaluate, finalize) the same values as the server path', async () => {
    const evaluator = new OprfEvaluator(hexToBytes(known.oprfKey.privateKey));
    const vector = known.vectors[0]!;
    const { request, finalize } = await blindOprfInput(evaluator.publicKey, 'bio', normaliseInput(vector.bio));
    const oprfBio = await finalize(await evaluator.blindEvaluate(request));
    expect(deriveIdentity(oprfBio).commitment.toString()).toBe(vector.commitment);
    expect(deriveDidKey(oprfBio).did).toBe(vector.did);
  });
});

describe('unlinkability across server keys (P3)', () => {
  it('gives unrelated commitment, DID and ID tag for the same person under another key', async () => {
    const a = await derive(new OprfEvaluator((await generateOprfKeyPair()).privateKey), 'AB-1', 'same biometric');
    const b = await derive(new OprfEvaluator((await generateOprfKeyPair()).privateKey), 'AB-1', 'same biometric');
    expect(a.commitment).not.toBe(b.commitment);
    expect(a.did).not.toBe(b.did);
    expect(a.idTag).not.toBe(b.idTag);
    // Unrelated, not merely different: no long common prefix.
    expect(a.idTag.slice(0, 8)).not.toBe(b.idTag.slice(0, 8));
  });
});

describe('did:key', () => {
  const oprfBio = new Uint8Array(64).fill(7);

  it('round-trips the key, and the holder can sign for it', () => {
    const { did, publicKey, secretKey } = deriveDidKey(oprfBio);
    expect(did).toMatch(/^did:key:z6Mk/);
    expect(didKeyPublicKey(did)).toEqual(publicKey);
    const message = new TextEncoder().encode('challenge');
    expect(ed25519.verify(ed25519.sign(message, secretKey), message, didKeyPublicKey(did))).toBe(true);
  });

  it('rejects what is not an Ed25519 did:key', () => {
    for (const bad of [
      'did:web:example.com',
      'did:key:z6MkBAD0',
      'did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme',
      'did:key:',
    ]) {
      expect(() => didKeyPublicKey(bad)).toThrow(expect.objectContaining({ code: 'INVALID_SIGNATURE' }));
    }
  });

  it('builds a DID Core document whose key is the DID key', () => {
    const { did } = deriveDidKey(oprfBio);
    const document = didDocument(did);
    const fragment = did.slice('did:key:'.length);
    expect(document.id).toBe(did);
    expect(document.verificationMethod).toEqual([
      { id: `${did}#${fragment}`, type: 'Ed25519VerificationKey2020', controller: did, publicKeyMultibase: fragment },
    ]);
    expect(document.authentication).toEqual([`${did}#${fragment}`]);
  });
});
