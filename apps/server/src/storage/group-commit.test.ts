import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.ts';

describe('groupCommit', () => {
  it('writes the calls of one turn of the event loop as one batch, in order', async () => {
    const batches: number[][] = [];
    const write = groupCommit(async (items: number[]) => {
      batches.push(items);
      return items.map((n) => n * 10);
    });
    expect(await Promise.all([write(1), write(2), write(3)])).toEqual([10, 20, 30]);
    expect(await write(4)).toBe(40);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('takes the calls that arrive while a batch is written into the next one', async () => {
    const batches: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const write = groupCommit(async (items: string[]) => {
      batches.push(items);
      if (batches.length === 1) await gate;
      return items;
    });
    const first = write('a');
    await new Promise((resolve) => setImmediate(resolve));
    const later = [write('b'), write('c')];
    release();
    expect(await Promise.all([first, ...later])).toEqual(['a', 'b', 'c']);
    expect(batches).toEqual([['a'], ['b', 'c']]);
  });

  it('fails every call of a failed batch, and only those', async () => {
    const write = groupCommit(async (items: string[]) => {
      if (items.includes('bad')) throw new Error('disk full');
      return items;
    });
    const failed = await Promise.allSettled([write('ok'), write('bad')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await write('next')).toBe('next');
  });

  it('splits a burst larger than the batch limit', async () => {
    const sizes: number[] = [];
    const write = groupCommit(async (items: number[]) => {
      sizes.push(items.length);
      return items;
    }, 4);
    await Promise.all(Array.from({ length: 10 }, (_, i) => write(i)));
    expect(sizes).toEqual([4, 4, 2]);
  });
});
