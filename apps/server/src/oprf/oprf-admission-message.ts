/** The label that makes an admission signature mean nothing else (decision 032). */
const LABEL = new TextEncoder().encode('zeroid/oprf-admission/v1\0');

/** An admission on the wire: the time it was issued (8 bytes, ms, big-endian), then the Ed25519 signature. */
export const ADMISSION_BYTES = 8 + 64;

/**
 * The bytes a server signs to admit one OPRF evaluation request at the nodes (decision 032): a label,
 * the time of issue and the serialized EvaluationRequest itself (a 2-byte count, then the blinded
 * elements). The admission is bound to those elements: whoever holds it can have them evaluated and
 * nothing else, and evaluating the same elements twice tells nothing new (kᵢ·B is the same), so an
 * admission needs no record of its use.
 */
export function admissionMessage(issuedAt: number, request: Uint8Array): Uint8Array {
  const message = new Uint8Array(LABEL.length + 8 + request.length);
  message.set(LABEL);
  new DataView(message.buffer).setBigUint64(LABEL.length, BigInt(issuedAt));
  message.set(request, LABEL.length + 8);
  return message;
}
