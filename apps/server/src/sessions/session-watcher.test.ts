import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from '../storage/open-storage.ts';
import type { SessionRepository, Storage } from '../storage/types.ts';
import { createSessionWatcher, type SessionState } from './session-watcher.ts';
import { until } from '../../test/support/until.ts';
import { removeTempDirs, tempDir } from '../../test/support/temp-dir.ts';

let dataDir: string;
let storage: Storage;
beforeAll(async () => {
  dataDir = tempDir('zeroid-watcher-');
  storage = await openStorage({ dataDir });
});
afterAll(async () => {
  await storage.close();
  removeTempDirs();
});

let counter = 0;
async function newSession(ttlMs = 60_000): Promise<SessionState> {
  const id = (++counter).toString(16).padStart(32, '0');
  const expiresAt = new Date(Date.now() + ttlMs);
  await storage.sessions.create(id, expiresAt, 'hash');
  return { id, status: 'pending', expiresAt };
}

/** The real repository, recording each read: how many ids it asked for, and how many ran at once. */
function recordedReads(delayMs = 0) {
  const reads: number[] = [];
  let running = 0;
  let maxRunning = 0;
  const sessions: Pick<SessionRepository, 'findChanged'> = {
    async findChanged(ids) {
      reads.push(ids.length);
      maxRunning = Math.max(maxRunning, ++running);
      try {
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return await storage.sessions.findChanged(ids);
      } finally {
        running--;
      }
    },
  };
  return { sessions, reads, maxRunning: () => maxRunning };
}

describe('session watcher', () => {
  it('reads every watched session in one query per poll, however many streams follow them, and tells each stream once', async () => {
    const { sessions, reads } = recordedReads();
    const watcher = createSessionWatcher(sessions, { intervalMs: 20 });
    const watchedSessions = await Promise.all([newSession(), newSession(), newSession()]);
    const heard: SessionState[][] = [];
    for (let i = 0; i < 300; i++) {
      const mine: SessionState[] = [];
      heard.push(mine);
      watcher.watch(watchedSessions[i % 3]!, (state) => mine.push(state));
    }
    expect(watcher.watchedSessions).toBe(3);
    await until(() => reads.length >= 3);
    expect(reads.slice(0, 3)).toEqual([3, 3, 3]);

    await storage.sessions.complete(watchedSessions[0].id, 'success');
    await until(() => heard[0]!.length > 0);
    await until(() => reads.length >= 6);
    // Every stream of the completed session heard it exactly once; the others heard nothing.
    expect(heard.filter((_, i) => i % 3 === 0).every((h) => h.length === 1 && h[0]!.status === 'success')).toBe(true);
    expect(heard.filter((_, i) => i % 3 !== 0).every((h) => h.length === 0)).toBe(true);
    expect(watcher.watchedSessions).toBe(2);
    expect(reads.at(-1)).toBe(2);
    watcher.close();
  });

  it('tells a phone opening the link once and keeps watching, then the completion, from the row any process wrote', async () => {
    const { sessions } = recordedReads();
    const watcher = createSessionWatcher(sessions, { intervalMs: 10 });
    const session = await newSession();
    const seen: string[] = [];
    watcher.watch(session, (state) => seen.push(`${state.status}${state.phoneOpened ? ' opened' : ''}`));
    expect(await storage.sessions.markOpened(session.id)).toBe(true);
    await until(() => seen.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(watcher.watchedSessions).toBe(1);
    await storage.sessions.complete(session.id, 'failure');
    await until(() => seen.length === 2);
    expect(seen).toEqual(['pending opened', 'failure opened']);
    expect(watcher.watchedSessions).toBe(0);
    watcher.close();
  });

  it('never starts a poll before the previous one has finished, when the database is slower than the interval', async () => {
    const { sessions, reads, maxRunning } = recordedReads(60);
    const watcher = createSessionWatcher(sessions, { intervalMs: 5 });
    const twenty = await Promise.all(Array.from({ length: 20 }, () => newSession()));
    for (const session of twenty) watcher.watch(session, () => undefined);
    await until(() => reads.length >= 5);
    expect(maxRunning()).toBe(1);
    expect(reads.every((n) => n === 20)).toBe(true);
    watcher.close();
  });

  it('does not take a session watched during a poll for a vanished one', async () => {
    const { sessions, reads } = recordedReads(40);
    const watcher = createSessionWatcher(sessions, { intervalMs: 1 });
    const seen: string[] = [];
    watcher.watch(await newSession(), (state) => seen.push(state.status));
    await until(() => reads.length === 1);
    // The first poll is still reading when these are watched.
    const late = await Promise.all(Array.from({ length: 10 }, () => newSession()));
    for (const session of late) watcher.watch(session, (state) => seen.push(state.status));
    await until(() => reads.length >= 3);
    expect(seen).toEqual([]);
    expect(reads.at(-1)).toBe(11);
    watcher.close();
  });

  it('reports expiry without a read of its own, stops reading a session nobody follows, and stops polling with no session left', async () => {
    const { sessions, reads } = recordedReads();
    const watcher = createSessionWatcher(sessions, { intervalMs: 10 });
    const short = await newSession(30);
    const seen: string[] = [];
    watcher.watch(short, (state) => seen.push(state.status));
    await until(() => seen.length > 0);
    expect(seen).toEqual(['expired']);
    expect(watcher.watchedSessions).toBe(0);

    const stop = watcher.watch(await newSession(), () => seen.push('unexpected'));
    await until(() => reads.length >= 2);
    stop();
    expect(watcher.watchedSessions).toBe(0);
    const readsWhenIdle = reads.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(reads.length).toBeLessThanOrEqual(readsWhenIdle + 1);
    expect(seen).toEqual(['expired']);
    watcher.close();
  });
});
