import { CryptoNoble } from '@cloudflare/voprf-ts/crypto-noble';
import { Oprf, generatePublicKey, randomPrivateKey } from '@cloudflare/voprf-ts';

/** RFC 9497 suite: ristretto255 with SHA-512, in VOPRF mode (the client checks a DLEQ proof). */
export const OPRF_SUITE = Oprf.Suite.RISTRETTO255_SHA512;

/** Noble's provider: the only one with ristretto255, and pure JS, so browser and Node agree. */
export const OPRF_CRYPTO = CryptoNoble;

/** What an OPRF input stands for; each kind gets its own domain, so an ID never collides with a biometric. */
export type OprfDomain = 'bio' | 'id';

const DOMAIN_LABELS: Record<OprfDomain, string> = { bio: 'zeroid:bio:v1', id: 'zeroid:id:v1' };
const encoder = new TextEncoder();

/**
 * The bytes fed to the OPRF: the domain label, a zero byte, then the normalised text. The zero byte
 * cannot occur in a label, so no (domain, text) pair encodes like another.
 */
export function oprfInput(domain: OprfDomain, normalised: string): Uint8Array {
  const label = encoder.encode(DOMAIN_LABELS[domain]);
  const text = encoder.encode(normalised);
  const input = new Uint8Array(label.length + 1 + text.length);
  input.set(label, 0);
  input.set(text, label.length + 1);
  return input;
}

/** A fresh server key pair. The private key decides every commitment, DID and tag: back it up. */
export async function generateOprfKeyPair(): Promise<{ privateKey: Uint8Array; publicKey: Uint8Array }> {
  const privateKey = await randomPrivateKey(OPRF_SUITE, OPRF_CRYPTO);
  return { privateKey, publicKey: oprfPublicKey(privateKey) };
}

/** The public key clients check DLEQ proofs against. Throws on a malformed private key. */
export function oprfPublicKey(privateKey: Uint8Array): Uint8Array {
  if (privateKey.length !== 32) throw new Error('An OPRF private key is 32 bytes');
  return generatePublicKey(OPRF_SUITE, privateKey, OPRF_CRYPTO);
}
