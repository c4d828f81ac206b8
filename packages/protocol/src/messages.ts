/**
 * Every user-facing string of the specification, letter for letter. The web app renders these and
 * the tests look for them; nothing else spells them.
 */
export const MESSAGES = {
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
} as const;

/** The wire field the registration reply is read by. */
export const DID_ALREADY_GENERATED = 'DID already generated';
/** The wire field the verification reply is read by. */
export const VERIFICATION_RESULT = 'Verification Result';
