import { describe, expect, it } from 'vitest';
import { credentialOutcome } from './credential-outcome.ts';

describe('what the sign-in screen says of the credential its site asked about (decision 089)', () => {
  it('names the issuer the site will be told, says the site will be told of none when none was found or the person declined, and says nothing when the site did not ask', () => {
    expect(credentialOutcome({ credential: 'shared', issuerName: 'Example University' }, 'The Example Site')).toBe(
      'The Example Site will be told that Example University vouches for your ID.',
    );
    expect(credentialOutcome({ credential: 'none' }, 'The Example Site')).toBe(
      'No credential was found for your identity: The Example Site will not be told of one.',
    );
    expect(credentialOutcome({ credential: 'declined' }, 'The Example Site')).toBe(
      'You chose not to tell The Example Site which organisation vouches for your ID: it will not be told of a credential.',
    );
    expect(credentialOutcome({ credential: 'not-asked' }, 'The Example Site')).toBeUndefined();
  });
});
