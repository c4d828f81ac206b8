import { numberToBytesBE } from '@noble/curves/utils.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { poseidon4 } from 'poseidon-lite/poseidon4';
import type { AffinePoint } from '../v3/baby-jubjub-group.ts';
import { CREDENTIAL_ID_TAG_LABEL } from './credential-format.ts';

/**
 * The ID tag of an identity registered with a credential: Poseidon([CREDENTIAL_ID_TAG_LABEL, A.x, A.y,
 * y_id]), y_id the ID's ordinary v3 OPRF output, A the issuer's key. A plain ID's tag is
 * Poseidon([ID_TAG_LABEL, y_id]): another label and another arity, so typing a credential's ID as a
 * plain ID never blocks its holder (nor the reverse), and each issuer's IDs have their own space (one
 * issuer cannot take another's people). Like the plain tag, it cannot be tested offline without the
 * OPRF key. 64 lowercase hex characters, as every ID tag.
 */
export function credentialIdTag(issuer: AffinePoint, outputId: bigint): string {
  return bytesToHex(numberToBytesBE(poseidon4([CREDENTIAL_ID_TAG_LABEL, issuer.x, issuer.y, outputId]), 32));
}
