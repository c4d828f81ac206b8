import { generateOprfKeyPair, OprfEvaluator } from '@zeroid/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { inProcessDeriver, workerDeriver, type RawDeriver } from './raw-deriver.ts';

let pooled: RawDeriver | undefined;
afterAll(async () => {
  await pooled?.close();
});

describe('the raw path on worker threads', () => {
  it('derives exactly what the main thread derives, under concurrency', async () => {
    const { privateKey } = await generateOprfKeyPair();
    const local = inProcessDeriver(new OprfEvaluator(privateKey));
    pooled = workerDeriver(privateKey, 2);
    const people = Array.from({ length: 24 }, (_, i) => ({ idInfo: `worker id ${i}`, bioInfo: `worker biometric ${i}` }));
    const [fromWorkers, commitments] = await Promise.all([
      Promise.all(people.map((p) => pooled!.registration(p))),
      Promise.all(people.map((p) => pooled!.commitment(p.bioInfo))),
    ]);
    for (const [i, person] of people.entries()) {
      const expected = await local.registration(person);
      expect(fromWorkers[i]).toEqual(expected);
      expect(commitments[i]).toBe(expected.commitment);
    }
    expect(new Set(fromWorkers.map((d) => d.commitment)).size).toBe(people.length);
  });
});
