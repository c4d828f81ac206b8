import { describe, expect, it } from 'vitest';
import { recoverFromSketch, sketchTemplate } from './repetition-sketch.ts';

describe('the repetition-code secure sketch', () => {
  // Known answer: w = 1011 0100 1110, m = 101, repeat 4 → C(m) = 1111 0000 1111, sketch = w ⊕ C(m).
  const w = Uint8Array.from([1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0]);
  const m = Uint8Array.from([1, 0, 1]);

  it('is w ⊕ C(m)', () => {
    expect([...sketchTemplate(w, m, 4)]).toEqual([0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]);
  });

  it('recovers m while fewer than half the bits of each block are wrong, and not beyond', () => {
    const sketch = sketchTemplate(w, m, 4);
    const oneEach = Uint8Array.from(w, (bit, i) => (i % 4 === 2 ? 1 - bit : bit));
    expect([...recoverFromSketch(oneEach, sketch, 4)]).toEqual([1, 0, 1]);
    // With repeat 5 on 15 bits, two errors in a block are repaired and three are not.
    const w15 = Uint8Array.from([...w, 0, 0, 0]);
    const sketch5 = sketchTemplate(w15, m, 5);
    const twoInFirst = w15.map((bit, i) => (i < 2 ? 1 - bit : bit));
    expect([...recoverFromSketch(twoInFirst, sketch5, 5)]).toEqual([1, 0, 1]);
    const threeInFirst = w15.map((bit, i) => (i < 3 ? 1 - bit : bit));
    expect([...recoverFromSketch(threeInFirst, sketch5, 5)]).toEqual([0, 0, 1]);
  });
});
