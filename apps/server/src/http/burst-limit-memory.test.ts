import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'true' } });
});
afterAll(() => t.destroy());

describe('the burst limit of a guess-capable route', () => {
  it('still refuses a client after 6,000 other clients in its minute (the library forgot past 5,000)', async () => {
    // A malformed body: the burst limit counts it before validation, and nothing else is spent.
    const from = async (address: string) =>
      (await t.app.inject({ method: 'POST', url: '/verify', payload: {}, headers: { 'x-forwarded-for': address } })).statusCode;
    const first = [];
    for (let i = 0; i < 4; i++) first.push(await from('198.51.100.40'));
    expect(first).toEqual([400, 400, 400, 429]);
    // 6,000 /64 networks of one /51.
    for (let i = 0; i < 6000; i++) await from(`2001:db8:${(i >> 8).toString(16)}:${(i & 255).toString(16)}::1`);
    expect(await from('198.51.100.40')).toBe(429);
  }, 60_000);
});
