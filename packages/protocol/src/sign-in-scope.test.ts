import { describe, expect, it } from 'vitest';
import { SNARK_SCALAR_FIELD } from './field.ts';
import { nullifierSubject, signInHostScope, signInMessage, signInScope } from './sign-in-scope.ts';

describe('sign-in scope, message and subject', () => {
  it('derives a field element per sector, distinct across sectors and from the login message', () => {
    const a = signInScope('site-a');
    expect(a).toMatch(/^[1-9][0-9]*$/);
    expect(BigInt(a) < SNARK_SCALAR_FIELD).toBe(true);
    expect(signInScope('site-a')).toBe(a);
    expect(signInScope('site-b')).not.toBe(a);
    expect(signInMessage('42', 'uid-1')).not.toBe(signInMessage('42', 'uid-2'));
    expect(signInMessage('42', 'uid-1')).not.toBe(signInMessage('43', 'uid-1'));
  });

  it('gives a sector host its own scope, never the scope of a client_id spelt the same', () => {
    const host = signInHostScope('rp.example');
    expect(BigInt(host) < SNARK_SCALAR_FIELD).toBe(true);
    expect(signInHostScope('rp.example')).toBe(host);
    expect(host).not.toBe(signInScope('rp.example'));
    expect(signInHostScope('other.example')).not.toBe(host);
  });

  it('encodes a nullifier as 43 base64url characters of its 32 bytes', () => {
    expect(nullifierSubject('1')).toBe('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAE');
    expect(nullifierSubject((SNARK_SCALAR_FIELD - 1n).toString())).toHaveLength(43);
  });
});
