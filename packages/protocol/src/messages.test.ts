import { describe, expect, it } from 'vitest';
import { DID_ALREADY_GENERATED, MESSAGES, VERIFICATION_RESULT } from './messages.ts';

// The specification's strings, copied letter for letter from seed/000_c9def052884d966d.txt. A change
// to any of them changes what people read or what the seed's clients parse, so it must be deliberate.
describe('user-facing strings and wire field names', () => {
  it('match the specification exactly', () => {
    expect(MESSAGES).toEqual({
      welcomeHeading: 'Welcome To ZeroID',
      tagline: 'Where Trust Meets ZERO Knowledge',
      registration: 'Registration',
      verification: 'Verification',
      enterId: 'Enter ID:',
      biometricData: 'Biometric Data:',
      register: 'Register',
      alreadyRegistered: 'The User is already registered.',
      verificationHeading: 'VERIFICATION',
      touchToVerify: 'Touch to verify!',
      verifyUser: 'Verify User',
      qrTitle: 'QR Code Generator',
      invalidDid: 'The ID entered is invalid or not yet registered. Please Register, or try again in a while',
      authorised: 'Welcome, How can we help you?!',
      navigationError: 'Unhandled Navigation Error',
    });
    expect(DID_ALREADY_GENERATED).toBe('DID already generated');
    expect(VERIFICATION_RESULT).toBe('Verification Result');
  });
});
