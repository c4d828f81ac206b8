import { SUITE_ID } from '@zeroid/protocol/v3';

const encoder = new TextEncoder();
/** The label that makes an admission signature mean nothing else (decision 032). */
const LABEL = encoder.encode('zeroid/oprf-admission/v1\0');
/**
 * The label of an admission for protocol v3's points (decision 058): another label, so an admission
 * for v2 elements never admits v3 points with the same bytes, nor the reverse.
 */
const V3_LABEL = encoder.encode(`zeroid/oprf-admission/v1/${SUITE_ID}\0`);

/** The suite an admission is for: absent for v2 (as on the wire), else protocol v3's. */
export type AdmissionSuite = typeof SUITE_ID | undefined;

/** An admission on the wire: the time it was issued (8 bytes, ms, big-endian), then the Ed25519 signature. */
export const ADMISSION_BYTES = 8 + 64;

/**
 * The bytes a server signs to admit one OPRF evaluation request at the nodes (decision 032): a label
 * (the suite's), the time of issue and the request itself (v2: the serialized EvaluationRequest, a
 * 2-byte count then the blinded elements; v3: the points back to back). The admission is bound to
 * those elements of that suite: whoever holds it can have them evaluated and nothing else, and
 * evaluating the same elements twice tells nothing new (kᵢ·B is the same), so an admission needs no
 * record of its use.
 */
export function admissionMessage(issuedAt: number, request: Uint8Array, suite?: AdmissionSuite): Uint8Array {
  const label = suite === SUITE_ID ? V3_LABEL : LABEL;
  const message = new Uint8Array(label.length + 8 + request.length);
  message.set(label);
  new DataView(message.buffer).setBigUint64(label.length, BigInt(issuedAt));
  message.set(request, label.length + 8);
  return message;
}
