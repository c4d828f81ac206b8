import { describe, expect, it } from 'vitest';
import { afterMissedTry, SIGN_IN_TRIES } from './sign-in-tries.ts';

describe('the sign-in screen’s tries (decision 051)', () => {
  it('says "not recognised, try again" with the tries left after each of the first four, and gives up after the fifth', () => {
    expect(SIGN_IN_TRIES).toBe(5);
    expect([1, 2, 3, 4, 5, 6].map(afterMissedTry)).toEqual([
      { giveUp: false, message: 'Not recognised, try again. 4 tries left.' },
      { giveUp: false, message: 'Not recognised, try again. 3 tries left.' },
      { giveUp: false, message: 'Not recognised, try again. 2 tries left.' },
      { giveUp: false, message: 'Not recognised, try again. 1 try left.' },
      { giveUp: true },
      { giveUp: true },
    ]);
  });
});
