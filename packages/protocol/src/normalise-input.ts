import { ProtocolInputError } from './errors.ts';

/** The longest ID or biometric text we accept, in UTF-8 bytes after normalisation. */
export const MAX_INPUT_BYTES = 16 * 1024;

/**
 * The version of the rule below (decision 014). Version 1 was NFKC, white space and trim; version 2
 * also removes default-ignorable code points and refuses lone surrogates. Every text without those
 * normalises alike under both, so identities registered from such text are unaffected. It is not part
 * of the OPRF's domain labels: changing those would re-key every identity ever registered.
 */
export const NORMALISATION_VERSION = 2;

const encoder = new TextEncoder();

/**
 * A run of white space: JavaScript's `\s` (which has every Unicode White_Space character but NEL,
 * plus the byte-order mark) and NEL, U+0085, which text from older systems uses as a line break.
 */
const WHITE_SPACE_RUN = /[\s\u0085]+/gu;

/**
 * Unicode's Default_Ignorable_Code_Point: characters a renderer shows as nothing, so two texts that
 * look the same can differ by them. Zero-width space, non-joiner and joiner, word joiner, soft hyphen,
 * combining grapheme joiner, byte-order mark (zero-width no-break space), variation selectors, bidi
 * controls, Hangul fillers, tag characters and the unassigned rest of the class. Left in, each gives
 * the same person a new identity: one more registration of the same biometric (P5).
 */
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * A surrogate code unit not in a pair. With the `u` flag, a well-formed pair reads as one code point,
 * so only a lone surrogate matches. `TextEncoder` (and so UTF-8, HKDF and the OPRF) turns every lone
 * surrogate into U+FFFD, so different texts would collide: refused instead.
 */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Puts an ID or biometric text into its one canonical form (version 2), so that the same person typing
 * or pasting it differently gets the same identity:
 * 1. a lone surrogate is refused (it is no character, and UTF-8 cannot carry it);
 * 2. default-ignorable code points are removed, before NFKC so that they cannot block a composition
 *    (e + CGJ + ◌́ becomes é). NFKC maps no other character to one of them, as the test checks over
 *    every code point, so none is left after it;
 * 3. Unicode NFKC: full-width letters, ligatures and other compatibility forms fold to their plain form;
 * 4. trimmed, with every run of white space (tabs, newlines, no-break spaces, NEL) collapsed to one space.
 *
 * @throws ProtocolInputError: MALFORMED_TEXT for a lone surrogate, EMPTY_INPUT when nothing is left,
 * INPUT_TOO_LONG past MAX_INPUT_BYTES.
 */
export function normaliseInput(raw: string): string {
  if (LONE_SURROGATE.test(raw)) {
    throw new ProtocolInputError('MALFORMED_TEXT', 'The text contains a broken character (a lone surrogate).');
  }
  const normalised = raw.replace(DEFAULT_IGNORABLE, '').normalize('NFKC').replace(WHITE_SPACE_RUN, ' ').trim();
  if (normalised.length === 0) throw new ProtocolInputError('EMPTY_INPUT', 'The text is empty.');
  if (encoder.encode(normalised).length > MAX_INPUT_BYTES) {
    throw new ProtocolInputError('INPUT_TOO_LONG', `The text is too long (at most ${MAX_INPUT_BYTES / 1024} KiB).`);
  }
  return normalised;
}
