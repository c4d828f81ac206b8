import type { Storage } from '../storage/types.ts';
import type { SessionQrImages } from './session-qr-images.ts';

/**
 * The QR image of a session a phone may still complete, drawn once (`SessionQrImages`); undefined
 * when the session does not exist or no longer waits, so a finished session's link is not shown again.
 */
export async function pendingSessionQr({ storage, qrImages }: { storage: Storage; qrImages: SessionQrImages }, id: string) {
  const found = await storage.sessions.find(id);
  if (found?.status !== 'pending') return undefined;
  return qrImages.forSession(id, found.expiresAt);
}
