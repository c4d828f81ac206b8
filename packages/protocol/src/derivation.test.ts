import { describe, expect, it } from 'vitest';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { deriveKeyPair, Oprf } from '@cloudflare/voprf-ts';
import { OPRF_CRYPTO, OPRF_SUITE, generateOprfKeyPair, oprfPublicKey } from './oprf-suite.ts';
import { OprfEvaluator } from './oprf-evaluator.ts';
import { blindOprfInput } from './blind-oprf-input.ts';
import { NORMALISATION_VERSION, normaliseInput } from './normalise-input.ts';
import { deriveIdentity } from './derive-identity.ts';
import { deriveIdTag } from './derive-id-tag.ts';
import { deriveAll } from './derive-all.ts';
import { deriveDidKey, didDocument, didKeyFromPublicKey, didKeyPublicKey } from './did-key.ts';
import known from './vectors/derivation.json' with { type: 'json' };

async function derive(evaluator: OprfEvaluator, id: string, bio: string) {
  const oprfBio = await evaluator.evaluate('bio', normaliseInput(bio));
  const oprfId = await evaluator.evaluate('id', normaliseInput(id));
  const { commitment, did, idTag } = deriveAll(oprfBio, oprfId);
  return { oprfId: bytesToHex(oprfId), oprfBio: bytesToHex(oprfBio), commitment, did, idTag };
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
    expect(bytesToHex(privateKey)).toBe(known.oprfKey.privateKey);
    expect(bytesToHex(oprfPublicKey(privateKey))).toBe(known.oprfKey.publicKey);
  });

  it('were made with the current normalisation: a new version needs new vectors', () => {
    expect(known.normalisation).toBe(NORMALISATION_VERSION);
  });

  it.each(known.vectors)('$id', async (vector) => {
    const evaluator = new OprfEvaluator(hexToBytes(known.oprfKey.privateKey));
    const { oprfId, oprfBio, commitment, did, idTag } = vector;
    expect(await derive(evaluator, vector.id, vector.bio)).toEqual({ oprfId, oprfBio, commitment, did, idTag });
  });

  it('deriveAll agrees with each derivation on its own, and gives the key that signs for the DID', () => {
    const [vector] = known.vectors;
    const oprfBio = hexToBytes(vector!.oprfBio);
    const all = deriveAll(oprfBio, hexToBytes(vector!.oprfId));
    expect(all.commitment).toBe(deriveIdentity(oprfBio).commitment.toString());
    expect(all.identity.commitment).toBe(BigInt(vector!.commitment));
    expect(all.didKey).toEqual(deriveDidKey(oprfBio));
    expect(all.did).toBe(all.didKey.did);
    expect(all.idTag).toBe(deriveIdTag(hexToBytes(vector!.oprfId)));
  });

  it('uses HKDF-SHA256 with an empty salt: the ID tag matches Web Crypto’s HKDF', async () => {
    const [vector] = known.vectors;
    const key = await crypto.subtle.importKey('raw', hexToBytes(vector!.oprfId), 'HKDF', false, ['deriveBits']);
    const bits = await crypto.subtle.deriveBits(
      { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new TextEncoder().encode('zeroid/id-tag/v1') },
      key,
      256,
    );
    expect(bytesToHex(new Uint8Array(bits))).toBe(vector!.idTag);
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

  it('encodes like other did:key implementations (a pair from ACA-Py’s tests)', () => {
    const did = 'did:key:z6MkmjY8GnV5i9YTDtPETC2uUAW6ejw3nk5mXF5yci5ab7th';
    const publicKey = base58.decode('8HH5gYEeNc3z7PYXmd54d4x6qAfCNrqQqEB3nS7Zfu7K');
    expect(didKeyFromPublicKey(publicKey)).toBe(did);
    expect(bytesToHex(didKeyPublicKey(did))).toBe(bytesToHex(publicKey));
  });

  it('rejects what is not an Ed25519 did:key', () => {
    for (const bad of [
      'did:web:example.com',
      'did:key:z6MkBAD0',
      'did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme',
      // ed25519-pub prefix and 32 bytes, but y = 2 is on no Ed25519 point
      'did:key:z6Mkeb4rtEhc8DUtvt5ehaVjdx3TLbQPpnTArkXhqfb1Mq75',
      // a 31-byte key
      didKeyFromPublicKey(new Uint8Array(31).fill(3)),
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
