import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Point } from './baby-jubjub-group.ts';
import type { BlindedQuery } from './blind-query.ts';

const encoder = new TextEncoder();

/** What the registrar knows of a registration proof: every public input, named. */
export interface RegistrationStatement {
  bioBlinded: Point;
  bioEvaluated: Point;
  idBlinded: Point;
  idEvaluated: Point;
  groupKey: Point;
  /** The one-time registration challenge, a field element. */
  challenge: bigint;
  /** `didHash(did)` of the DID being registered. */
  didHash: bigint;
}

/**
 * The DID as the circuit's public input: SHA-256("zeroid/did/v3" ‖ 0 ‖ did) shifted right by 8 bits
 * into the field, as Semaphore fits its message. Changing the DID changes the statement, so a proof
 * cannot be moved to a DID its maker does not hold (the Ed25519 signature proves holding it).
 */
export function didHash(did: string): bigint {
  const label = encoder.encode('zeroid/did/v3');
  const text = encoder.encode(did);
  const bytes = new Uint8Array(label.length + 1 + text.length);
  bytes.set(label);
  bytes.set(text, label.length + 1);
  return BigInt(`0x${bytesToHex(sha256(bytes))}`) >> 8n;
}

/** One finished round as the statement needs it: the blinded query and its evaluation Z. */
interface EvaluatedRound {
  query: BlindedQuery;
  evaluated: Point;
}

/**
 * The statement of a registration from its two rounds, the key they were evaluated under, the
 * challenge and the DID: what the client proves and what the registrar rebuilds to check it.
 */
export function registrationStatement(
  rounds: { bio: EvaluatedRound; id: EvaluatedRound },
  groupKey: Point,
  challenge: string,
  did: string,
): RegistrationStatement {
  return {
    bioBlinded: rounds.bio.query.blinded,
    bioEvaluated: rounds.bio.evaluated,
    idBlinded: rounds.id.query.blinded,
    idEvaluated: rounds.id.evaluated,
    groupKey,
    challenge: BigInt(challenge),
    didHash: didHash(did),
  };
}

const affine = (point: Point) => {
  const { x, y } = point.toAffine();
  return [x.toString(), y.toString()];
};

/**
 * The registration circuit's public signals in snarkjs's order: the outputs commitment and idTag,
 * then B_bio, Z_bio, B_id, Z_id, K (x then y), challenge and didHash. The registrar builds this from
 * what it checked itself and hands it to the Groth16 verifier; the client's copy is never trusted.
 */
export function registrationPublicSignals(commitment: string, idTagField: bigint, statement: RegistrationStatement): string[] {
  return [
    commitment,
    idTagField.toString(),
    ...affine(statement.bioBlinded),
    ...affine(statement.bioEvaluated),
    ...affine(statement.idBlinded),
    ...affine(statement.idEvaluated),
    ...affine(statement.groupKey),
    statement.challenge.toString(),
    statement.didHash.toString(),
  ];
}

/**
 * The prover's input (witness seeds) for `circuits/registration-v3.circom`, in decimal strings. The
 * private inputs are the hashed texts t, not the queries: the circuit derives each query under its
 * slot's domain tag (decision 062).
 */
export function registrationProofInput(
  bio: BlindedQuery,
  id: BlindedQuery,
  statement: RegistrationStatement,
): Record<string, string | string[]> {
  return {
    bioText: bio.hashedText.toString(),
    bioBlind: bio.blind.toString(),
    idText: id.hashedText.toString(),
    idBlind: id.blind.toString(),
    bioBlinded: affine(statement.bioBlinded),
    bioEvaluated: affine(statement.bioEvaluated),
    idBlinded: affine(statement.idBlinded),
    idEvaluated: affine(statement.idEvaluated),
    groupKey: affine(statement.groupKey),
    challenge: statement.challenge.toString(),
    didHash: statement.didHash.toString(),
  };
}
