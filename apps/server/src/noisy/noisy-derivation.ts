import { deriveIdTag, normaliseInput } from '@zeroid/protocol';
import { credentialIdTag } from '@zeroid/protocol/credential';
import {
  lockerInputs,
  lockerKeyPair,
  lockerOutputsWithKey,
  lockerPad,
  lockerTag,
  nobleLockerArithmetic,
  IRIS_PARAMS,
  type LockerArithmetic,
} from '@zeroid/protocol/noisy';
import type { NoisyIrisCode } from './read-noisy-bio.ts';
import { idTagV3, type AffinePoint } from '@zeroid/protocol/v3';
import { singleKeyOutputs } from '../identity/raw/single-key-outputs.ts';
import { threadV3Arithmetic } from '../oprf/baby-jubjub-wasm/wasm-baby-jubjub.ts';
import { libsodiumReady, ristretto255 } from '../oprf/libsodium.ts';

/** What a noisy registration or verification asks the key's holder: the template, and (registration) the ID. */
export interface NoisyTask {
  /** An iris code only: the server refuses feature vectors (decision 084), so it never projects one. */
  template: NoisyIrisCode;
  idInfo?: string;
  issuer?: AffinePoint;
}

/** One locker as the server can compute it: its stored key (number ‖ tag) and its pad; undefined where masked. */
export type LockerSlot = { key: Uint8Array; pad: Uint8Array } | undefined;

/** The lockers of one reading, and (registration) the ID's tags under v3 and v2. */
export interface NoisyDerivation {
  slots: LockerSlot[];
  idTags?: { v3: string; v2: string };
}

/** The lockers' group operations on libsodium (native where the addon loaded): some 0.15 ms a locker here. */
const sodiumLockerArithmetic: LockerArithmetic = {
  ...nobleLockerArithmetic,
  fromHash: (uniform) => ristretto255.fromHash(uniform),
  multiply: (element, scalar) => ristretto255.scalarmult(scalar, element),
};

/** The stored key of locker `index` with this tag: the number in 2 bytes, then the tag. */
export function lockerKey(index: number, tag: Uint8Array): Uint8Array {
  const key = new Uint8Array(2 + tag.length);
  key[0] = index >> 8;
  key[1] = index & 0xff;
  key.set(tag, 2);
  return key;
}

/**
 * The raw path's noisy derivation, with the server's key, on a derivation thread: every locker's
 * OPRF output under the lockers' key (derived from the server's OPRF key by RFC 9497 DeriveKeyPair
 * under its own label, so no second key file and no relation an attacker can use between the two),
 * reduced at once to the locker's key and pad. The outputs and the template are dropped here; what
 * leaves is what the table stores or looks up, hashes of OPRF outputs. A registration also gets its
 * ID's tags, as the exact raw path derives them (a credential's tag when it came from one).
 */
export function noisyDeriver(privateKey: Uint8Array): (task: NoisyTask) => Promise<NoisyDerivation> {
  const lockerSecret = lockerKeyPair(privateKey).secretKey;
  const { v2, v3 } = singleKeyOutputs(privateKey);
  return async ({ template, idInfo, issuer }) => {
    await libsodiumReady;
    const outputs = lockerOutputsWithKey(
      lockerInputs({ bits: template.bits, valid: template.valid, params: IRIS_PARAMS }),
      lockerSecret,
      sodiumLockerArithmetic,
    );
    const slots = outputs.map((output, index) => output && { key: lockerKey(index, lockerTag(output)), pad: lockerPad(output) });
    if (idInfo === undefined) return { slots };
    const id = normaliseInput(idInfo);
    const [v3Id, v2Id] = await Promise.all([v3.evaluate('id', id), v2.evaluate('id', id)]);
    const v3Number = BigInt(`0x${Buffer.from(v3Id).toString('hex')}`);
    const credentialTag = issuer && credentialIdTag(issuer, v3Number);
    return {
      slots,
      idTags: { v3: credentialTag ?? idTagV3(v3Number, threadV3Arithmetic).idTag, v2: credentialTag ?? deriveIdTag(v2Id) },
    };
  };
}
