import { describe, expect, it } from 'vitest';
import { Problem } from '../problem.ts';
import { parseStrictJson } from './strict-json.ts';

const codeOf = (text: string) => {
  try {
    parseStrictJson(text);
    return 'ok';
  } catch (error) {
    return error instanceof Problem ? error.code : 'other';
  }
};

describe('parseStrictJson', () => {
  it('parses ordinary JSON, including keys repeated in different objects', () => {
    expect(parseStrictJson('{"a":{"b":1},"c":[{"b":2},{"b":3}],"s":"x\\"y:"}')).toEqual({
      a: { b: 1 },
      c: [{ b: 2 }, { b: 3 }],
      s: 'x"y:',
    });
    expect(parseStrictJson(' [1, "a", null] ')).toEqual([1, 'a', null]);
  });

  it('rejects duplicate keys at any depth, also when written with escapes', () => {
    expect(codeOf('{"a":1,"a":2}')).toBe('DUPLICATE_KEY');
    expect(codeOf('{"x":{"a":1, "b":{}, "a":2}}')).toBe('DUPLICATE_KEY');
    expect(codeOf('{"a":1,"\\u0061":2}')).toBe('DUPLICATE_KEY');
  });

  it('does not mistake string values that look like keys for keys', () => {
    expect(codeOf('{"a":"a","b":["a","a"]}')).toBe('ok');
  });

  it('rejects __proto__, constructor and prototype keys', () => {
    expect(codeOf('{"__proto__":{"polluted":true}}')).toBe('FORBIDDEN_KEY');
    expect(codeOf('{"a":{"constructor":{"prototype":1}}}')).toBe('FORBIDDEN_KEY');
    expect(codeOf('{"\\u005f_proto__":1}')).toBe('FORBIDDEN_KEY');
  });

  it('rejects invalid JSON without quoting it', () => {
    try {
      parseStrictJson('{"bio_info": my-secret-biometric');
      expect.unreachable();
    } catch (error) {
      expect((error as Problem).code).toBe('INVALID_JSON');
      expect((error as Problem).message).not.toContain('secret');
    }
  });
});
