import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** Decodes the QR code in a PNG given as a data: URL, with a real QR decoder. */
export function decodeQrDataUrl(dataUrl: string): string | undefined {
  const match = /^data:image\/png;base64,(.+)$/.exec(dataUrl);
  if (!match?.[1]) throw new Error(`not a PNG data URL: ${dataUrl.slice(0, 30)}…`);
  const png = PNG.sync.read(Buffer.from(match[1], 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}
