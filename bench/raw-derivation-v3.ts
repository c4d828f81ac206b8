import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import {
  deriveDidKey,
  deriveIdTag,
  deriveProvingIdentity,
  generateOprfKeyPair,
  normaliseInput,
  precomputeFixedBases,
} from '@zeroid/protocol';
import { decodeScalar, deriveRegistration, evaluateOutput, jsV3Arithmetic, v3KeyFromV2, type V3Arithmetic } from '@zeroid/protocol/v3';
import { threadV3Arithmetic } from '../apps/server/src/oprf/baby-jubjub-wasm/wasm-baby-jubjub.ts';
import { libsodiumReady, sodiumEd25519PublicKey } from '../apps/server/src/oprf/libsodium.ts';
import { deriveFromRaw } from '../apps/server/src/identity/raw/raw-identity.ts';
import { singleKeyOutputs } from '../apps/server/src/identity/raw/single-key-outputs.ts';
import { median } from './stats.ts';

/**
 * The raw-path goal, at the derivation (decisions 063 and 065): a raw registration under v3 at no less
 * than half the rate of v2. Everything else a raw registration does (HTTP, the database, the tree) is
 * the same for both, so the derivation's ratio is the lower bound of the request's. On one thread, in
 * one process, in CPU time (the rate a CPU-bound server reaches), the cases take turns derivation by
 * derivation (`rounds` rounds of `batch` derivations each; a round's mean per case, then medians):
 *
 * - `v2`: what a raw registration derived before v3 (two ristretto255 outputs on libsodium, the
 *   Semaphore identity, the did:key, the ID tag);
 * - `v3 noble` / `v3 wasm`: v3's half alone (two outputs and `deriveRegistration`) on noble (before
 *   decision 063) and on WebAssembly;
 * - `registration`: `deriveFromRaw`, what the server derives for a raw registration now (both halves).
 *
 *   npx tsx bench/raw-derivation-v3.ts [rounds = 7] [batch = 30]   → bench/results/raw-derivation-v3.json
 */
const rounds = Number(process.argv[2] ?? 7);
const batch = Number(process.argv[3] ?? 30);

await libsodiumReady;
precomputeFixedBases(); // as the server does (decision 066)
const { privateKey } = await generateOprfKeyPair();
const { v2, v3 } = singleKeyOutputs(privateKey);
const v3Key = decodeScalar(v3KeyFromV2(privateKey))!;
const person = (i: number) => ({ idInfo: `bench id ${i}`, bioInfo: `bench biometric ${i}` });
const outputNumber = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex')}`);

async function v2Half(i: number) {
  const { idInfo, bioInfo } = person(i);
  const [bio, id] = await Promise.all([v2.evaluate('bio', normaliseInput(bioInfo)), v2.evaluate('id', normaliseInput(idInfo))]);
  return [deriveProvingIdentity(bio).commitment, deriveDidKey(bio, sodiumEd25519PublicKey).did, deriveIdTag(id)];
}
const v3Half = (arithmetic: V3Arithmetic) => (i: number) => {
  const { idInfo, bioInfo } = person(i);
  const bio = evaluateOutput(v3Key, 'bio', normaliseInput(bioInfo), arithmetic);
  const id = evaluateOutput(v3Key, 'id', normaliseInput(idInfo), arithmetic);
  return deriveRegistration(outputNumber(bio), outputNumber(id), sodiumEd25519PublicKey, arithmetic).commitment;
};
const cases: Record<string, (i: number) => unknown> = {
  v2: v2Half,
  'v3 noble': v3Half(jsV3Arithmetic),
  'v3 wasm': v3Half(threadV3Arithmetic),
  registration: (i) => deriveFromRaw(v2, v3, person(i)),
};

/** CPU milliseconds (this process, user + system) of one derivation: the machine's other load does not count. */
async function cpuTime(run: (i: number) => unknown, i: number): Promise<number> {
  const start = process.cpuUsage();
  await run(i);
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

const names = Object.keys(cases);
for (const name of names) for (let i = 0; i < batch; i++) await cases[name]!(i); // warm-up: JIT, WebAssembly module, tables
const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < rounds; round++) {
  const sums: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]));
  // Interleaved derivation by derivation, in a rotating order, so a slow spell of this shared machine
  // weighs on every case alike.
  for (let i = 0; i < batch; i++) {
    const shift = (round + i) % names.length;
    for (const name of [...names.slice(shift), ...names.slice(0, shift)]) sums[name]! += await cpuTime(cases[name]!, round * batch + i);
  }
  for (const name of names) samples[name]!.push(sums[name]! / batch);
}

const ms = Object.fromEntries(names.map((name) => [name, Number(median(samples[name]!).toFixed(3))]));
const before = ms.v2! + ms['v3 noble']!;
const result = {
  date: new Date().toISOString(),
  node: process.version,
  loadAverage: loadavg().map((load) => Number(load.toFixed(2))),
  rounds,
  batch,
  msPerDerivation: ms,
  ranges: Object.fromEntries(
    names.map((name) => [name, [Math.min(...samples[name]!), Math.max(...samples[name]!)].map((v) => Number(v.toFixed(3)))]),
  ),
  /** Rate of a v3 raw registration's derivation over v2's: the goal is ≥ 0.5. */
  rateRatioBefore: Number((ms.v2! / before).toFixed(3)),
  rateRatioAfter: Number((ms.v2! / ms.registration!).toFixed(3)),
  v3SpeedUp: Number((ms['v3 noble']! / ms['v3 wasm']!).toFixed(2)),
  uptime: execSync('uptime').toString().trim(),
};
const out = path.join(import.meta.dirname, 'results', 'raw-derivation-v3.json');
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
