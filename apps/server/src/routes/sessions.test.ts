import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_METRICS_TOKEN, type TestApp } from '../../test/test-app.ts';
import { hashSessionSecret } from '../sessions/session-secret.ts';
import { until } from '../../test/support/until.ts';

/**
 * Cross-device sessions over a real listening app and SQLite: only the creating screen's secret
 * reads an outcome, the phone's view says only "open or not", the phone can fail a session at once,
 * and event streams are capped per client and per session.
 */
let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await startTestApp({
    env: { SESSION_STREAMS_PER_CLIENT: '3', SESSION_STREAMS_PER_SESSION: '2', SESSION_POLL_MS: '50', TRUST_PROXY: 'true' },
  });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.destroy());

const create = async () =>
  (await (await fetch(`${url}/sessions`, { method: 'POST' })).json()) as {
    session: string;
    status: string;
    expiresAt: string;
    secret: string;
  };

interface Stream {
  status: number;
  events: string[];
  /** Events that said a phone had opened the link. */
  connected: number;
  ended: Promise<void>;
  close(): void;
}

/** Opens an event stream as `client` (X-Forwarded-For, trusted here) and collects its status events. */
async function openStream(session: string, secret: string | undefined, client = '198.51.100.1'): Promise<Stream> {
  const controller = new AbortController();
  const query = secret === undefined ? '' : `?secret=${secret}`;
  const response = await fetch(`${url}/sessions/${session}/events${query}`, {
    headers: { 'x-forwarded-for': client },
    signal: controller.signal,
  });
  const events: string[] = [];
  const stream = { status: response.status, events, connected: 0, close: () => controller.abort() };
  const ended = (async () => {
    if (response.status !== 200) return void (await response.text());
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body! as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk);
        for (const match of text.matchAll(/"status":"(\w+)"/g)) events.push(match[1]!);
        stream.connected += text.match(/"phoneConnected":true/g)?.length ?? 0;
      }
    } catch {
      // aborted by close()
    }
  })();
  return Object.assign(stream, { ended });
}

