import { expiresAt, session } from '../openapi/example-values.ts';
import type { OperationGuide } from '../openapi/operation-guide.ts';

/** POST /sessions */
export const createSessionGuide: OperationGuide = {
  tag: 'Cross-device verification',
  summary: 'Open a cross-device session',
  description: 'The screen keeps `secret` in memory; the QR code carries only the session, as `link`, which the screen also shows as text.',
  replies: {
    '200': {
      created: {
        summary: 'A pending session',
        value: {
          session,
          status: 'pending',
          expiresAt,
          secret: 'BwbYtLOFwQ0b8SB1sUVDw_l2tHaELehMiHzKe8yo0Nc',
          link: `https://zeroid.example/user-verification?session=${session}`,
        },
      },
    },
  },
};

/** GET /sessions/{id} */
export const sessionOutcomeGuide: OperationGuide = {
  tag: 'Cross-device verification',
  summary: 'The outcome, for the screen holding the secret',
  replies: {
    '200': {
      waiting: {
        summary: 'A phone opened the link and is verifying',
        value: { session, status: 'pending', expiresAt, phoneConnected: true },
      },
      done: { summary: 'Verified on the phone', value: { session, status: 'success', expiresAt } },
    },
  },
};

/** GET /sessions/{id}/open */
export const sessionOpenGuide: OperationGuide = {
  tag: 'Cross-device verification',
  summary: 'Whether the session still waits (the phone’s view)',
  replies: { '200': { open: { summary: 'Open', value: { session, open: true, expiresAt } } } },
};

/** POST /sessions/{id}/failure */
export const sessionFailureGuide: OperationGuide = {
  tag: 'Cross-device verification',
  summary: 'The phone reports a biometric that is not registered',
};

/** POST /sessions/{id}/confirm */
export const sessionConfirmGuide: OperationGuide = {
  tag: 'Cross-device verification',
  summary: 'The screen types the code its phone showed',
  description:
    'After a phone’s Success, the screen’s person types the six digits that phone showed; only then is the session confirmed. Five wrong codes fail the session.',
};
