import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES, NORMALISATION_VERSION, normaliseInput } from './normalise-input.ts';

const DEFAULT_IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;
const everyCodePoint = function* () {
  for (let cp = 0; cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) yield String.fromCodePoint(cp);
};
/** Version 1 of the rule, as it was: what identities registered before version 2 were derived from. */
const normaliseV1 = (raw: string) =>
  raw
    .normalize('NFKC')
    .replace(/[\s\u0085]+/gu, ' ')
    .trim();

describe('normaliseInput', () => {
  it.each([
    ['Ｆｕｌｌｗｉｄｔｈ ＡＢＣ１２３', 'Fullwidth ABC123'],
    ['ﬁngerprint', 'fingerprint'],
    ['x²', 'x2'],
    ['Å', 'Å'],
    ['①②', '12'],
    ['𝟏𝟐𝟑 mathematical digits', '123 mathematical digits'],
    ['ＩＤ：　ＡＢ－１', 'ID: AB-1'],
  ])('applies NFKC: %s → %s', (raw, expected) => {
    expect(normaliseInput(raw)).toBe(expected);
  });

  it('trims and collapses every kind of white space to one space', () => {
    expect(normaliseInput('  ridge\t\tloop\r\n whorl\u00a0\u2003delta \n')).toBe('ridge loop whorl delta');
    expect(normaliseInput('\u3000line\u2028separator\u2029para\u000bvt\u000cff\u0085nel\ufeff')).toBe('line separator para vt ff nel');
  });

  it('leaves inner punctuation and case alone', () => {
    expect(normaliseInput('AB-123/x.Y')).toBe('AB-123/x.Y');
  });

  it.each(['', '   ', '\n\t\u00a0'])('rejects empty input %j', (raw) => {
    expect(() => normaliseInput(raw)).toThrow(expect.objectContaining({ code: 'EMPTY_INPUT' }));
  });

  it('accepts exactly the limit in UTF-8 bytes and rejects one byte more, counting bytes not characters', () => {
    expect(normaliseInput('a'.repeat(MAX_INPUT_BYTES))).toHaveLength(MAX_INPUT_BYTES);
    expect(() => normaliseInput('a'.repeat(MAX_INPUT_BYTES + 1))).toThrow(expect.objectContaining({ code: 'INPUT_TOO_LONG' }));
    expect(() => normaliseInput('é'.repeat(MAX_INPUT_BYTES / 2 + 1))).toThrow(expect.objectContaining({ code: 'INPUT_TOO_LONG' }));
  });

  it('never quotes the input in its error', () => {
    expect(() => normaliseInput(`secret-${'x'.repeat(MAX_INPUT_BYTES)}`)).toThrow(
      expect.not.objectContaining({ message: expect.stringContaining('secret') }),
    );
  });

  describe('version 2: invisible and broken characters', () => {
    it('is version 2', () => {
      expect(NORMALISATION_VERSION).toBe(2);
    });

    it.each([
      ['zero-width space', '\u200b'],
      ['zero-width non-joiner', '\u200c'],
      ['zero-width joiner', '\u200d'],
      ['word joiner', '\u2060'],
      ['soft hyphen', '\u00ad'],
      ['combining grapheme joiner', '\u034f'],
      ['byte-order mark (zero-width no-break space)', '\ufeff'],
      ['left-to-right mark', '\u200e'],
      ['right-to-left override', '\u202e'],
      ['invisible times', '\u2062'],
      ['Mongolian vowel separator', '\u180e'],
      ['variation selector 16', '\ufe0f'],
      ['variation selector 256', '\u{e01ef}'],
      ['tag letter A', '\u{e0041}'],
      ['Hangul filler', '\u3164'],
      ['half-width Hangul filler (NFKC maps it to another ignorable)', '\uffa0'],
      ['musical symbol begin beam', '\u{1d173}'],
    ])('removes the %s', (_name, invisible) => {
      expect(normaliseInput(`AB${invisible}-12${invisible}3`)).toBe('AB-123');
      expect(normaliseInput(`${invisible}ridge loop${invisible}`)).toBe('ridge loop');
    });

    it('removes every default-ignorable code point, and NFKC maps no other code point to one', () => {
      const containsIgnorable = /\p{Default_Ignorable_Code_Point}/u;
      const kept: string[] = [];
      const produced: string[] = [];
      let ignorable = 0;
      for (const char of everyCodePoint()) {
        if (DEFAULT_IGNORABLE.test(char)) {
          ignorable++;
          if (normaliseInput(`a${char}b`) !== 'ab') kept.push(char);
        } else if (containsIgnorable.test(char.normalize('NFKC'))) {
          produced.push(char);
        }
      }
      expect(kept).toEqual([]);
      expect(produced).toEqual([]);
      // Unicode 15: 4,174 default-ignorable code points (most of them reserved).
      expect(ignorable).toBeGreaterThan(4000);
    });

    it('removes them before NFKC, so that they cannot block a composition', () => {
      expect(normaliseInput('e\u034f\u0301')).toBe('\u00e9');
      expect(normaliseInput('e\u034f\u0301')).toBe(normaliseInput('\u00e9'));
    });

    it('is empty for a text of nothing but ignorable code points', () => {
      expect(() => normaliseInput('\u200b\u200d\u00ad')).toThrow(expect.objectContaining({ code: 'EMPTY_INPUT' }));
    });

    it.each([
      ['a lone high surrogate', 'ab\ud800'],
      ['a lone low surrogate', '\udc00ab'],
      ['a pair in the wrong order', 'a\ude00\ud83d'],
    ])('refuses %s, which UTF-8 would turn into U+FFFD', (_name, raw) => {
      expect(() => normaliseInput(raw)).toThrow(expect.objectContaining({ code: 'MALFORMED_TEXT' }));
    });

    it('no longer lets different lone surrogates collide, and keeps a real surrogate pair', () => {
      const encoder = new TextEncoder();
      // Version 1 derived both from the same bytes: "x" and U+FFFD.
      expect(encoder.encode(normaliseV1('x\ud800'))).toEqual(encoder.encode(normaliseV1('x\udbff')));
      expect(() => normaliseInput('x\ud800')).toThrow(expect.objectContaining({ code: 'MALFORMED_TEXT' }));
      expect(() => normaliseInput('x\udbff')).toThrow(expect.objectContaining({ code: 'MALFORMED_TEXT' }));
      expect(normaliseInput('x\ud83d\ude00')).toBe('x\u{1f600}');
    });

    it('equals version 1 on every text without ignorable code points or lone surrogates', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (raw) => {
          fc.pre(![...raw].some((c) => DEFAULT_IGNORABLE.test(c)) && normaliseV1(raw) !== '');
          expect(normaliseInput(raw)).toBe(normaliseV1(raw));
        }),
        { numRuns: 500 },
      );
    });

    it('is idempotent', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary-ascii', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }), (a, b) => {
          const raw = a + b;
          fc.pre(normaliseV1(raw.replace(/\p{Default_Ignorable_Code_Point}/gu, '')) !== '');
          const once = normaliseInput(raw);
          expect(normaliseInput(once)).toBe(once);
        }),
        { numRuns: 500 },
      );
    });
  });
});
