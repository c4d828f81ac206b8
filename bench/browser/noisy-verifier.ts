import sodium from 'libsodium-wrappers-sumo';
import { Group } from '@semaphore-protocol/group';
import { generateProof } from '@semaphore-protocol/proof';
import {
  blindLockers,
  deriveNoisyIdentity,
  finalizeLockers,
  lockerBucket,
  lockerInputs,
  lockerTag,
  readBiometric,
  templateBits,
  unlockLockers,
  type BucketEntry,
  type LockerArithmetic,
  type LockerParams,
} from '@zeroid/protocol/noisy';

/**
 * Bundled by bench/suites/noisy.ts and loaded into Chromium: a whole noisy verification as the web
 * app would run it, against the bench's stand-in server (the page's routes): read the template, blind
 * every locker, one OPRF batch, finalise, ask the buckets in rounds until a locker opens, check the
 * seed's commitment at its leaf, and prove membership at depth 20 with Semaphore.
 */
let state: { wasm: Uint8Array; zkey: Uint8Array } | undefined;

/** libsodium's WebAssembly for the group work: five times noble's speed here (decision 077). */
const arithmetic: LockerArithmetic = {
  fromHash: (uniform) => sodium.crypto_core_ristretto255_from_hash(uniform),
  multiply: (element, scalar) => sodium.crypto_scalarmult_ristretto255(scalar, element),
  randomScalar: () => sodium.crypto_core_ristretto255_scalar_random(),
  invertScalar: (scalar) => sodium.crypto_core_ristretto255_scalar_invert(scalar),
};

export async function setup(depth: number): Promise<void> {
  await sodium.ready;
  const load = async (name: string) => new Uint8Array(await (await fetch(`/artifacts/${name}`)).arrayBuffer());
  const [wasm, zkey] = await Promise.all([load(`semaphore-${depth}.wasm`), load(`semaphore-${depth}.zkey`)]);
  state = { wasm, zkey };
}

const post = async (url: string, body: Uint8Array<ArrayBuffer>) =>
  new Uint8Array(await (await fetch(url, { method: 'POST', body })).arrayBuffer());

/** The first round asks this many lockers' buckets; each next round twice as many, until one opens. */
const FIRST_ROUND = 256;

export async function verify(
  text: string,
  params: LockerParams,
  bucketBits: number,
  depth: number,
  run: number,
): Promise<{ ms: number; proofMs: number; commitment: string; downloaded: number; asked: number; rounds: number }> {
  if (!state) throw new Error('setup() first');
  const started = performance.now();
  const reading = readBiometric(text, { experimentalNoisy: true });
  if (reading.kind !== 'noisy') throw new Error('not a template');
  const batch = blindLockers(lockerInputs(templateBits(reading.template, params)), arithmetic);
  const blinded = new Uint8Array(32 * batch.blinded.length);
  batch.blinded.forEach((b, i) => blinded.set(b, 32 * i));
  const evaluatedBytes = await post('/noisy/oprf', blinded);
  const evaluated = batch.blinded.map((_, i) => evaluatedBytes.subarray(32 * i, 32 * i + 32));
  const outputs = finalizeLockers(batch, evaluated, arithmetic);
  // A random order, so the lockers asked first say nothing of the reading.
  const order = Array.from({ length: outputs.length }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = sodium.randombytes_uniform(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  let downloaded = evaluatedBytes.length;
  let asked = 0;
  let rounds = 0;
  for (let size = FIRST_ROUND; asked < order.length; size *= 2) {
    const round = order.slice(asked, asked + size);
    asked += round.length;
    rounds++;
    const query = new Uint32Array(round.length * 2);
    round.forEach((locker, i) => {
      const output = outputs[locker];
      query[2 * i] = locker;
      query[2 * i + 1] = lockerBucket(output ? lockerTag(output) : sodium.randombytes_buf(4), bucketBits);
    });
    const reply = await post('/noisy/buckets', new Uint8Array(query.buffer));
    downloaded += reply.length;
    const view = new DataView(reply.buffer, reply.byteOffset, reply.byteLength);
    const replies: BucketEntry[][] = [];
    let at = 0;
    for (const locker of round) {
      const count = view.getUint32(at);
      at += 4;
      const entries: BucketEntry[] = [];
      for (let e = 0; e < count; e++, at += 22)
        entries.push({ fingerprint: view.getUint16(at), seal: reply.slice(at + 2, at + 18), leafIndex: view.getUint32(at + 18) });
      replies[locker] = entries;
    }
    for (const found of unlockLockers(outputs, replies)) {
      const identity = deriveNoisyIdentity(found.seed);
      const leaf = new TextDecoder().decode(await post('/noisy/leaf', new TextEncoder().encode(String(found.leafIndex))));
      downloaded += leaf.length;
      if (leaf !== identity.commitment) continue;
      const commitment = BigInt(identity.commitment);
      const group = new Group([7919n, commitment]);
      const proofStarted = performance.now();
      await generateProof(
        { secretScalar: identity.secretScalar, commitment } as unknown as Parameters<typeof generateProof>[0],
        group,
        `noisy ${run}`,
        `noisy scope ${run}`,
        depth,
        state as unknown as { wasm: string; zkey: string },
      );
      const end = performance.now();
      return { ms: end - started, proofMs: end - proofStarted, commitment: identity.commitment, downloaded, asked, rounds };
    }
  }
  throw new Error('No locker opened: a false rejection (the bench picks readings that open one)');
}
