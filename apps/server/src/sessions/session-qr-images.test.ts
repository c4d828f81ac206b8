import { describe, expect, it } from 'vitest';
import QRCode from 'qrcode';
import { createSessionQrImages } from './session-qr-images.ts';

const link = (session: string) => `https://zeroid.example/user-verification?session=${session}`;
const later = () => new Date(Date.now() + 60_000);

describe('session QR images', () => {
  it('draws a session’s image once and serves the same bytes after', async () => {
    const images = createSessionQrImages({ link, maxEntries: 10 });
    const first = await images.forSession('a'.repeat(32), later());
    const again = await Promise.all(Array.from({ length: 50 }, () => images.forSession('a'.repeat(32), later())));
    expect(images.renders).toBe(1);
    expect(again.every((png) => png === first)).toBe(true);
    // The very image the original drawing gives for the session's link.
    const direct = await QRCode.toBuffer(link('a'.repeat(32)), { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
    expect(first.equals(direct)).toBe(true);
  });

  it('keeps at most maxEntries images, dropping the least recently used and the expired first', async () => {
    const images = createSessionQrImages({ link, maxEntries: 3 });
    await images.forSession('1', new Date(Date.now() - 1));
    await images.forSession('2', later());
    await images.forSession('3', later());
    await images.forSession('2', later()); // used again: now the most recent
    await images.forSession('4', later());
    expect(images.size).toBe(3); // '1' had expired
    await images.forSession('5', later());
    expect(images.size).toBe(3);
    expect(images.renders).toBe(5);
    await images.forSession('2', later());
    expect(images.renders).toBe(5);
    await images.forSession('3', later()); // the least recently used was dropped, so drawn again
    expect(images.renders).toBe(6);
  });
});
