import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import sodium from 'libsodium-wrappers-sumo';
import {
  FACE_PARAMS,
  IRIS_PARAMS,
  STORED_LOCKER_BYTES,
  evaluateLockers,
  lockerBucket,
  lockerKeyPair,
  seededStream,
  type LockerParams,
} from '@zeroid/protocol/noisy';
import { libsodiumReady } from '../../apps/server/src/oprf/libsodium.ts';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from '../../e2e/chromium.ts';
import { bundleForPage } from '../browser/bundle-for-page.ts';
import { openingReading, registerNoisy, serverArithmetic } from '../noisy-readings.ts';
import { DOWNLOAD_GOAL, lockerRates, randomOrder, roundsOutcome, sketchRates } from '../noisy-simulation.ts';
import { resultsDir } from '../render.ts';
import { entry, median, type BenchEntry } from '../stats.ts';

const DEPTH = 20;
const SIZES = [10_000, 100_000, 1_000_000] as const;
const require = createRequire(import.meta.url);
const semaphoreArtifact = (name: string) => path.join(path.dirname(require.resolve('@zk-kit/semaphore-artifacts/package.json')), name);
const goal = (name: string, unit: string, better: BenchEntry['better'], value: number, target: number, label: string) =>
  entry(name, unit, better, [value], [target], label);
const sizeName = (n: number) => `1e${Math.log10(n)}`;

/** The simulated rates of one model, and its bucket width at each N (the widest whose median download meets the goal). */
function simulate(model: 'iris' | 'face', params: LockerParams, genuineCount: number, impostorCount: number) {
  const rates = lockerRates(model, params, genuineCount, impostorCount);
  const orders = rates.opened.map((_, i) => randomOrder(params.lockers, `bench/noisy/order/${i}`));
  const bySize = SIZES.map((n) => {
    for (let bits = 4; bits <= 30; bits++) {
      const outcomes = rates.opened.flatMap((opened, i) => roundsOutcome(opened, params.lockers, n, bits, orders[i]!) ?? []);
      const download = median(outcomes.map((o) => o.download));
      if (download <= DOWNLOAD_GOAL || bits === 30) {
        const ks = outcomes.map((o) => o.k).sort((a, b) => a - b);
        return {
          n,
          bits,
          download,
          kMedian: median(ks),
          kP10: ks[Math.floor(ks.length * 0.1)]!,
          asked: median(outcomes.map((o) => o.asked)),
        };
      }
    }
    throw new Error('unreachable');
  });
  return { rates, bySize };
}

/**
 * `npm run bench -- noisy` (decision 077): the noisy-biometric lockers on synthetic iris codes (bit
 * error rate 0.15) and face embeddings: false rejections and false matches against 10⁶ people,
 * anonymity and download at 10⁴, 10⁵ and 10⁶ identities, stored bytes, the repetition-code sketch on
 * the same data, and the whole verification in Chromium beside a bare depth-20 Semaphore proof in the
 * same page, taking turns. Writes bench/results/noisy-biometrics.json in latest.json's format.
 */
