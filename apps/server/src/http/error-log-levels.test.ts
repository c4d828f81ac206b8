import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { errorHandler } from './error-handler.ts';
import { Problem } from '../problem.ts';

/** Pino's numeric levels, as the server's JSON log lines carry them. */
const WARN = 40;
const ERROR = 50;

describe('how a 5xx is logged', () => {
  it('logs a refusal the server chose (busy, retry later) as a warning without a stack, and a bug as an error with its stack', async () => {
    type LogLine = { level: number; msg: string; code?: string; err?: { stack?: string } };
    const lines: LogLine[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as LogLine);
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream } });
    app.setErrorHandler(errorHandler);
    app.get('/busy', async () => {
      throw new Problem(503, 'NOISY_BUSY', 'Busy.', { 'retry-after': '1' });
    });
    app.get('/bug', async () => {
      throw new Error('a bug of ours');
    });
    try {
      const busy = await app.inject({ method: 'GET', url: '/busy' });
      expect(busy.statusCode).toBe(503);
      const refused = lines.find((line) => line.code === 'NOISY_BUSY');
      expect(refused?.level).toBe(WARN);
      expect(JSON.stringify(refused)).not.toContain('stack');
      expect(lines.some((line) => line.level >= ERROR)).toBe(false);

      const bug = await app.inject({ method: 'GET', url: '/bug' });
      expect(bug.statusCode).toBe(500);
      const failed = lines.find((line) => line.level === ERROR);
      expect(failed?.msg).toBe('request failed');
      expect(failed?.err?.stack).toContain('a bug of ours');
    } finally {
      await app.close();
    }
  });
});
