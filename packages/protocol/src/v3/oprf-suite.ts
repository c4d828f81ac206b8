import type { OprfDomain } from '../oprf-suite.ts';

/**
 * Protocol v3's OPRF suite: 2HashDH (Jarecki, Kiayias and Krawczyk) over Baby Jubjub, verifiable
 * with a Chaum–Pedersen proof, with Poseidon2 for the hashes that a circuit recomputes. RFC 9497
 * defines no suite for this group; the identifier names ours, as RFC 9497 §3.1's contextString does
 * for its own, and decision 040 gives the whole definition.
 */
export const SUITE_ID = 'ZeroID-OPRFv3-BabyJubJub-Poseidon2';

/**
 * The hash_to_field DST of a text, the same for both domains: the domain is bound after it, by a tag the
 * registration circuit holds as a constant for each slot (`QUERY_TAG`, decision 062).
 */
export const QUERY_DST = `${SUITE_ID}-Query`;

/**
 * A short ASCII label as one BN254 field element (its bytes read big-endian), the way a Poseidon
 * domain separator is given to the circuit. At most 31 bytes, so always below the modulus.
 */
export function asciiField(label: string): bigint {
  if (label.length > 31 || !/^[\x20-\x7e]*$/.test(label)) throw new RangeError('A field label is at most 31 printable ASCII characters');
  return [...label].reduce((acc, char) => (acc << 8n) | BigInt(char.charCodeAt(0)), 0n);
}

/**
 * The domain tag of each input's query: x = Poseidon([QUERY_TAG[domain], t]), t the text's field element.
 * The circuit computes x from t with the tag of its slot, so an ID query cannot stand in the biometric
 * slot nor one query in both (decision 062): an ID never evaluates like a biometric.
 */
export const QUERY_TAG: Record<OprfDomain, bigint> = {
  bio: asciiField('zeroid/query/bio/v3'),
  id: asciiField('zeroid/query/id/v3'),
};
/** Domain separator of Finalize: y = Poseidon2([FINALIZE_DS, query, N.y]). */
export const FINALIZE_DS = asciiField('ZeroID OPRFv3 Finalize');
/** Label of the Semaphore secret: seed = Poseidon([SEMAPHORE_LABEL, y_bio]). */
export const SEMAPHORE_LABEL = asciiField('zeroid/semaphore/v3');
/** Label of the ID tag: idTag = Poseidon([ID_TAG_LABEL, y_id]). */
export const ID_TAG_LABEL = asciiField('zeroid/id-tag/v3');
/** HKDF label of the DID's Ed25519 seed, from the 32 big-endian bytes of y_bio (outside the circuit). */
export const DID_KEY_LABEL = 'zeroid/did-key/v3';
/** Bits of the Semaphore secret scalar: below 2²⁵⁰ < ℓ, as Semaphore's circuit requires of it. */
export const SECRET_BITS = 250;
