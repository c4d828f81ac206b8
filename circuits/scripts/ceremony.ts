import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as snarkjs from 'snarkjs';

/**
 * The trusted setup of the v3 registration circuit (decision 040): a phase 1 (powers of tau, 2¹⁴, our
 * own multi-contribution ceremony, since no npm package ships a public one) and the circuit's phase 2,
 * both in snarkjs's formats, whose files carry every contribution so far. Each command rewrites the
 * artifacts, the transcript (ceremony/transcript.json) and the checksums (artifacts/checksums.json).
 *
 *   npm run ceremony -- contribute-phase1 "<name>"        add a phase-1 contribution (restarts phase 2)
 *   npm run ceremony -- beacon-phase1 <hex> <exp> "<source>"   close phase 1 with a public random beacon
 *   npm run ceremony -- setup                             start phase 2 from the current phase 1
 *   npm run ceremony -- contribute "<name>"               add a phase-2 contribution
 *   npm run ceremony -- beacon <hex> <exp> "<source>"     close phase 2 with a public random beacon
 *   npm run ceremony -- verify                            verify both chains, the key and the checksums
 *   npm run ceremony -- checksums                         re-pin the files after a recompile that changed only the .wasm
 *
 * A contribution's entropy is 64 bytes from the operating system's CSPRNG, used once and never
 * written anywhere; the setup is sound if one contributor of each phase forgot theirs.
 */
type Logger = { info(m: string): void; debug(): void; warn(m: string): void; error(m: string): void };
/** The parts of snarkjs 0.7 used here, typed as its code has them (@types/snarkjs has `powersOfTau.verify` wrong and no `curves`). */
const { powersOfTau, zKey, curves } = snarkjs as unknown as {
  curves: { getCurveFromName(name: string): Promise<unknown> };
  powersOfTau: {
    newAccumulator(curve: unknown, power: number, file: string, logger: Logger): Promise<unknown>;
    contribute(old: string, next: string, name: string, entropy: string, logger: Logger): Promise<Uint8Array>;
    beacon(old: string, next: string, name: string, beacon: string, iterationsExp: number, logger: Logger): Promise<Uint8Array>;
    preparePhase2(old: string, next: string, logger: Logger): Promise<void>;
    verify(file: string, logger: Logger): Promise<boolean>;
  };
  zKey: {
    newZKey(r1cs: string, ptau: string, zkey: string, logger: Logger): Promise<Uint8Array>;
    contribute(old: string, next: string, name: string, entropy: string, logger: Logger): Promise<Uint8Array>;
    beacon(old: string, next: string, name: string, beacon: string, iterationsExp: number, logger: Logger): Promise<Uint8Array>;
    verifyFromR1cs(r1cs: string, ptau: string, zkey: string, logger: Logger): Promise<boolean>;
    exportVerificationKey(zkey: string): Promise<object>;
  };
};

const root = path.join(import.meta.dirname, '..');
const artifacts = path.join(root, 'artifacts');
const work = path.join(root, '.tmp');
const file = (name: string) => path.join(artifacts, name);
const PHASE1 = file('phase1.ptau');
const R1CS = file('registration-v3.r1cs');
const WASM = file('registration-v3.wasm');
const ZKEY = file('registration-v3.zkey');
const VKEY = file('registration-v3.vkey.json');
const CHECKSUMS = file('checksums.json');
const TRANSCRIPT = path.join(root, 'ceremony', 'transcript.json');
const POWER = 14;

interface Entry {
  phase: 1 | 2;
  kind: 'start' | 'contribution' | 'beacon';
  name: string;
  /** snarkjs's contribution hash, as its `verify` prints it. */
  hash?: string;
  beacon?: { value: string; iterationsExp: number; source: string };
  date: string;
}

const logger: Logger = {
  info: (m: string) => console.log(m),
  debug: () => {},
  warn: (m: string) => console.warn(m),
  error: (m: string) => console.error(m),
};
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const readTranscript = (): Entry[] => (existsSync(TRANSCRIPT) ? (JSON.parse(readFileSync(TRANSCRIPT, 'utf8')) as Entry[]) : []);
function record(entry: Omit<Entry, 'date'>): void {
  mkdirSync(path.dirname(TRANSCRIPT), { recursive: true });
  writeFileSync(TRANSCRIPT, `${JSON.stringify([...readTranscript(), { ...entry, date: new Date().toISOString() }], null, 2)}\n`);
}
const scratch = (name: string) => (mkdirSync(work, { recursive: true }), path.join(work, name));

/** Phase 2 needs phase 1 with its Lagrange bases; computing them is deterministic, so they are cached, not committed. */
async function preparedPhase1(): Promise<string> {
  const digest = createHash('sha256').update(readFileSync(PHASE1)).digest('hex').slice(0, 16);
  const prepared = scratch(`phase1-${digest}.prepared.ptau`);
  if (!existsSync(prepared)) await powersOfTau.preparePhase2(PHASE1, prepared, logger);
  return prepared;
}

function writeChecksums(): void {
  const files = Object.fromEntries(
    [PHASE1, R1CS, WASM, ZKEY, VKEY].filter(existsSync).map((f) => {
      const bytes = readFileSync(f);
      return [path.basename(f), { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length }];
    }),
  );
  writeFileSync(CHECKSUMS, `${JSON.stringify({ circuit: 'registration-v3', power: POWER, files }, null, 2)}\n`);
}

