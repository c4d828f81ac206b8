import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../server-process.ts';
import { report, SLOW_CLIENTS } from './chaos-settings.ts';
import { post } from '../support/post.ts';
import { median } from '../support/median.ts';
import { removeTempDirs, tempDir } from '../support/temp-dir.ts';

/**
 * Slowloris: hundreds of clients that open a connection and dribble out their headers or body a
 * byte at a time. They must not slow healthy clients down (p95 within 2× of an idle twin server
 * process's, measured in turns with the attacked one, so this machine's other load weighs on both
 * sides of the ratio alike), and Node's lowered header timeout must cut them off instead of holding a
 * socket each for minutes.
 */
const dataDir = tempDir('zeroid-chaos-slow-');
afterAll(removeTempDirs);

async function healthyP95(url: string, requests: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    const response = await post(url, '/verify', { bio_info: 'slow clients healthy probe' });
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.ceil(times.length * 0.95) - 1]!;
}

function slowClient(port: number, kind: 'headers' | 'body'): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(
    kind === 'headers'
      ? 'POST /verify HTTP/1.1\r\nHost: 127.0.0.1\r\n'
      : 'POST /verify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"bio_info":"',
  );
  const drip = setInterval(() => socket.writable && socket.write(kind === 'headers' ? 'X' : 'a'), 500);
  socket.on('close', () => clearInterval(drip));
  return socket;
}

describe('slow clients', () => {
  it(`${SLOW_CLIENTS} slow connections keep healthy clients within 2× their p95, and are cut off by the header and request timeouts`, async () => {
    const [server, twin] = await Promise.all([
      startServerProcess({ DATA_DIR: dataDir }),
      startServerProcess({ DATA_DIR: path.join(dataDir, 'twin') }),
    ]);
    try {
      const port = Number(new URL(server.url).port);
      await Promise.all([healthyP95(server.url, 150), healthyP95(twin.url, 150)]); // warm up
      const baseline = await healthyP95(server.url, 150);

      const sockets = Array.from({ length: SLOW_CLIENTS }, (_, i) => slowClient(port, i % 2 === 0 ? 'headers' : 'body'));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const open = sockets.filter((s) => !s.destroyed).length;
      // Five turns, well inside the 10 s header timeout that will cut the slow clients off.
      const underAttack: number[] = [];
      const ratios: number[] = [];
      for (let turn = 0; turn < 5; turn++) {
        underAttack.push(await healthyP95(server.url, 40));
        ratios.push(underAttack.at(-1)! / (await healthyP95(twin.url, 40)));
      }
      const openAfter = sockets.filter((s) => !s.destroyed).length;

      // headersTimeout (10 s) and requestTimeout (15 s), checked every second.
      const started = Date.now();
      while (sockets.some((s) => !s.destroyed) && Date.now() - started < 25_000) await new Promise((resolve) => setTimeout(resolve, 250));
      const stillOpen = sockets.filter((s) => !s.destroyed).length;
      for (const socket of sockets) socket.destroy();

      report('slow-clients', {
        slowClients: SLOW_CLIENTS,
        openDuringMeasurement: open,
        openAfterMeasurement: openAfter,
        baselineP95Ms: Number(baseline.toFixed(1)),
        underAttackMedianP95Ms: Number(median(underAttack).toFixed(1)),
        medianRatioToIdleTwin: Number(median(ratios).toFixed(2)),
        cutOffWithinMs: Date.now() - started,
        stillOpen,
      });
      expect(open).toBe(SLOW_CLIENTS);
      expect(openAfter).toBe(SLOW_CLIENTS);
      expect(median(ratios)).toBeLessThan(2);
      expect(stillOpen).toBe(0);
    } finally {
      await Promise.all([server.stop(), twin.stop()]);
    }
  }, 120_000);
});
