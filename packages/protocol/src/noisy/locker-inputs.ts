import { lockerSubsets } from './locker-subsets.ts';
import type { TemplateBits } from './template-bits.ts';

const encoder = new TextEncoder();
/** Domain of a locker's OPRF input: no exact-text biometric or ID can evaluate like a locker. */
export const LOCKER_INPUT_LABEL = 'zeroid/noisy/locker/v1';

/**
 * Each locker's OPRF input: LOCKER_INPUT_LABEL, the model, the locker's number and its sampled bits,
 * packed. A locker whose subset touches a masked bit has no input (undefined): the reader did not see
 * those bits, so their value is noise. Secret: an input is 24 to 42 bits of the template.
 */
export function lockerInputs({ bits, valid, params }: TemplateBits): (Uint8Array | undefined)[] {
  const label = encoder.encode(`${LOCKER_INPUT_LABEL}/${params.model}/`);
  return lockerSubsets(params, bits.length).map((positions, locker) => {
    if (positions.some((p) => valid[p] !== 1)) return undefined;
    const input = new Uint8Array(label.length + 2 + Math.ceil(positions.length / 8));
    input.set(label);
    input[label.length] = locker >> 8;
    input[label.length + 1] = locker & 0xff;
    positions.forEach((p, i) => {
      input[label.length + 2 + (i >> 3)]! |= bits[p]! << (7 - (i & 7));
    });
    return input;
  });
}
