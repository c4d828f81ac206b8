import { describe, expect, it } from 'vitest';
import { OprfNodesUnavailable } from './evaluate-with-nodes.ts';
import { nodeRoundQueue, OprfNodesBusy } from './node-round-queue.ts';

/** A run the test finishes when it likes: `work` for the queue, `finish` to end it. */
function gate() {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done, finish };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('nodeRoundQueue (decision 075)', () => {
  it('runs at most `concurrency` at once and starts the waiting ones in arrival order', async () => {
    const queue = nodeRoundQueue({ concurrency: 2, waiting: 10 });
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, gate);
    const runs = gates.map((g, i) =>
      queue.run(async () => {
        started.push(i);
        await g.work();
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(queue.depth()).toEqual({ running: 2, waiting: 3 });
    gates[1]!.finish();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.finish();
    gates[2]!.finish();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    gates[3]!.finish();
    gates[4]!.finish();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(queue.depth()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses at once beyond `waiting`, with a Retry-After of at least a second, and sends nothing for it', async () => {
    const queue = nodeRoundQueue({ concurrency: 1, waiting: 1 });
    const first = gate();
    const ran: string[] = [];
    const running = queue.run(async () => {
      ran.push('first');
      await first.work();
    });
    const waiting = queue.run(async () => {
      ran.push('second');
    });
    const refusal = await queue
      .run(async () => {
        ran.push('third');
      })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OprfNodesBusy);
    // An OprfNodesUnavailable, so the route gives the counted guess back (spend-guess.ts).
    expect(refusal).toBeInstanceOf(OprfNodesUnavailable);
    expect((refusal as OprfNodesBusy).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    first.finish();
    await Promise.all([running, waiting]);
    expect(ran).toEqual(['first', 'second']);
  });

  it('gives the slot back when a run fails, so the queue keeps draining', async () => {
    const queue = nodeRoundQueue({ concurrency: 1, waiting: 5 });
    const failing = queue.run(() => Promise.reject(new Error('node round failed')));
    const next = queue.run(async () => 'next');
    await expect(failing).rejects.toThrow('node round failed');
    expect(await next).toBe('next');
    expect(queue.depth()).toEqual({ running: 0, waiting: 0 });
  });
});
