import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.destroy();
  t = undefined;
});

/** Waits past the next minute boundary when one is near: the global budget's windows are the clock's minutes. */
const clearOfMinuteBoundary = async () => {
  const msIntoMinute = Date.now() % 60_000;
  if (msIntoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - msIntoMinute));
};

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
    await clearOfMinuteBoundary();
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
    // A proxy that writes the client's port: each client keeps its own allowance (decision 071).
    for (let i = 0; i < 2; i++) expect((await verify(t, { 'x-forwarded-for': `198.51.100.3:${4000 + i}` })).statusCode).toBe(200);
    expect((await verify(t, { 'x-forwarded-for': '198.51.100.3:4002' })).statusCode).toBe(429);
    expect((await verify(t, { 'x-forwarded-for': '[2001:db8::1]:4003' })).statusCode).toBe(200);
    expect((await verify(t, { 'x-forwarded-for': '198.51.100.4:4004' })).statusCode).toBe(200);
  });

  it('groups IPv6 clients by /64 for the burst limit, and IPv4-mapped addresses count as IPv4', async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_GLOBAL_PER_MINUTE: '1000' } });
    const from = (remoteAddress: string) =>
      t!.app.inject({ method: 'POST', url: '/verify', payload: { bio_info: 'limit probe' }, remoteAddress });
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff:ffff:ffff:ffff']) {
      expect((await from(address)).statusCode).toBe(200);
    }
    expect((await from('2001:db8:1:2:abcd::9')).statusCode, 'the same /64').toBe(429);
    expect((await from('2001:db8:1:3::1')).statusCode, 'the next /64').toBe(200);
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.20')).statusCode).toBe(200);
    expect((await from('::ffff:203.0.113.20')).statusCode).toBe(429);
  });

  it('groups IPv6 clients by the configured prefix (IPV6_CLIENT_PREFIX)', async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1', IPV6_CLIENT_PREFIX: '128' } });
    const from = (remoteAddress: string) => t!.app.inject({ method: 'GET', url: '/members', remoteAddress });
    expect((await from('2001:db8:1:2::1')).statusCode).toBe(200);
    expect((await from('2001:db8:1:2::2')).statusCode).toBe(200);
    expect((await from('2001:db8:1:2::2')).statusCode).toBe(429);
  });

  it('is off with RATE_LIMIT_PER_MINUTE=0', async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    const replies = await Promise.all(Array.from({ length: 30 }, () => verify(t!)));
    expect(replies.every((r) => r.statusCode === 200)).toBe(true);
  });
});