export async function runNoisy({ runs }: { runs: number }): Promise<BenchEntry[]> {
  assertChromium();
  await libsodiumReady;
  const rows: BenchEntry[] = [];
  const simulated = {
    iris: simulate('iris', IRIS_PARAMS, 400, 5000),
    face: simulate('face', FACE_PARAMS, 200, 1000),
  };
  for (const [model, { rates, bySize }] of Object.entries(simulated)) {
    const params = model === 'iris' ? IRIS_PARAMS : FACE_PARAMS;
    console.error(`${model}: FRR ${rates.frr}, far_1_to_n ${rates.farOneToN(1e6)}, ${JSON.stringify(bySize)}`);
    rows.push(
      goal(
        `noisy.${model}.frr`,
        'fraction',
        'lower',
        rates.frr,
        0.05,
        `goal ≤ 0.05 (${rates.opened.length} genuine readings, ${params.lockers} lockers of ${params.sampleBits} bits)`,
      ),
      goal(
        `noisy.${model}.far_1_to_n`,
        'probability',
        'lower',
        rates.farOneToN(1e6),
        1e-3,
        'goal ≤ 10⁻³: some other person of N = 10⁶ opens a locker',
      ),
      goal(
        `noisy.${model}.download_bytes`,
        'bytes',
        'lower',
        bySize[2]!.download,
        DOWNLOAD_GOAL,
        `goal ≤ 2 MB at N = 10⁶ (median; OPRF answers and buckets of 2^${bySize[2]!.bits})`,
      ),
      goal(
        `noisy.${model}.stored_bytes_per_identity`,
        'bytes',
        'lower',
        params.lockers * STORED_LOCKER_BYTES,
        32 + 32 + 48,
        'exact path: commitment, ID tag, did:key',
      ),
      ...bySize.flatMap((s) => [
        goal(
          `noisy.${model}.anonymity_k_${sizeName(s.n)}`,
          'people',
          'higher',
          s.kMedian,
          1000,
          `goal ≥ 1,000 (median, first attempt; buckets of 2^${s.bits} at N = ${s.n})`,
        ),
        goal(
          `noisy.${model}.anonymity_k_${sizeName(s.n)}_p10`,
          'people',
          'higher',
          s.kP10,
          1000,
          'the 10 % least anonymous first attempts',
        ),
      ]),
    );
  }
  for (const repeat of [31, 63]) {
    const sketch = sketchRates(repeat, 400);
    rows.push(
      goal(
        `noisy.iris.sketch_r${repeat}.frr`,
        'fraction',
        'lower',
        sketch.frr,
        0.05,
        `code-offset, repetition ${repeat} on 1,024 bits: ${sketch.messageBits} key bits`,
      ),
      goal(
        `noisy.iris.sketch_r${repeat}.far_1_to_n`,
        'probability',
        'lower',
        1 - Math.exp(1e6 * Math.log1p(-(2 ** -sketch.messageBits))),
        1e-3,
        'a stranger decodes to the key with about 2^−bits; N = 10⁶',
      ),
    );
  }

  // The whole verification in Chromium, against a stand-in server in this process, at N = 10⁶.
  const { secretKey } = lockerKeyPair();
  const scratch = () => mkdtempSync(path.join(tmpdir(), 'zeroid-noisy-'));
  const bare = await bundleForPage(path.join(import.meta.dirname, '..', 'browser', 'bare-prover.ts'), scratch());
  const verifier = await bundleForPage(path.join(import.meta.dirname, '..', 'browser', 'noisy-verifier.ts'), scratch());
  const models = (['iris', 'face'] as const).map((model) => {
    const params = model === 'iris' ? IRIS_PARAMS : FACE_PARAMS;
    const { enrolText } = openingReading(model, 0);
    console.error(`registering the ${model} person (${params.lockers} lockers)…`);
    const registered = registerNoisy(enrolText, params, secretKey);
    const bits = simulated[model].bySize[2]!.bits;
    const mine = registered.lockers.map((l) => lockerBucket(l.tag, bits));
    return { model, params, bits, registered, mine };
  });
  let current = models[0]!;
  const stream = seededStream('bench/noisy/strangers');
  const arithmetic = serverArithmetic();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const samples = { semaphore: [] as number[], iris: [] as number[], face: [] as number[] };
  const downloads = { iris: [] as number[], face: [] as number[] };
  try {
    const page = await browser.newPage();
    const origin = 'http://noisy-biometrics.test';
    const MY_LEAF = 424_242;
    await page.route(`${origin}/**`, async (route) => {
      const { pathname } = new URL(route.request().url());
      const body = route.request().postDataBuffer() ?? Buffer.alloc(0);
      const bytes = (b: Uint8Array) => route.fulfill({ contentType: 'application/octet-stream', body: Buffer.from(b) });
      if (pathname === '/bare-prover.js') return route.fulfill({ contentType: 'text/javascript', body: bare });
      if (pathname === '/noisy-verifier.js') return route.fulfill({ contentType: 'text/javascript', body: verifier });
      if (pathname.startsWith('/artifacts/')) return bytes(readFileSync(semaphoreArtifact(path.basename(pathname))));
      if (pathname === '/noisy/oprf') {
        const blinded = Array.from({ length: body.length / 32 }, (_, i) => new Uint8Array(body.subarray(32 * i, 32 * i + 32)));
        const evaluated = evaluateLockers(secretKey, blinded, current.params.lockers, arithmetic);
        const out = new Uint8Array(32 * evaluated.length);
        evaluated.forEach((e, i) => out.set(e, 32 * i));
        return bytes(out);
      }
      if (pathname === '/noisy/buckets') {
        // Each asked bucket holds N/2^b strangers' lockers on average (random bytes, as theirs look),
        // and the registered person's if its tag falls there.
        const query = new DataView(body.buffer, body.byteOffset, body.length);
        const parts: Uint8Array[] = [];
        const perBucket = 1e6 / 2 ** current.bits;
        for (let at = 0; at < body.length; at += 8) {
          const locker = query.getUint32(at, true);
          const bucket = query.getUint32(at + 4, true);
          const strangers = Math.floor(perBucket) + (stream.uniform() < perBucket % 1 ? 1 : 0);
          const mine = current.mine[locker] === bucket;
          const part = new Uint8Array(4 + 22 * (strangers + (mine ? 1 : 0)));
          const view = new DataView(part.buffer);
          view.setUint32(0, strangers + (mine ? 1 : 0));
          for (let e = 0; e < strangers; e++) part.set(sodium.randombytes_buf(22), 4 + 22 * e);
          if (mine) {
            const l = current.registered.lockers[locker]!;
            const e = 4 + 22 * strangers;
            part.set(l.tag.subarray(4, 6), e);
            part.set(l.seal, e + 2);
            view.setUint32(e + 18, MY_LEAF);
          }
          parts.push(part);
        }
        return bytes(Buffer.concat(parts));
      }
      if (pathname === '/noisy/leaf')
        return route.fulfill({
          contentType: 'text/plain',
          body:
            Number(body.toString()) === MY_LEAF
              ? current.registered.commitment
              : String(BigInt(`0x${Buffer.from(sodium.randombytes_buf(31)).toString('hex')}`)),
        });
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>noisy biometrics</title>' });
    });
    await page.goto(`${origin}/`);
    type Bare = { setup(depth: number, members: number): Promise<void>; prove(run: number): Promise<number> };
    type Verifier = {
      setup(depth: number): Promise<void>;
      verify(
        text: string,
        params: LockerParams,
        bits: number,
        depth: number,
        run: number,
      ): Promise<{ ms: number; proofMs: number; commitment: string; downloaded: number; asked: number; rounds: number }>;
    };
    await page.evaluate(async ([url, d]) => ((await import(url)) as Bare).setup(d, 2), ['/bare-prover.js', DEPTH] as const);
    await page.evaluate(async ([url, d]) => ((await import(url)) as Verifier).setup(d), ['/noisy-verifier.js', DEPTH] as const);
    const proveBare = (run: number) =>
      page.evaluate(async ([url, r]) => ((await import(url)) as Bare).prove(r), ['/bare-prover.js', run] as const);
    const verifyNoisy = async (m: (typeof models)[number], run: number) => {
      current = m;
      const { readText } = openingReading(m.model, run + 1);
      const result = await page.evaluate(async ([url, t, p, b, d, r]) => ((await import(url)) as Verifier).verify(t, p, b, d, r), [
        '/noisy-verifier.js',
        readText,
        m.params,
        m.bits,
        DEPTH,
        run,
      ] as const);
      if (result.commitment !== m.registered.commitment) throw new Error(`The ${m.model} reading opened another identity`);
      console.error(
        `  ${m.model}: ${result.ms.toFixed(0)} ms (proof ${result.proofMs.toFixed(0)} ms), ${result.downloaded} bytes, ${result.asked} lockers asked in ${result.rounds} rounds`,
      );
      return result;
    };
    await proveBare(-1);
    for (let run = 0; run < runs; run++) {
      samples.semaphore.push(await proveBare(run));
      console.error(`round ${run + 1}/${runs}: semaphore-${DEPTH} ${samples.semaphore.at(-1)!.toFixed(0)} ms`);
      for (const m of models) {
        const result = await verifyNoisy(m, run);
        samples[m.model].push(result.ms);
        downloads[m.model].push(result.downloaded);
      }
    }
  } finally {
    await browser.close();
  }
  for (const model of ['iris', 'face'] as const) {
    rows.push(
      entry(
        `noisy.${model}.verify_ms`,
        'ms',
        'lower',
        samples[model],
        samples.semaphore,
        `bare \`generateProof\` at depth ${DEPTH} in the same page, taking turns (goal ≤ 3×)`,
      ),
      entry(
        `noisy.${model}.verify_download_bytes`,
        'bytes',
        'lower',
        downloads[model],
        [DOWNLOAD_GOAL],
        'measured in the Chromium runs at N = 10⁶ (goal ≤ 2 MB)',
      ),
    );
  }
  writeFileSync(path.join(resultsDir, 'noisy-biometrics.json'), `${JSON.stringify(rows, null, 2)}\n`);
  return rows;
}
