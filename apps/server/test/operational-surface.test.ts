import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, type ServerProcess } from './server-process.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';

/**
 * The operational surface of a real server process: /metrics off the public listener unless a token
 * is set, its own listener on METRICS_PORT, malformed URLs answered in our shape over a raw socket
 * (nothing normalises the URL on the way), and a debug log with no session id in it.
 */
const TOKEN = 'operational-surface-token-0123456789abcdef';
let plain: ServerProcess;
let metricsPort: number;
let withToken: ServerProcess;
// Each process on a database of its own, never the repository's ./data.
const dataDirs = [0, 1].map(() => tempDir('zeroid-operational-'));

beforeAll(async () => {
  metricsPort = await freePort();
  [plain, withToken] = await Promise.all([
    startServerProcess({ DATA_DIR: dataDirs[0]!, LOG_LEVEL: 'debug', METRICS_PORT: String(metricsPort) }),
    startServerProcess({ DATA_DIR: dataDirs[1]!, METRICS_TOKEN: TOKEN }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([plain?.stop(), withToken?.stop()]);
  removeTempDirs();
});

/** One request written byte for byte, as a client that does not normalise its URL would send it. */
function rawRequest(server: ServerProcess, requestLine: string) {
  return rawExchange(server, (host) => `${requestLine}\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
}

/** Bytes written to the server's socket as they are, and its reply parsed. */
function rawExchange(
  server: ServerProcess,
  bytes: (host: string) => string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(port), hostname, () => socket.write(bytes(hostname)));
    socket.on('data', (chunk) => (text += String(chunk)));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

/** The headers every reply carries (DESIGN §6), whoever wrote it. */
function expectSecurityHeaders(reply: { headers: Record<string, string> }) {
  expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(reply.headers['cache-control']).toBe('no-store');
  expect(reply.headers['x-content-type-options']).toBe('nosniff');
  expect(reply.headers['referrer-policy']).toBe('no-referrer');
  for (const directive of ["default-src 'self'", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'none'"]) {
    expect(reply.headers['content-security-policy']).toContain(directive);
  }
}

describe('/metrics', () => {
  it('is not served on the public listener by default', async () => {
    const reply = await fetch(`${plain.url}/metrics`);
    expect(reply.status).toBe(404);
    expect(await reply.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'There is nothing at this address.' } });
  });

  it('is served on METRICS_PORT, bound to loopback, counting the public listener’s traffic', async () => {
    expect((await fetch(`${plain.url}/livez`)).status).toBe(200);
    const reply = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/plain');
    expect(await reply.text()).toMatch(/zeroid_http_requests_total\{route="\/livez",method="GET",status="200"\} [1-9]/);
    const elsewhere = await fetch(`http://127.0.0.1:${metricsPort}/healthz`);
    expect(elsewhere.status).toBe(404);
    expect(plain.output.join('')).toContain(`"metrics":"http://127.0.0.1:${metricsPort}/metrics"`);
  });

  it('is served on the public listener with METRICS_TOKEN, to requests bearing it only', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const reply = await fetch(`${withToken.url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(reply.status, String(authorization)).toBe(401);
      expect(reply.headers.get('www-authenticate')).toBe('Bearer');
      expect(reply.headers.get('cache-control')).toBe('no-store');
      expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    }
    const reply = await fetch(`${withToken.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(reply.status).toBe(200);
    expect(await reply.text()).toMatch(/zeroid_http_requests_total\{route="\/metrics",method="GET",status="401"\} 5/);
  });
});

describe('a URL that does not decode, over a raw socket', () => {
  it.each(['GET /%zz HTTP/1.1', 'GET /sessions/%E0%A4%A HTTP/1.1', 'POST /register%zz HTTP/1.1'])(
    '%s: 400, our JSON error, the security headers and no-store, and no echo of the URL',
    async (requestLine) => {
      const reply = await rawRequest(plain, requestLine);
      expect(reply.status).toBe(400);
      expectSecurityHeaders(reply);
      expect(JSON.parse(reply.body)).toEqual({ error: { code: 'BAD_URL', message: 'The address is not a valid URL.' } });
      expect(reply.body).not.toContain('%');
    },
  );
});

describe("what Node's HTTP parser refuses, over a raw socket", () => {
  it.each([
    ['a broken chunked body', (host: string) => `POST /verify HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`, 400],
    [
      'Content-Length beside chunked',
      (host: string) => `POST /verify HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      400,
    ],
    ['an unknown method', (host: string) => `FOO /verify HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 400],
    ['headers past the limit', (host: string) => `GET / HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ] as const)('%s: its status, our JSON error and the security headers (decision 064)', async (_name, bytes, status) => {
    const reply = await rawExchange(plain, bytes);
    expect(reply.status).toBe(status);
    expectSecurityHeaders(reply);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: status === 431 ? 'HEADERS_TOO_LARGE' : 'BAD_REQUEST' } });
    expect(reply.body).not.toContain('zz');
  });
});

describe('debug logs', () => {
  it('name requests without their session ids or query strings', async () => {
    const linesBefore = plain.output.length;
    const { session, secret } = (await (await fetch(`${plain.url}/sessions`, { method: 'POST' })).json()) as {
      session: string;
      secret: string;
    };
    expect(session).toMatch(/^[0-9a-f]{32}$/);
    const urls = [
      `/sessions/${session}`,
      `/generateQRCode?session=${session}`,
      `/user-verification?session=${session}`,
      `/sessions/${session}/nope`,
      `/members?bucket=${session.slice(0, 4)}`,
    ];
    for (const url of urls) expect((await fetch(plain.url + url)).status).toBeLessThan(500);
    const events = new AbortController();
    const stream = await fetch(`${plain.url}/sessions/${session}/events?secret=${secret}`, { signal: events.signal });
    expect(stream.status).toBe(200);
    events.abort();
    expect((await rawRequest(plain, `GET /sessions/${session}%zz HTTP/1.1`)).status).toBe(400);

    const access = (url: string) => `"url":"${url}"`;
    const expected = [
      access('/sessions/:id'),
      access('/generateQRCode?[redacted]'),
      access('/user-verification?[redacted]'),
      access('/sessions/[redacted]'),
      access('/members?[redacted]'),
    ];
    for (
      let waited = 0;
      waited < 5_000 && !expected.every((line) => plain.output.slice(linesBefore).join('').includes(line));
      waited += 100
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const log = plain.output.slice(linesBefore).join('');
    for (const line of expected) expect(log).toContain(line);
    // Every request above but the event stream, which hijacks its reply and so logs no access line.
    expect(log.match(/"msg":"request completed"/g)).toHaveLength(urls.length + 1);
    expect(log).not.toContain(session);
    expect(log).not.toContain(secret);
    expect(log).not.toContain(session.slice(0, 16));
  });
});
