import {
  FACE_PARAMS,
  IRIS_PARAMS,
  lockerSubsets,
  projectEmbedding,
  recoverFromSketch,
  seededStream,
  sketchTemplate,
  syntheticFace,
  syntheticFaceReading,
  syntheticIrisCode,
  syntheticIrisReading,
  type LockerParams,
} from '@zeroid/protocol/noisy';

/** One genuine or impostor comparison: the bits and masks of enrolment and reading, on the same layout. */
interface Pair {
  enrol: Uint8Array;
  enrolValid: Uint8Array;
  read: Uint8Array;
  readValid: Uint8Array;
}

/** Genuine and impostor pairs of the iris model (BER `ber` between enrolment and reading) or of the face model. */
export function pairs(model: 'iris' | 'face', count: number, ber = 0.15): { genuine: Pair[]; impostor: Pair[] } {
  const stream = seededStream(`bench/noisy/${model}/${ber}`);
  const genuine: Pair[] = [];
  const impostor: Pair[] = [];
  const all = (n: number) => new Uint8Array(n).fill(1);
  for (let t = 0; t < count; t++) {
    if (model === 'iris') {
      const eye = syntheticIrisCode(stream);
      const reading = syntheticIrisReading(eye, ber, stream);
      const other = syntheticIrisCode(stream);
      genuine.push({ enrol: eye.bits, enrolValid: eye.valid, read: reading.bits, readValid: reading.valid });
      impostor.push({ enrol: eye.bits, enrolValid: eye.valid, read: other.bits, readValid: other.valid });
    } else {
      const face = syntheticFace(stream);
      const enrol = projectEmbedding(syntheticFaceReading(face, stream));
      const read = projectEmbedding(syntheticFaceReading(face, stream));
      const other = projectEmbedding(syntheticFaceReading(syntheticFace(stream), stream));
      genuine.push({ enrol, enrolValid: all(enrol.length), read, readValid: all(read.length) });
      impostor.push({ enrol, enrolValid: all(enrol.length), read: other, readValid: all(other.length) });
    }
  }
  return { genuine, impostor };
}

/** The lockers of `params` that a pair opens: every sampled position seen in both and equal. Counted on the real public subsets. */
export function openedLockers(pair: Pair, params: LockerParams): number[] {
  const opened: number[] = [];
  lockerSubsets(params, pair.enrol.length).forEach((positions, locker) => {
    for (const p of positions) if (!pair.enrolValid[p] || !pair.readValid[p] || pair.enrol[p] !== pair.read[p]) return;
    opened.push(locker);
  });
  return opened;
}

/**
 * The chance that one locker of `params` opens for this pair, over the draw of the subsets: the
 * product, over the strata, of the fraction of positions seen in both and equal (exact, since a subset
 * takes one uniform position a stratum). An impostor's is far too small to count lockers for; its
 * mean over many pairs, times the lockers, is the chance that a stranger opens one.
 */
export function lockerOpenChance(pair: Pair, params: LockerParams): number {
  const n = pair.enrol.length;
  const start = Math.floor(params.regionStart * n);
  const width = Math.floor(params.regionEnd * n) - start;
  let chance = 1;
  for (let i = 0; i < params.sampleBits; i++) {
    const from = start + Math.floor((i * width) / params.sampleBits);
    const to = start + Math.floor(((i + 1) * width) / params.sampleBits);
    let good = 0;
    for (let p = from; p < to; p++) if (pair.enrolValid[p] && pair.readValid[p] && pair.enrol[p] === pair.read[p]) good++;
    chance *= good / (to - from);
  }
  return chance;
}

/** P(Poisson(λ) ≥ m). */
export function poissonTail(lambda: number, m: number): number {
  let term = Math.exp(-lambda);
  let below = 0;
  for (let i = 0; i < m; i++) {
    below += term;
    term *= lambda / (i + 1);
  }
  return Math.max(0, 1 - below);
}

