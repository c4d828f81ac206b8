import { ProtocolInputError } from './errors.ts';

/** The longest ID or biometric text we accept, in UTF-8 bytes after normalisation. */
export const MAX_INPUT_BYTES = 16 * 1024;

const encoder = new TextEncoder();

/**
 * A run of white space: JavaScript's `\s` (which has every Unicode White_Space character but NEL,
 * plus the byte-order mark) and NEL, U+0085, which text from older systems uses as a line break.
 */
const WHITE_SPACE_RUN = /[\s\u0085]+/gu;

/**
 * Puts an ID or biometric text into its one canonical form, so that the same person typing or pasting
 * it differently gets the same identity: Unicode NFKC (full-width letters, ligatures and other
 * compatibility forms fold to their plain form), then trimmed, with every run of white space
 * (including tabs, newlines, no-break spaces, NEL and byte-order marks) collapsed to one space.
 *
 * @throws ProtocolInputError when the result is empty or longer than MAX_INPUT_BYTES.
 */
export function normaliseInput(raw: string): string {
  const normalised = raw.normalize('NFKC').replace(WHITE_SPACE_RUN, ' ').trim();
  if (normalised.length === 0) throw new ProtocolInputError('EMPTY_INPUT', 'The text is empty.');
  if (encoder.encode(normalised).length > MAX_INPUT_BYTES) {
    throw new ProtocolInputError('INPUT_TOO_LONG', `The text is too long (at most ${MAX_INPUT_BYTES / 1024} KiB).`);
  }
  return normalised;
}
