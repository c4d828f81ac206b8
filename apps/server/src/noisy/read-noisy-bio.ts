import { IRIS_BITS, IRIS_PARAMS, lockerSubsets, parseNoisyTemplate } from '@zeroid/protocol/noisy';
import { badRequest } from '../problem.ts';

/** An iris code as the server takes it: 2,048 bits and its mask, one bit a byte (decision 084). */
export interface NoisyIrisCode {
  kind: 'code';
  bits: Uint8Array;
  valid: Uint8Array;
}

/**
 * The fewest lockers a reading must see (every sampled bit unmasked): more than half the layout.
 * Decision 077 sized 20,000 lockers a reading for its false-rejection goal; a reading that sees fewer
 * would be rejected far more often, and its registration would still write 20,000 rows, most of them
 * random, that no later reading opens (an all-zero mask registered one eye again and again). More
 * than half, not half: two masks of one code that each see exactly half can see disjoint halves, so
 * the second registration shares no locker with the first and the same eye registered twice; two sets
 * of more than half always share a locker, which answers "already registered".
 */
export const MIN_SEEN_LOCKERS = IRIS_PARAMS.lockers / 2 + 1;

const faceUnsupported = () =>
  badRequest(
    'NOISY_TEMPLATE_UNSUPPORTED',
    'Face embeddings do not verify reliably enough: a random face would verify as someone (see decision 084). Only iris codes of 2,048 bits are read as noisy biometrics.',
  );
const lengthUnsupported = () =>
  badRequest(
    'NOISY_TEMPLATE_UNSUPPORTED',
    'This iris code is not 2,048 bits long. Only iris codes of exactly 2,048 bits, with an optional mask of the same length, are read as noisy biometrics (see decision 084).',
  );
const maskTooSparse = () =>
  badRequest('NOISY_MASK_TOO_SPARSE', 'The mask hides too much of the iris code for it to verify reliably. Please take another reading.');

/** How many lockers see every bit they sample under this mask. */
function seenLockers(valid: Uint8Array): number {
  let seen = 0;
  for (const positions of lockerSubsets(IRIS_PARAMS, IRIS_BITS)) if (positions.every((p) => valid[p] === 1)) seen++;
  return seen;
}

/**
 * The raw biometric as a noisy iris code, when EXPERIMENTAL_NOISY_BIOMETRICS is on and the text is a
 * template (decision 084); undefined otherwise, and always with the flag off, so the text keeps its
 * exact meaning and every flow is what it was. With the flag on, a template the scheme cannot serve
 * is refused with a 400 before anything is spent or evaluated, rather than run or read as exact text:
 * a feature vector (decision 077 measured far_1_to_n = 1 for faces, so no projection is computed
 * here), a code of another length than the layout's (the lockers' positions depend on the length, so
 * padding a code would register the same eye again), and a mask that leaves fewer than
 * MIN_SEEN_LOCKERS lockers seen.
 */
export function readNoisyBio(config: { experimentalNoisyBiometrics: boolean }, bioInfo: string): NoisyIrisCode | undefined {
  if (!config.experimentalNoisyBiometrics) return undefined;
  const template = parseNoisyTemplate(bioInfo);
  if (!template) return undefined;
  if (template.kind === 'vector') throw faceUnsupported();
  if (template.bits.length !== IRIS_BITS) throw lengthUnsupported();
  if (!template.valid.every((bit) => bit === 1) && seenLockers(template.valid) < MIN_SEEN_LOCKERS) throw maskTooSparse();
  return template;
}
