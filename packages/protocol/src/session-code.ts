import { sha256 } from '@noble/hashes/sha2.js';

/**
 * The short code both screens of a cross-device session show: six digits of SHA-256 of the session
 * id. Before proving, the person checks that the phone shows the code on the screen they mean to
 * sign in to; a QR code relayed from somebody else's screen shows that screen's code instead. It
 * hides nothing and proves nothing by itself: it only lets a person compare two screens.
 */
export function sessionCode(session: string): string {
  const digest = sha256(new TextEncoder().encode(`zeroid/session-code/v1\u0000${session}`));
  const value = ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) >>> 0;
  return String(value % 1_000_000).padStart(6, '0');
}