describe('failed verifications (NIST SP 800-63B-4 §3.2.3 throttling)', () => {
  const wrong = (app: TestApp, address: string, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'POST', url: '/verify', payload: { bio_info: 'not registered' }, headers, remoteAddress: address });
  const env = { RATE_LIMIT_PER_MINUTE: '1000', RATE_LIMIT_GLOBAL_PER_MINUTE: '100000', GUESS_DELAY_SECONDS: '30' };

  it('makes a client wait at least 30 s after 5 failures, with Retry-After, across a restart, whatever X-Forwarded-For says', async () => {
    t = await startTestApp({ env });
    for (let i = 0; i < 5; i++) expect((await wrong(t, '203.0.113.9')).json()).toEqual({ 'Verification Result': 'Failure' });
    const waiting = await wrong(t, '203.0.113.9');
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json().error.code).toBe('TOO_MANY_FAILURES');
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThanOrEqual(29);
    expect(Number(waiting.headers['retry-after'])).toBeLessThanOrEqual(30);
    // When the wait ends, by this clock: the restart must keep that moment, however long it takes.
    const waitEnds = Date.now() + Number(waiting.headers['retry-after']) * 1000;
    expect((await wrong(t, '203.0.113.9', { 'x-forwarded-for': '198.51.100.77' })).statusCode).toBe(429);
    // Another client is not held back by this one.
    expect((await wrong(t, '203.0.113.10')).statusCode).toBe(200);

    const dataDir = t.dataDir;
    await t.close();
    t = await startTestApp({ env, dataDir });
    const afterRestart = await wrong(t, '203.0.113.9');
    expect(afterRestart.statusCode).toBe(429);
    // Retry-After counts whole seconds, rounded up: the same end, give or take the rounding on each side.
    const waitEndsAfterRestart = Date.now() + Number(afterRestart.headers['retry-after']) * 1000;
    expect(Math.abs(waitEndsAfterRestart - waitEnds)).toBeLessThanOrEqual(2000);
    const rows = await t.storage.attempts.attempts('203.0.113.9', Date.now(), 86_400_000);
    expect(rows, 'the table keys clients by a keyed hash, not by address').toBeUndefined();
  });

  it('holds back a whole IPv6 /64 after its failures, and refuses it on raw /register too', async () => {
    t = await startTestApp({ env });
    for (let i = 1; i <= 5; i++) expect((await wrong(t, `2001:db8:9:9::${i}`)).statusCode).toBe(200);
    const waiting = await wrong(t, '2001:db8:9:9:ffff::1');
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json().error.code).toBe('TOO_MANY_FAILURES');
    const register = await t.app.inject({
      method: 'POST',
      url: '/register',
      payload: { id_info: 'locked out id', bio_info: 'locked out guess' },
      remoteAddress: '2001:db8:9:9::77',
    });
    expect(register.statusCode).toBe(429);
    expect(register.json().error.code).toBe('TOO_MANY_FAILURES');
    expect(await t.storage.identities.commitmentsFrom(0), 'nothing was evaluated or written').toEqual([]);
    expect((await wrong(t, '2001:db8:9:a::1')).statusCode, 'another /64').toBe(200);
  });

  it('doubles the wait with each further failure, up to the maximum, and a success gives back only its own reservation', async () => {
    const { GuessBudget } = await import('../limits/guess-budget.ts');
    let now = 1_000_000;
    t = await startTestApp({ env });
    const limits = new GuessBudget(
      t.storage.attempts,
      {
        globalPerMinute: 0,
        failuresBeforeDelay: 5,
        guessCapacity: 0,
        guessRefillMs: 900_000,
        delayMs: 30_000,
        maxDelayMs: 100_000,
        forgetAfterMs: 86_400_000,
      },
      new Uint8Array(32),
      () => now,
    );
    expect([4, 5, 6, 7, 8].map((n) => limits.waitAfter(n))).toEqual([0, 30_000, 60_000, 100_000, 100_000]);
    const verification = { guesses: 0, verification: true };
    for (let i = 0; i < 5; i++) await limits.admit('client', verification);
    // The fifth failure was at `now`: the sixth attempt waits 30 s, then may run, and a seventh waits 60 s more.
    await expect(limits.admit('client', verification)).rejects.toMatchObject({ code: 'TOO_MANY_FAILURES', retryAfterSeconds: 30 });
    now += 30_000;
    const sixth = await limits.admit('client', verification);
    now += 59_000;
    await expect(limits.admit('client', verification)).rejects.toMatchObject({ retryAfterSeconds: 1 });
    // The sixth succeeded: its reservation comes back, so the client is at 5 failures again (wait 30 s from it).
    await sixth.releaseVerification();
    await expect(limits.admit('client', verification)).resolves.toBeDefined();
    expect(await t.storage.attempts.attempts(`failures:${limits.clientId('client')}`, now, 86_400_000)).toEqual({ count: 6, lastAt: now });
  });

  it('keeps the global budget in the database, so a restart does not refill it', async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_GLOBAL_PER_MINUTE: '3' } });
    const dataDir = t.dataDir;
    const members = (app: TestApp, i: number) => app.app.inject({ method: 'GET', url: '/members', remoteAddress: `203.0.113.${i}` });
    // A minute boundary between the two halves would start a new window and refill the budget.
    await clearOfMinuteBoundary();
    for (let i = 0; i < 2; i++) expect((await members(t, i)).statusCode).toBe(200);
    await t.close();
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_GLOBAL_PER_MINUTE: '3' }, dataDir });
    expect((await members(t, 3)).statusCode).toBe(200);
    const spent = await members(t, 4);
    expect(spent.statusCode).toBe(429);
    expect(Number(spent.headers['retry-after'])).toBeGreaterThan(0);
  });
});
