import QRCode from 'qrcode';

/** A QR code PNG as the original system drew it. Drawing one costs milliseconds of event-loop time. */
export const renderQrPng = (text: string) => QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });

interface Entry {
  png: Promise<Buffer>;
  expiresAt: number;
}

/**
 * Each session's QR image, drawn once and kept until the session expires. The cache is bounded by
 * count: past `maxEntries`, the least recently used image goes (it is drawn again if asked for), so
 * creating many sessions costs at most `maxEntries` images of about 1 KB each.
 */
export function createSessionQrImages({ link, maxEntries }: { link: (session: string) => string; maxEntries: number }) {
  // A Map keeps insertion order: re-inserting on use makes its first key the least recently used.
  const images = new Map<string, Entry>();
  let renders = 0;

  const evict = (now: number) => {
    for (const [id, entry] of images) if (entry.expiresAt <= now) images.delete(id);
    while (images.size > maxEntries) images.delete(images.keys().next().value!);
  };

  return {
    /** The link a session's QR code holds, to be shown as text beside the image (a camera is not the only way in). */
    link,
    /** The PNG for a session that is open until `expiresAt`. */
    forSession(session: string, expiresAt: Date): Promise<Buffer> {
      const cached = images.get(session);
      if (cached) {
        images.delete(session);
        images.set(session, cached);
        return cached.png;
      }
      renders++;
      const png = renderQrPng(link(session));
      images.set(session, { png, expiresAt: expiresAt.getTime() });
      png.catch(() => images.delete(session));
      if (images.size > maxEntries) evict(Date.now());
      return png;
    },
    get size() {
      return images.size;
    },
    /** Images drawn so far; a test reads it to see that a flood draws nothing new. */
    get renders() {
      return renders;
    },
  };
}

export type SessionQrImages = ReturnType<typeof createSessionQrImages>;