describe('session secrets', () => {
  it('hands the secret out once and stores only its SHA-256', async () => {
    const created = await create();
    expect(created.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.status).toBe('pending');
    const stored = await t.storage.sessions.find(created.session);
    expect(stored?.secretHash).toBe(hashSessionSecret(created.secret));
    expect(stored?.secretHash).not.toContain(created.secret);
  });

  it('reads the outcome only with the secret; the phone learns only whether the session is open', async () => {
    const { session, secret } = await create();
    const read = (headers: Record<string, string>) => fetch(`${url}/sessions/${session}`, { headers });
    expect((await read({})).status).toBe(403);
    const wrong = await read({ 'session-secret': 'A'.repeat(43) });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({
      error: { code: 'SESSION_SECRET_REQUIRED', message: 'Only the screen that created this session can read its outcome.' },
    });
    expect(await (await read({ 'session-secret': secret })).json()).toMatchObject({ session, status: 'pending' });
    expect((await openStream(session, undefined)).status).toBe(403);
    expect((await openStream(session, 'B'.repeat(43))).status).toBe(403);

    const open = await (await fetch(`${url}/sessions/${session}/open`)).json();
    expect(open).toEqual({ session, open: true, expiresAt: expect.any(String) });
    expect((await fetch(`${url}/sessions/${'0'.repeat(32)}/open`)).status).toBe(404);
  });

  it('sends the event stream with the headers every other reply has: security (DESIGN §6) and CORS', async () => {
    // A screen served from another allowed origin (CORS_ORIGINS) must be able to read the stream.
    const cross = await startTestApp({ env: { CORS_ORIGINS: 'https://screen.example' } });
    try {
      const crossUrl = await cross.app.listen({ port: 0, host: '127.0.0.1' });
      const { session, secret } = (await (await fetch(`${crossUrl}/sessions`, { method: 'POST' })).json()) as {
        session: string;
        secret: string;
      };
      const controller = new AbortController();
      const response = await fetch(`${crossUrl}/sessions/${session}/events?secret=${secret}`, {
        headers: { origin: 'https://screen.example' },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('access-control-allow-origin')).toBe('https://screen.example');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      controller.abort();
    } finally {
      await cross.destroy();
    }
  });

  it('keeps the stream secret out of the logs', async () => {
    const { session } = await create();
    const wrong = 'C'.repeat(43);
    expect((await openStream(session, wrong)).status).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logs = t.logs.join('');
    // The access line names the route's pattern and drops the query string (decision 019).
    expect(logs).toContain('/sessions/:id/events?[redacted]');
    expect(logs).not.toContain(wrong);
    expect(logs).not.toContain(session);
  });
});

describe('a phone opening the link', () => {
  it('is told to the screen at once, on its stream and when it reads the session, and no more once settled', async () => {
    const { session, secret } = await create();
    const read = async () => (await fetch(`${url}/sessions/${session}`, { headers: { 'session-secret': secret } })).json();
    const stream = await openStream(session, secret);
    await until(() => stream.events.length === 1);
    expect(await read()).toEqual({ session, status: 'pending', expiresAt: expect.any(String) });

    await fetch(`${url}/sessions/${session}/open`);
    await until(() => stream.connected === 1);
    expect(stream.events).toEqual(['pending', 'pending']);
    expect(await read()).toEqual({ session, status: 'pending', expiresAt: expect.any(String), phoneConnected: true });
    // A screen that starts following later hears it in its first event.
    const later = await openStream(session, secret, '198.51.100.3');
    await until(() => later.connected === 1);

    await fetch(`${url}/sessions/${session}/failure`, { method: 'POST' });
    await Promise.all([stream.ended, later.ended]);
    expect(stream.events).toEqual(['pending', 'pending', 'failure']);
    expect(stream.connected).toBe(1);
    expect(await read()).toEqual({ session, status: 'failure', expiresAt: expect.any(String) });
  });
});

describe('a phone reporting failure', () => {
  it('fails the session at once, and every stream of the screen hears it and ends', async () => {
    const { session, secret } = await create();
    const streams = [await openStream(session, secret), await openStream(session, secret, '198.51.100.2')];
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    await until(() => streams.every((s) => s.events.length === 1));

    const reported = await fetch(`${url}/sessions/${session}/failure`, { method: 'POST' });
    expect(await reported.json()).toEqual({ session, open: false, expiresAt: expect.any(String) });
    await Promise.all(streams.map((s) => s.ended));
    expect(streams.map((s) => s.events)).toEqual([
      ['pending', 'failure'],
      ['pending', 'failure'],
    ]);
    // Once settled, a report changes nothing: a completed session stays as it was.
    const done = await create();
    await t.storage.sessions.complete(done.session, 'success');
    await fetch(`${url}/sessions/${done.session}/failure`, { method: 'POST' });
    const after = await fetch(`${url}/sessions/${done.session}`, { headers: { 'session-secret': done.secret } });
    expect(((await after.json()) as { status: string }).status).toBe('awaiting-code');
    expect((await fetch(`${url}/sessions/${'0'.repeat(32)}/failure`, { method: 'POST' })).status).toBe(404);
  });
});

describe('event stream caps', () => {
  it('refuses streams past the per-session and per-client caps with a 429 and Retry-After, and frees places on close', async () => {
    const a = await create();
    const b = await create();
    const c = await create();
    const client = '203.0.113.9';
    const first = [await openStream(a.session, a.secret, client), await openStream(a.session, a.secret, client)];
    expect(first.map((s) => s.status)).toEqual([200, 200]);

    const sessionFull = await fetch(`${url}/sessions/${a.session}/events?secret=${a.secret}`, {
      headers: { 'x-forwarded-for': '203.0.113.10' },
    });
    expect(sessionFull.status).toBe(429);
    expect(sessionFull.headers.get('retry-after')).toBe('10');
    expect(((await sessionFull.json()) as { error: { code: string } }).error.code).toBe('TOO_MANY_STREAMS');
    // A wrong secret is refused as such, full session or not: it never takes the screen's place.
    const wrongSecret = await fetch(`${url}/sessions/${a.session}/events?secret=${b.secret}`, {
      headers: { 'x-forwarded-for': '203.0.113.10' },
    });
    expect(wrongSecret.status).toBe(403);

    const third = await openStream(b.session, b.secret, client);
    expect(third.status).toBe(200);
    const clientFull = await openStream(c.session, c.secret, client);
    expect(clientFull.status).toBe(429);
    // A refused stream holds nothing: another client still gets c.
    const elsewhere = await openStream(c.session, c.secret, '203.0.113.11');
    expect(elsewhere.status).toBe(200);

    first[0]!.close();
    await first[0]!.ended;
    let again: Stream | undefined;
    for (let tries = 0; tries < 50 && again?.status !== 200; tries++) {
      again = await openStream(c.session, c.secret, client);
      if (again.status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(again?.status).toBe(200);
    const metrics = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/^zeroid_session_streams 4$/m);
    expect(metrics).toMatch(/^zeroid_watched_sessions 3$/m);
    for (const stream of [first[1]!, third, elsewhere, again!]) stream.close();
  });
});

describe('the per-client limit on the phone calls', () => {
  it('refuses GET /sessions/:id/open and the failure report past RATE_LIMIT_PER_MINUTE, each client on its own', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const { session } = (await limited.app.inject({ method: 'POST', url: '/sessions', remoteAddress: '203.0.113.30' })).json<{
        session: string;
      }>();
      for (const [method, url] of [
        ['GET', `/sessions/${session}/open`],
        ['POST', `/sessions/${'0'.repeat(32)}/failure`],
      ] as const) {
        const from = async (remoteAddress: string) => (await limited.app.inject({ method, url, remoteAddress })).statusCode;
        expect([await from('203.0.113.31'), await from('203.0.113.31'), await from('203.0.113.31')], url).toEqual([
          method === 'GET' ? 200 : 404,
          method === 'GET' ? 200 : 404,
          429,
        ]);
        expect(await from('203.0.113.32'), url).toBe(method === 'GET' ? 200 : 404);
      }
    } finally {
      await limited.destroy();
    }
  });
});
