import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.destroy();
  t = undefined;
});

const verify = (app: TestApp, headers: Record<string, string> = {}) =>
  app.app.inject({ method: 'POST', url: '/verify', payload: { bio_info: 'limit probe' }, headers, remoteAddress: '203.0.113.7' });

describe('limits on the routes that can test a guess', () => {
  it('answers 429 with Retry-After past the per-client limit, and a spoofed X-Forwarded-For resets nothing', async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_GLOBAL_PER_MINUTE: '1000' } });
    for (let i = 0; i < 3; i++) expect((await verify(t)).statusCode).toBe(200);
    const limited = await verify(t);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect((await verify(t, { 'x-forwarded-for': '198.51.100.1' })).statusCode).toBe(429);
    for (const url of ['/oprf', '/register', '/challenge']) {
      const reply = await t.app.inject({ method: 'POST', url, payload: {}, remoteAddress: '203.0.113.7' });
      expect(reply.statusCode, url).not.toBe(500);
    }
  });

  it('limits every client together with the global budget', async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_GLOBAL_PER_MINUTE: '4' } });
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => t!.app.inject({ method: 'GET', url: '/members', remoteAddress: `203.0.113.${i + 1}` })),
    );
    expect(replies.filter((r) => r.statusCode === 429)).toHaveLength(2);
  });

  it('trusts X-Forwarded-For only from a configured proxy', async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: 'true' } });
    for (let i = 0; i < 2; i++) expect((await verify(t, { 'x-forwarded-for': '198.51.100.1' })).statusCode).toBe(200);
    expect((await verify(t, { 'x-forwarded-for': '198.51.100.1' })).statusCode).toBe(429);
    expect((await verify(t, { 'x-forwarded-for': '198.51.100.2' })).statusCode).toBe(200);
  });

  it('is off with RATE_LIMIT_PER_MINUTE=0', async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    const replies = await Promise.all(Array.from({ length: 30 }, () => verify(t!)));
    expect(replies.every((r) => r.statusCode === 200)).toBe(true);
  });
});
