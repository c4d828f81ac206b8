import { request } from 'node:http';
import { generateOprfKeyPair } from '@zeroid/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../server-process.ts';
import { report } from './chaos-settings.ts';
import { post } from '../support/post.ts';
import { removeTempDirs, tempDir } from '../support/temp-dir.ts';

/**
 * SIGTERM while requests are in flight: the instance drains (not ready, still serving), then stops
 * accepting connections; a burst of registrations and one whose body is still arriving when the
 * listener closes all get their answer, what was acknowledged is stored, and the process exits 0.
 */
const dataDir = tempDir('zeroid-chaos-term-');
afterAll(removeTempDirs);

/** Sends the body in two parts, `pauseMs` apart. */
function slowRegistration(url: string, body: unknown, pauseMs: number) {
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const req = request(
      `${url}/register`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    req.on('error', reject);
    req.write(payload.slice(0, 10));
    setTimeout(() => req.end(payload.slice(10)), pauseMs);
  });
}

describe('graceful shutdown', () => {
  it('lets in-flight requests finish on SIGTERM, then exits 0', async () => {
    const { privateKey } = await generateOprfKeyPair();
    const env = { DATA_DIR: dataDir, OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url'), SHUTDOWN_DRAIN_MS: '1000' };
    const server = await startServerProcess(env);
    const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));

    const burst = Array.from({ length: 12 }, (_, i) =>
      post(server.url, '/register', { id_info: `term-${i}`, bio_info: `term biometric ${i}` }),
    );
    // Its body is still arriving when the drain ends and the server stops accepting connections.
    const slow = slowRegistration(server.url, { id_info: 'term-slow', bio_info: 'term biometric slow' }, 1800);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalledAt = Date.now();
    server.process.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const whileDraining = await fetch(`${server.url}/healthz`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const refused = await fetch(`${server.url}/livez`).then(
      () => false,
      () => true,
    );

    const burstReplies = await Promise.all(
      burst.map(async (r) => ({ status: (await r).status, body: (await (await r).json()) as Record<string, unknown> })),
    );
    const slowReply = await slow;
    const code = await exited;
    report('graceful-shutdown', {
      inFlight: burst.length + 1,
      answered200: [...burstReplies, slowReply].filter((r) => r.status === 200).length,
      exitCode: code,
      exitAfterSignalMs: Date.now() - signalledAt,
    });

    expect(burstReplies.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(slowReply).toEqual({ status: 200, body: expect.objectContaining({ 'DID already generated': false }) });
    expect(whileDraining.status, 'draining: not ready, still answering').toBe(503);
    expect(refused, 'a new connection after the drain is refused').toBe(true);
    expect(code).toBe(0);

    const restarted = await startServerProcess(env);
    try {
      const again = await post(restarted.url, '/register', { id_info: 'term-slow', bio_info: 'term biometric slow' });
      expect(((await again.json()) as Record<string, unknown>)['DID already generated']).toBe(true);
      const health = (await (await fetch(`${restarted.url}/healthz`)).json()) as { members: number };
      expect(health.members).toBe(13);
    } finally {
      await restarted.stop();
    }
  }, 90_000);
});
