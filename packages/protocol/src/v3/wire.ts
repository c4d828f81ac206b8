import { Type, type Static } from '@sinclair/typebox';
import { sha256 } from '@noble/hashes/sha2.js';
import { closed, decimal, ed25519Signature } from '../schema-parts.ts';
import { DID_KEY_PATTERN } from '../did-key.ts';
import { MAX_SIGN_IN_SECTORS, SemaphoreProofSchema, ZkEraseBody } from '../schemas.ts';
import { V3Evaluation, V3Point } from './key-info.ts';
import { CredentialClaim } from './credential-claim.ts';

/**
 * Protocol v3 on the wire (decision 056, phase B of decision 040). Points are 32 bytes (43 base64url
 * characters), evaluations Z ‖ e ‖ s (96 bytes, 128 characters), numbers canonical decimals.
 */

/**
 * One OPRF input's transcript in a v3 registration: the blinded point B the client sent and, in
 * threshold mode, the t (or more) node answers it combined, each Zᵢ ‖ eᵢ ‖ sᵢ with its DLEQ proof.
 * With a single key the server computes Z = k·B itself, so `answers` is absent.
 */
export const V3Round = Type.Object(
  {
    blinded: V3Point('B = H₁(x) + r·G, as sent to POST /oprf or to the nodes'),
    answers: Type.Optional(
      Type.Array(
        Type.Object(
          { index: Type.Integer({ minimum: 1, maximum: 255 }), evaluation: V3Evaluation('Zᵢ ‖ eᵢ ‖ sᵢ from node `index`') },
          closed,
        ),
        { minItems: 2, maxItems: 255, description: 'threshold mode only: the node answers combined' },
      ),
    ),
  },
  closed,
);
export type V3Round = Static<typeof V3Round>;

/** A Groth16 proof as snarkjs gives it, flattened: A (x, y), B (x₁, x₀, y₁, y₀ as Semaphore packs it), C (x, y). */
export const Groth16Points = Type.Array(decimal('coordinate'), { minItems: 8, maxItems: 8 });

/**
 * POST /register, protocol v3 (the zero-knowledge body since decision 056): the derived values, the
 * two OPRF transcripts, a Groth16 proof of `circuits/registration-v3.circom` whose public signals the
 * server rebuilds from what it checked itself, and an Ed25519 signature with the DID's key
 * (`v3RegistrationMessage`), which proves the DID is the registrant's.
 */
/**
 * A protocol v2 identity, proven held by the biometric and the ID as a v2 erasure proves it (decision
 * 022): its commitment and DID, oprf(id) (whose HKDF is its ID tag), and both v2 keys' signatures
 * over the erasure message, with the challenge of the body it travels in. Sent with a v3 registration
 * to move that identity (decision 073), or with a v3 erasure to erase it too.
 */
export const V2Holding = Type.Object(
  {
    commitment: ZkEraseBody.properties.commitment,
    did: ZkEraseBody.properties.did,
    idProof: ZkEraseBody.properties.idProof,
    signatures: ZkEraseBody.properties.signatures,
  },
  closed,
);
export type V2Holding = Static<typeof V2Holding>;

export const ZkRegisterV3Body = Type.Object(
  {
    commitment: decimal('Semaphore identity commitment, proven in the circuit'),
    idTag: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description:
        'Poseidon(ID_TAG_LABEL, y_id) as 64 hex digits, proven in the circuit; with `credential`, Poseidon(CREDENTIAL_ID_TAG_LABEL, A.x, A.y, y_id)',
    }),
    did: Type.String({ pattern: DID_KEY_PATTERN }),
    challenge: decimal('an unused challenge from POST /challenge, a public input of the proof'),
    bio: V3Round,
    id: V3Round,
    proof: Groth16Points,
    didSignature: ed25519Signature('base64url Ed25519 signature over v3RegistrationMessage'),
    credential: Type.Optional(CredentialClaim),
    moveFromV2: Type.Optional({
      ...V2Holding,
      description:
        "The registrant's v2 identity, replaced by this registration in one transaction; refused with MOVE_WOULD_EVICT when another registration holds one of the v3 values",
    }),
  },
  { ...closed, description: 'Zero-knowledge registration, protocol v3: every stored value proven from OPRF evaluations.' },
);
export type ZkRegisterV3Body = Static<typeof ZkRegisterV3Body>;

/**
 * POST /erase for a v3 identity: the ID's OPRF output y_id (whose Poseidon is the ID tag), a depth-1
 * Semaphore proof in the group of the commitment alone with message and scope the challenge (proof
 * of the secret: v3 has no EdDSA key), the DID's signature over `v3ErasureMessage`, and, as in v2, a
 * proof per sign-in sector.
 */
export const ZkEraseV3Body = Type.Object(
  {
    commitment: decimal('Semaphore identity commitment'),
    did: Type.String({ pattern: DID_KEY_PATTERN }),
    idOutput: decimal('y_id, the ID’s v3 OPRF output: Poseidon(ID_TAG_LABEL, y_id) is the ID tag'),
    challenge: decimal('an unused challenge from POST /challenge'),
    ownProof: SemaphoreProofSchema,
    didSignature: ed25519Signature('base64url Ed25519 signature over v3ErasureMessage'),
    signInProofs: Type.Array(SemaphoreProofSchema, { maxItems: MAX_SIGN_IN_SECTORS }),
    v2: Type.Optional(
      Type.Object(
        { ...V2Holding.properties, signInProofs: ZkEraseBody.properties.signInProofs },
        {
          ...closed,
          description: "The person's v2 identity too, erased in the same transaction: Success only if both are.",
        },
      ),
    ),
  },
  { ...closed, description: 'Zero-knowledge erasure of a protocol v3 identity.' },
);
export type ZkEraseV3Body = Static<typeof ZkEraseV3Body>;

const encoder = new TextEncoder();
const joined = (parts: string[]) => sha256(encoder.encode(parts.join('\u0000')));

/** What the DID key signs in a v3 registration: SHA-256 of the label and every stored value, NUL-joined. */
export function v3RegistrationMessage(fields: { challenge: string; commitment: string; idTag: string; did: string }): Uint8Array {
  return joined(['zeroid/register/v3', fields.challenge, fields.commitment, fields.idTag, fields.did]);
}

/** What the DID key signs in a v3 erasure. */
export function v3ErasureMessage(fields: { challenge: string; commitment: string; idOutput: string; did: string }): Uint8Array {
  return joined(['zeroid/erase/v3', fields.challenge, fields.commitment, fields.idOutput, fields.did]);
}
