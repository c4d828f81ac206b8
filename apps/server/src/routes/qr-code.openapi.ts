import type { OperationGuide } from '../openapi/operation-guide.ts';

/** GET /generateQRCode */
export const qrCodeGuide: OperationGuide = {
  tag: 'Cross-device verification',
  summary: 'QR code of the verification link (PNG)',
  description: 'With `session`, the link completes that session when a phone verifies through it.',
};
