import { afterEach, describe, expect, it, vi } from 'vitest';
import Fastify from 'fastify';
import { errorHandler } from './error-handler.ts';
import { perClientLimited } from './per-client-limit.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('the per-client limit on routes that test no guess', () => {
  it("gives each client a minute of its own, from its first request, so another's window never refills or shortens it", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const app = Fastify();
    app.setErrorHandler(errorHandler);
    app.get('/work', { ...perClientLimited({ perMinute: 3, ipv6Prefix: 64 }) }, async () => ({ ok: true }));
    const from = async (remoteAddress: string) => {
      const reply = await app.inject({ method: 'GET', url: '/work', remoteAddress });
      return reply.statusCode === 429 ? `429 after ${reply.headers['retry-after']} s` : String(reply.statusCode);
    };
    const [a, b] = ['203.0.113.1', '203.0.113.2'];
    try {
      for (let i = 0; i < 3; i++) expect(await from(a)).toBe('200');
      expect(await from(a)).toBe('429 after 60 s');

      // B comes 30 s later: it gets all 3 requests, and its own minute.
      vi.advanceTimersByTime(30_000);
      for (let i = 0; i < 3; i++) expect(await from(b)).toBe('200');
      expect(await from(b)).toBe('429 after 60 s');
      expect(await from(a)).toBe('429 after 30 s');

      // A's minute has ended and B's has not.
      vi.advanceTimersByTime(31_000);
      expect(await from(a)).toBe('200');
      expect(await from(b)).toBe('429 after 29 s');
    } finally {
      await app.close();
    }
  });
});