async function exportKey(): Promise<void> {
  writeFileSync(VKEY, `${JSON.stringify(await zKey.exportVerificationKey(ZKEY), null, 2)}\n`);
  writeChecksums();
}

function beaconArgs(args: string[]): { value: string; iterationsExp: number; source: string } {
  const [value, exp, source] = args;
  if (!value || !/^[0-9a-f]{64}$/i.test(value) || !exp || !source)
    throw new Error('Usage: beacon <64 hex digits> <iterations exponent, e.g. 10> "<where the value was published>"');
  return { value, iterationsExp: Number(exp), source };
}

const [command, ...args] = process.argv.slice(2);
switch (command) {
  case 'init-phase1': {
    if (existsSync(PHASE1)) throw new Error('Phase 1 exists; add contributions instead');
    mkdirSync(artifacts, { recursive: true });
    await powersOfTau.newAccumulator(await curves.getCurveFromName('bn128'), POWER, PHASE1, logger);
    record({ phase: 1, kind: 'start', name: `new accumulator, 2^${POWER}` });
    writeChecksums();
    break;
  }
  case 'contribute-phase1': {
    const name = args[0];
    if (!name) throw new Error('Usage: contribute-phase1 "<name>"');
    const next = scratch('phase1.next.ptau');
    const hash = await powersOfTau.contribute(PHASE1, next, name, hex(randomBytes(64)), logger);
    renameSync(next, PHASE1);
    record({ phase: 1, kind: 'contribution', name, hash: hex(hash) });
    if (existsSync(ZKEY)) {
      rmSync(ZKEY);
      rmSync(VKEY, { force: true });
      console.warn('Phase 2 was started on the old phase 1: run `setup` and collect its contributions again.');
    }
    writeChecksums();
    break;
  }
  case 'beacon-phase1': {
    const beacon = beaconArgs(args);
    const next = scratch('phase1.next.ptau');
    const hash = await powersOfTau.beacon(PHASE1, next, `beacon: ${beacon.source}`, beacon.value, beacon.iterationsExp, logger);
    renameSync(next, PHASE1);
    record({ phase: 1, kind: 'beacon', name: beacon.source, hash: hex(hash), beacon });
    writeChecksums();
    break;
  }
  case 'setup': {
    if (!existsSync(R1CS) || !existsSync(WASM)) throw new Error('Compile first: npm run circuit:compile');
    const csHash = await zKey.newZKey(R1CS, await preparedPhase1(), ZKEY, logger);
    record({ phase: 2, kind: 'start', name: 'groth16 setup of registration-v3.r1cs', hash: hex(csHash) });
    await exportKey();
    break;
  }
  case 'contribute': {
    const name = args[0];
    if (!name) throw new Error('Usage: contribute "<name>"');
    const next = scratch('registration-v3.next.zkey');
    const hash = await zKey.contribute(ZKEY, next, name, hex(randomBytes(64)), logger);
    copyFileSync(next, ZKEY);
    rmSync(next);
    record({ phase: 2, kind: 'contribution', name, hash: hex(hash) });
    await exportKey();
    break;
  }
  case 'beacon': {
    const beacon = beaconArgs(args);
    const next = scratch('registration-v3.next.zkey');
    const hash = await zKey.beacon(ZKEY, next, `beacon: ${beacon.source}`, beacon.value, beacon.iterationsExp, logger);
    copyFileSync(next, ZKEY);
    rmSync(next);
    record({ phase: 2, kind: 'beacon', name: beacon.source, hash: hex(hash), beacon });
    await exportKey();
    break;
  }
  case 'checksums': {
    // After `npm run circuit:compile` changed only the witness generator (its error messages carry
    // source line numbers, so a comment can change its bytes while the R1CS and the keys stay).
    writeChecksums();
    break;
  }
  case 'verify': {
    const checksums = JSON.parse(readFileSync(CHECKSUMS, 'utf8')) as { files: Record<string, { sha256: string }> };
    for (const [name, { sha256 }] of Object.entries(checksums.files)) {
      if (
        createHash('sha256')
          .update(readFileSync(file(name)))
          .digest('hex') !== sha256
      )
        throw new Error(`${name} does not match checksums.json`);
    }
    if (!(await powersOfTau.verify(PHASE1, logger))) throw new Error('Phase 1 does not verify');
    if (!(await zKey.verifyFromR1cs(R1CS, await preparedPhase1(), ZKEY, logger))) throw new Error('Phase 2 does not verify');
    const vkey = JSON.stringify(await zKey.exportVerificationKey(ZKEY), null, 2);
    if (`${vkey}\n` !== readFileSync(VKEY, 'utf8')) throw new Error('registration-v3.vkey.json is not the key of registration-v3.zkey');
    console.log('The ceremony verifies: phase 1, phase 2 from this circuit, the verification key and every checksum.');
    break;
  }
  default:
    throw new Error('Commands: init-phase1, contribute-phase1, beacon-phase1, setup, contribute, beacon, checksums, verify');
}
await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
