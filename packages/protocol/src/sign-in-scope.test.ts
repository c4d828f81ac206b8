import { describe, expect, it } from 'vitest';
import { SNARK_SCALAR_FIELD } from './field.ts';
import { nullifierSubject, signInMessage, signInScope, signInSectorUriScope } from './sign-in-scope.ts';

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

  it('gives each sector document its own scope: another path on the same host is another sector, and no client_id shares one', () => {
    const uri = 'https://rp.example/.well-known/zeroid-sector.json';
    const sector = signInSectorUriScope(uri);
    expect(BigInt(sector) < SNARK_SCALAR_FIELD).toBe(true);
    expect(signInSectorUriScope(uri)).toBe(sector);
    expect(signInSectorUriScope('https://RP.example:443/.well-known/zeroid-sector.json')).toBe(sector);
    expect(signInSectorUriScope('https://rp.example/~mallory/sector.json')).not.toBe(sector);
    expect(signInSectorUriScope('https://rp.example/.well-known/zeroid-sector.json?v=2')).not.toBe(sector);
    expect(sector).not.toBe(signInScope(uri));
    expect(sector).not.toBe(signInScope('rp.example'));
  });

  it('encodes a nullifier as 43 base64url characters of its 32 bytes', () => {
    expect(nullifierSubject('1')).toBe('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAE');
    expect(nullifierSubject((SNARK_SCALAR_FIELD - 1n).toString())).toHaveLength(43);
  });
});