/** The locker scheme's rates on a model's pairs: false rejections counted on the real lockers, false matches from the open chances. */
export function lockerRates(model: 'iris' | 'face', params: LockerParams, genuineCount: number, impostorCount: number) {
  const { genuine } = pairs(model, genuineCount);
  const { impostor } = pairs(model, impostorCount);
  const opened = genuine.map((pair) => openedLockers(pair, params));
  const frr = opened.filter((m) => m.length === 0).length / opened.length;
  const strangerPerLocker = impostor.reduce((sum, pair) => sum + lockerOpenChance(pair, params), 0) / impostor.length;
  const strangerOpens = Math.min(1, params.lockers * strangerPerLocker);
  const farOneToN = (n: number) => 1 - Math.exp(n * Math.log1p(-strangerOpens));
  return { opened, frr, strangerPerLocker, strangerOpens, farOneToN };
}

/** Bytes a bucket reply spends on each stored locker (fingerprint, seal, leaf). */
export const ENTRY_BYTES = 22;
/** The download goal of a verification. */
export const DOWNLOAD_GOAL = 2_000_000;

/** The first round asks this many buckets, each next round twice as many (bench/browser/noisy-verifier.ts). */
export const FIRST_ROUND = 256;
/** Bytes of one OPRF element, sent and received once a locker. */
const ELEMENT_BYTES = 32;

/**
 * One verification in rounds: the client asks the buckets of its lockers in a random order, 256 then
 * twice as many each round, and stops at the first round in which a locker opens. The server sees Q
 * lockers asked, the last round's B, and learns that the person opened m ≥ 1 of the last round and
 * none before: k = 1 + (N − 1)·P(Poisson(B/2^b) ≥ m)·e^(−(Q − B)/2^b). Downloaded: the OPRF answers
 * and every asked bucket, N/2^b entries each.
 */
export function roundsOutcome(opened: number[], lockers: number, n: number, bucketBits: number, order: number[]) {
  const isOpen = new Set(opened);
  let asked = 0;
  for (let size = FIRST_ROUND; asked < lockers; size *= 2) {
    const round = order.slice(asked, asked + size);
    asked += round.length;
    const m = round.filter((j) => isOpen.has(j)).length;
    if (m > 0) {
      const perBucket = n / 2 ** bucketBits;
      // The server, knowing every locker's owner, ranks people by how many of their lockers fall in
      // the last round's buckets (and none in the earlier ones): the person hides among those ranked
      // as high.
      const k = 1 + (n - 1) * poissonTail(round.length * 2 ** -bucketBits, m) * Math.exp(-(asked - round.length) * 2 ** -bucketBits);
      return { asked, last: round.length, opened: m, k, download: lockers * ELEMENT_BYTES + asked * (4 + perBucket * ENTRY_BYTES) };
    }
  }
  return undefined;
}

/** A seeded random order of the lockers, as the client draws one. */
export function randomOrder(lockers: number, label: string): number[] {
  const stream = seededStream(label);
  const order = Array.from({ length: lockers }, (_, i) => i);
  for (let i = lockers - 1; i > 0; i--) {
    const j = stream.below(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** The code-offset sketch with a repetition code on the lower half of the iris code: its rates on the same pairs. */
export function sketchRates(repeat: number, count: number) {
  const { genuine, impostor } = pairs('iris', count);
  const stream = seededStream(`bench/noisy/sketch/${repeat}`);
  const half = (bits: Uint8Array) => bits.subarray(1024, 2048);
  const messageBits = Math.floor(1024 / repeat);
  let rejected = 0;
  let strangers = 0;
  genuine.forEach((pair, i) => {
    const message = Uint8Array.from({ length: messageBits }, () => stream.below(2));
    const sketch = sketchTemplate(half(pair.enrol), message, repeat);
    const same = (m: Uint8Array) => m.every((bit, j) => bit === message[j]);
    if (!same(recoverFromSketch(half(pair.read), sketch, repeat))) rejected++;
    if (same(recoverFromSketch(half(impostor[i]!.read), sketch, repeat))) strangers++;
  });
  return { repeat, messageBits, frr: rejected / count, strangerMatches: strangers / count };
}

export { FACE_PARAMS, IRIS_PARAMS };
