import { describe, expect, it } from 'vitest';
import { retryOnContention } from './retry-on-contention.ts';

const failing = (codes: string[], result = 'done') => {
  let calls = 0;
  const transaction = async () => {
    const code = codes[calls++];
    if (code) throw Object.assign(new Error(code), { code });
    return result;
  };
  return { transaction, calls: () => calls };
};

describe('retryOnContention', () => {
  it.each(['40001', '40P01', 'SQLITE_BUSY_SNAPSHOT'])('runs the transaction again after %s', async (code) => {
    const attempt = failing([code, code]);
    expect(await retryOnContention(attempt.transaction)).toBe('done');
    expect(attempt.calls()).toBe(3);
  });

  it.each(['23505', 'SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_READONLY', 'ECONNREFUSED', '57P01'])(
    'lets %s through at once: busy_timeout already waited, and the rest are not races',
    async (code) => {
      const attempt = failing([code]);
      await expect(retryOnContention(attempt.transaction)).rejects.toMatchObject({ code });
      expect(attempt.calls()).toBe(1);
    },
  );

  it('gives up after the last attempt with the database error', async () => {
    const attempt = failing(Array.from({ length: 10 }, () => '40P01'));
    await expect(retryOnContention(attempt.transaction, 3)).rejects.toMatchObject({ code: '40P01' });
    expect(attempt.calls()).toBe(3);
  });
});
