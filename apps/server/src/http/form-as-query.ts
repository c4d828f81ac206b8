import type { FastifyRequest } from 'fastify';
import { Problem } from '../problem.ts';

/**
 * A POSTed authorization or logout request (OpenID Connect Core §3.1.2.1, RP-Initiated Logout 1.0
 * §2) as the GET request it stands for (decision 047): its form body, read here (at most `maxChars`),
 * becomes the query, and the provider sees a GET. oidc-provider takes these POSTs itself only with
 * `SameSite=None` session cookies, which ZeroID does not set; its session cookie is dropped from
 * these requests anyway (decision 036), so nothing else differs. Any other POST body is refused.
 */
export function formAsQuery(maxChars: number) {
  return async function postedForm(request: FastifyRequest): Promise<void> {
    if (request.method !== 'POST') return;
    if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      throw new Problem(415, 'FORM_EXPECTED', 'Send this request as application/x-www-form-urlencoded, or as a GET.');
    }
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of request.raw as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > maxChars) {
        throw new Problem(413, 'SIGN_IN_REQUEST_TOO_LARGE', `This sign-in request is too large: at most ${maxChars} characters in all.`);
      }
      chunks.push(chunk);
    }
    const form = Buffer.concat(chunks).toString('utf8');
    request.raw.method = 'GET';
    request.raw.url = `${new URL(request.raw.url!, 'http://localhost').pathname}?${form}`;
    delete request.raw.headers['content-type'];
    delete request.raw.headers['content-length'];
    delete request.raw.headers['transfer-encoding'];
  };
}
