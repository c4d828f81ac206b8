import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { normaliseInput } from '@zeroid/protocol';
import {
  blindQuery,
  deriveRegistration,
  encodePoint,
  evaluateBlinded,
  Fn,
  G,
  type Point,
  queryPoint,
  SUITE_ID,
  unblindEvaluation,
} from '@zeroid/protocol/v3';

/**
 * Writes src/vectors/protocol-v3.json once: fixed (ID, biometric) pairs under a fixed key, with fixed
 * blinds and proof nonces (each a labelled SHA-512 reduced modulo ℓ), and every intermediate value.
 * `v3/known-answers.test.ts` recomputes them with this code and with independent implementations.
 * Do not regenerate to make a test pass: every v3 identity would change with them.
 *
 *   npx tsx circuits/scripts/make-vectors-v3.ts
 */
const scalar = (label: string) => Fn.create(bytesToNumberBE(sha512(new TextEncoder().encode(`zeroid v3 vectors: ${label}`))));
const point = (p: Point) => {
  const { x, y } = p.toAffine();
  return { x: x.toString(), y: y.toString(), bytes: bytesToHex(encodePoint(p)) };
};
const key = scalar('key');
const groupKey = G.multiply(key);

function round(domain: 'bio' | 'id', text: string, n: number) {
  const q = blindQuery(domain, normaliseInput(text), scalar(`${domain} blind ${n}`));
  const nonce = scalar(`${domain} nonce ${n}`);
  const { evaluated, proof } = evaluateBlinded(key, q.blinded, nonce);
  const { unblinded, output } = unblindEvaluation(q, groupKey, evaluated);
  return {
    text: q.hashedText.toString(),
    query: q.query.toString(),
    point: point(queryPoint(q.query)),
    blind: q.blind.toString(),
    blinded: point(q.blinded),
    nonce: nonce.toString(),
    evaluated: point(evaluated),
    proof: { e: proof.e.toString(), s: proof.s.toString() },
    unblinded: point(unblinded),
    output: output.toString(),
  };
}

const inputs = [
  { id: 'P1234567', bio: 'left iris: 7f3a9c…' },
  { id: 'Ünïcödé ID №42', bio: '  spaced   biometric\ttext  ' },
  { id: 'x', bio: 'y' },
];
const vectors = inputs.map(({ id, bio }, n) => {
  const bioRound = round('bio', bio, n);
  const idRound = round('id', id, n);
  const registration = deriveRegistration(BigInt(bioRound.output), BigInt(idRound.output));
  return {
    id,
    bio,
    bioRound,
    idRound,
    secretScalar: registration.secretScalar.toString(),
    commitment: registration.commitment,
    idTag: registration.idTag,
    did: registration.didKey.did,
  };
});
const out = {
  description: `Protocol v3 known answers (${SUITE_ID}), generated once by circuits/scripts/make-vectors-v3.ts. Scalars are decimal, points affine decimal with their 32-byte encoding.`,
  suite: SUITE_ID,
  key: key.toString(),
  groupKey: point(groupKey),
  vectors,
};
const target = path.join(import.meta.dirname, '..', '..', 'packages', 'protocol', 'src', 'vectors', 'protocol-v3.json');
writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${target}`);
