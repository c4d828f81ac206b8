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
/**
 * Added to a registration's reply when it moved the person's protocol v2 identity to v3 (decision
 * 073; not in the specification): the v2 DID, now deactivated, which the new `DID` replaces.
 */
export const REPLACED_DID = 'Replaced DID';
/** The wire field the erasure reply is read by (decision 022; not in the specification). */
export const ERASURE_RESULT = 'Erasure Result';
/**
 * Added to the verification reply when the verification completed a cross-device session (decision
 * 035; not in the specification): the code the phone shows, for the person to type on the screen.
 */
export const CONFIRMATION_CODE = 'Confirmation Code';

/** The erasure page's strings (decision 022): ours, not the specification's, so kept apart from MESSAGES. */
export const ERASE_MESSAGES = {
  footerLink: 'Delete my identity',
  heading: 'Delete my identity',
  explanation:
    'Enter the ID and biometric you registered with. Your identity is removed for good: your DID is deactivated and you can no longer verify with it.',
  erase: 'Delete my identity',
  confirm: 'Yes, delete it for good',
  cancel: 'Cancel',
  confirmQuestion: 'This cannot be undone. Delete this identity?',
  erased: 'Your identity has been deleted. You may register again at any time.',
  failed: 'Nothing was deleted: the ID and biometric do not match a registered identity.',
} as const;
