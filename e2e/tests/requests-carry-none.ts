import { createHash } from 'node:crypto';
import { expect, type Request } from '@playwright/test';

/** Every way a raw value could be smuggled out: as is, URL-encoded, JSON-escaped, hashed, base64. */
export function encodings(raw: string): string[] {
  const sha = createHash('sha256').update(raw).digest();
  return [
    raw,
    encodeURIComponent(raw),
    JSON.stringify(raw).slice(1, -1),
    sha.toString('hex'),
    sha.toString('base64'),
    sha.toString('base64url'),
    Buffer.from(raw).toString('base64'),
    Buffer.from(raw).toString('base64url'),
    Buffer.from(raw).toString('hex'),
  ];
}

/** A request as text a value could hide in: its method, URL, headers and body. */
export async function describeRequest(request: Request): Promise<string> {
  const headers = await request.allHeaders();
  return [request.method(), request.url(), JSON.stringify(headers), request.postData() ?? ''].join('\n');
}

/** P1: no recorded request carries any of `secrets` in any of its encodings; returns the requests as text. */
export async function expectNoRequestCarries(recorded: readonly Request[], secrets: readonly string[]): Promise<string[]> {
  const texts = await Promise.all(recorded.map(describeRequest));
  for (const secret of secrets) {
    for (const encoded of encodings(secret)) {
      for (const text of texts) expect(text.includes(encoded), `a request carried ${encoded.slice(0, 20)}…`).toBe(false);
    }
  }
  return texts;
}
