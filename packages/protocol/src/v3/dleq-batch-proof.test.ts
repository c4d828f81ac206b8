import { describe, expect, it } from 'vitest';
import { G, randomScalar } from './baby-jubjub-group.ts';
import { blindQuery } from './blind-query.ts';
import { proveDleqBatch, verifyDleqBatch } from './dleq-batch-proof.ts';

describe('v3 batch proof (a node’s /oprf/batch)', () => {
  const key = randomScalar();
  const publicKey = G.multiply(key);
  const blinded = [blindQuery('bio', 'b').blinded, blindQuery('id', 'i').blinded];
  const pairs = blinded.map((b) => [b, b.multiply(key)] as const);

  it('proves both evaluations at once, and no other batch', () => {
    const proof = proveDleqBatch(key, publicKey, pairs);
    expect(verifyDleqBatch(publicKey, pairs, proof)).toBe(true);
    expect(verifyDleqBatch(publicKey, [pairs[1]!, pairs[0]!], proof)).toBe(false);
    expect(verifyDleqBatch(publicKey, [pairs[0]!, [blinded[1]!, blinded[1]!.multiply(key + 1n)]], proof)).toBe(false);
    expect(verifyDleqBatch(publicKey, [pairs[0]!], proof)).toBe(false);
    expect(verifyDleqBatch(G.multiply(key + 1n), pairs, proof)).toBe(false);
    expect(verifyDleqBatch(publicKey, [], proof)).toBe(false);
  });

  it('a batch with one wrong evaluation cannot be proven', () => {
    const lying = [pairs[0]!, [blinded[1]!, blinded[1]!.multiply(randomScalar())] as const];
    expect(verifyDleqBatch(publicKey, lying, proveDleqBatch(key, publicKey, lying))).toBe(false);
  });
});
