import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * URLs refused before routing get our error shape, not Fastify's (which echoes the URL). The headers
 * themselves are checked with every other reply in security-headers.test.ts; a real process answers a
 * raw socket the same way in test/operational-surface.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.destroy();
});

const SESSION_LIKE = 'feedc0de'.repeat(4);

describe('frameworkErrors', () => {
  it.each([
    ['/%zz', 400, 'BAD_URL'],
    [`/sessions/${SESSION_LIKE}%E0%A4%A`, 400, 'BAD_URL'],
    [`/sessions/${SESSION_LIKE}%zz/events?session=${SESSION_LIKE}`, 400, 'BAD_URL'],
    [`/did/did:key:${SESSION_LIKE.repeat(4)}`, 414, 'URL_TOO_LONG'],
  ])('answers %s with %i {error: {code: %s}}, no-store, and neither the reply nor the log quotes the URL', async (url, status, code) => {
    const logsBefore = t.logs.length;
    const reply = await t.app.inject({ method: 'GET', url });
    expect(reply.statusCode).toBe(status);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    const body = reply.json<{ error: { code: string; message: string } }>();
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
    expect(body.error.code).toBe(code);
    expect(reply.body).not.toContain(SESSION_LIKE);
    expect(reply.body).not.toContain('%');
    const logs = t.logs.slice(logsBefore).join('');
    expect(logs).toContain(`"code":"${code}"`);
    expect(logs).not.toContain(SESSION_LIKE);
  });
});
