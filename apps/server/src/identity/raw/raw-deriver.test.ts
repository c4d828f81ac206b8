import { generateOprfKeyPair } from '@zeroid/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { inProcessDeriver, workerDeriver, type RawDeriver } from './raw-deriver.ts';

let pooled: RawDeriver | undefined;
afterAll(async () => {
  await pooled?.close();
});

describe('the raw path on worker threads', () => {
  it('derives exactly what the main thread derives, under concurrency', async () => {
    const { privateKey } = await generateOprfKeyPair();
    const local = inProcessDeriver(privateKey);
    pooled = workerDeriver(privateKey, 2);
    const people = Array.from({ length: 12 }, (_, i) => ({ idInfo: `worker id ${i}`, bioInfo: `worker biometric ${i}` }));
    const [fromWorkers, commitments] = await Promise.all([
      Promise.all(people.map((p) => pooled!.registration(p))),
      Promise.all(people.map((p) => pooled!.commitment(p.bioInfo))),
    ]);
    for (const [i, person] of people.entries()) {
      const expected = await local.registration(person);
      expect(fromWorkers[i]).toEqual(expected);
      expect(commitments[i]).toEqual({ v3: expected.v3.commitment, v2: expected.v2.commitment });
    }
    const values = fromWorkers.flatMap(({ v3, v2 }) => [v3.commitment, v3.did, v3.idTag, v2.commitment, v2.did, v2.idTag]);
    expect(new Set(values).size, 'every value of every person and version distinct').toBe(6 * people.length);
  });
});
