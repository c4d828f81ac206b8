import { describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES, normaliseInput } from './normalise-input.ts';

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
});
