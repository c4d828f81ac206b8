import type { Socket } from 'node:net';
import { securityHeaderPairs } from './security-headers.ts';

/** What Node's parser refused, by its error code: 431 for oversized headers, 408 for a timeout, else 400. */
const REFUSALS: Record<string, { status: number; reason: string; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    code: 'HEADERS_TOO_LARGE',
    message: 'The request headers are too large.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    code: 'REQUEST_TIMEOUT',
    message: 'The request took too long to arrive.',
  },
};
const BAD_REQUEST = { status: 400, reason: 'Bad Request', code: 'BAD_REQUEST', message: 'The request is not valid HTTP.' };

/**
 * Fastify's `clientErrorHandler`: the reply to a request Node's HTTP parser refused before routing
 * (a broken chunked body, Content-Length beside Transfer-Encoding, a control byte in the path, an
 * unknown method, no Host, headers past the limit). Fastify's default wrote a bare JSON reply with
 * no security headers; this one carries the same headers as every other reply (CSP, nosniff,
 * no-store…) and our `{error: {code, message}}`, with fixed messages that quote nothing from the
 * request, then closes the connection. Found by the attack review of decision 064.
 */
export function clientErrorReply({ https }: { https: boolean }) {
  const headers = [...securityHeaderPairs({ https }), ['Cache-Control', 'no-store']]
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const { status, reason, code, message } = REFUSALS[error.code ?? ''] ?? BAD_REQUEST;
    const body = JSON.stringify({ error: { code, message } });
    // Then the socket is destroyed, as Fastify's default does: a client cut off by the header or
    // request timeout may never close its side, and must not keep the connection (slow-clients.test.ts).
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n${headers}\r\n${body}`,
      () => socket.destroy(),
    );
    setTimeout(() => socket.destroy(), 1_000).unref();
  };
}
