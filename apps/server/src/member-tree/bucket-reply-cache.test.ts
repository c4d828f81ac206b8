import { describe, expect, it } from 'vitest';
import { BucketReplyCache } from './bucket-reply-cache.ts';

describe('BucketReplyCache', () => {
  it('builds a bucket once per root, and again when the root moves', () => {
    const cache = new BucketReplyCache();
    let builds = 0;
    const build = (text: string) => () => {
      builds += 1;
      return text;
    };
    expect(cache.reply('r1', 'ab', build('first'))).toBe('first');
    expect(cache.reply('r1', 'ab', build('unused'))).toBe('first');
    expect(builds).toBe(1);
    expect(cache.reply('r2', 'ab', build('second'))).toBe('second');
    expect(builds).toBe(2);
  });

  it('drops the oldest replies past its size bound, never the one just built', () => {
    const cache = new BucketReplyCache(10);
    cache.reply('r', 'a', () => 'aaaaaa');
    cache.reply('r', 'b', () => 'bbbbbb');
    let rebuilt = false;
    cache.reply('r', 'a', () => {
      rebuilt = true;
      return 'aaaaaa';
    });
    expect(rebuilt).toBe(true);
    expect(cache.reply('r', 'huge', () => 'x'.repeat(50))).toHaveLength(50);
    expect(cache.reply('r', 'huge', () => 'not cached')).toHaveLength(50);
  });
});
