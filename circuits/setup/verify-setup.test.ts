import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCircom } from './compile-circom.ts';
import { fileDigest } from './file-digest.ts';
import { importPhase1 } from './import-phase1.ts';
import { beaconPhase2, contributePhase1, contributePhase2, initPhase1, startPhase2 } from './phase-steps.ts';
import { preparePhase1 } from './prepare-phase1.ts';
import { currentPins } from './setup-pins.ts';
import { setupFiles, type SetupLayout, type SetupPins } from './setup-files.ts';
import { curves, powersOfTau, releaseCurve, zKey } from './snarkjs-setup.ts';
import { readTranscript, writeTranscript } from './transcript.ts';
import { verifySetup } from './verify-setup.ts';

// The ceremony's rules (decision 072) on a three-constraint circuit with a 2^5 phase 1 made here, so
// every substitution is tried in seconds; `npm run ceremony -- verify` runs the same checks on the
// real setup (minutes; the bench's "setup" entry).
const fixtures = path.join(import.meta.dirname, 'fixture');
const scratch = mkdtempSync(path.join(tmpdir(), 'zeroid-setup-'));
const POWER = 5;
const beacon = { value: '0f'.repeat(32), iterationsExp: 10, source: 'a value announced in advance' };

const BLAKE2B = expect.stringMatching(/^[0-9a-f]{128}$/) as unknown as string;

let good: SetupLayout;
let goodPins: SetupPins;
let counter = 0;

function layoutIn(dir: string): SetupLayout {
  return {
    circuit: path.join(dir, 'product.circom'),
    artifacts: path.join(dir, 'artifacts'),
    transcript: path.join(dir, 'ceremony', 'transcript.json'),
    work: path.join(dir, 'work'),
  };
}

/** A copy of the good setup (its files, transcript, source and cache) to attack. */
function copyOfGood(): SetupLayout {
  const dir = path.join(scratch, `attack-${++counter}`);
  for (const part of ['artifacts', 'ceremony'])
    cpSync(path.join(path.dirname(good.circuit), part), path.join(dir, part), { recursive: true });
  copyFileSync(good.circuit, path.join(dir, 'product.circom'));
  // The prepared phase 1 (a cache: verify uses it only with the pinned hash); not the recompiles.
  cpSync(good.work, path.join(dir, 'work'), { recursive: true, filter: (f) => !path.basename(f).startsWith('compile-') });
  return layoutIn(dir);
}

async function compileInto(layout: SetupLayout, source: string): Promise<void> {
  const out = mkdtempSync(path.join(scratch, 'out-'));
  const { r1cs, wasm } = await compileCircom(source, out);
  mkdirSync(layout.artifacts, { recursive: true });
  copyFileSync(r1cs, setupFiles(layout).r1cs);
  copyFileSync(wasm, setupFiles(layout).wasm);
}

/** A complete local setup: a 2^8 phase 1 with two contributions, phase 2 with two. Returns its pins. */
async function buildSetup(layout: SetupLayout, source: string): Promise<SetupPins> {
  mkdirSync(layout.work, { recursive: true });
  await compileInto(layout, source);
  await initPhase1(layout, POWER);
  await contributePhase1(layout, 'fixture phase 1, contribution 1');
  await contributePhase1(layout, 'fixture phase 1, contribution 2');
  const prepared = await startPhase2(layout);
  await contributePhase2(layout, 'fixture phase 2, contribution 1');
  await contributePhase2(layout, 'fixture phase 2, contribution 2');
  return currentPins(layout, prepared);
}

beforeAll(async () => {
  mkdirSync(path.join(scratch, 'good'));
  copyFileSync(path.join(fixtures, 'product.circom'), path.join(scratch, 'good', 'product.circom'));
  good = layoutIn(path.join(scratch, 'good'));
  goodPins = await buildSetup(good, good.circuit);
}, 240_000);

afterAll(async () => {
  await releaseCurve();
  rmSync(scratch, { recursive: true, force: true });
});

describe('ceremony verify', { timeout: 240_000 }, () => {
  it('passes the setup as built, and reports what it is', async () => {
    await expect(verifySetup(good, goodPins)).resolves.toEqual({
      phase1: 'local',
      contributions: 2,
      beacon: false,
      final: false,
      phase1Blake2b: BLAKE2B,
    });
  });

  it('refuses a substituted R1CS and witness generator, set up again and re-pinned, with the transcript put back', async () => {
    const attacked = copyOfGood();
    const transcript = readFileSync(attacked.transcript, 'utf8');
    const other = layoutIn(path.join(scratch, `substitute-${++counter}`));
    await compileInto(other, path.join(fixtures, 'substitute.circom'));
    for (const name of ['r1cs', 'wasm'] as const) copyFileSync(setupFiles(other)[name], setupFiles(attacked)[name]);
    // Phase 2 of the substitute on the good phase 1, so only the circuit differs.
    const prepared = await startPhase2(attacked, undefined, goodPins.preparedPhase1);
    await contributePhase2(attacked, 'fixture phase 2, contribution 1');
    await contributePhase2(attacked, 'fixture phase 2, contribution 2');
    const repinned = await currentPins(attacked, prepared);
    writeFileSync(attacked.transcript, transcript);
    await expect(verifySetup(attacked, repinned)).rejects.toThrow('product.r1cs is not what product.circom compiles to');
    // …and the wasm alone.
    const wasmOnly = copyOfGood();
    copyFileSync(setupFiles(other).wasm, setupFiles(wasmOnly).wasm);
    await expect(verifySetup(wasmOnly, await currentPins(wasmOnly, goodPins.preparedPhase1))).rejects.toThrow(
      'product.wasm is not what product.circom compiles to',
    );
  });

  it('refuses a file whose hash is not the one pinned in code', async () => {
    const attacked = copyOfGood();
    const vkey = setupFiles(attacked).vkey;
    writeFileSync(vkey, readFileSync(vkey, 'utf8').replace('"IC"', '"IC" '));
    await expect(verifySetup(attacked, goodPins)).rejects.toThrow(/^product\.vkey\.json has SHA-256 [0-9a-f]{64}, but the code pins/);
  });

  it('never takes a foreign phase 1 at the prepared-file cache path: it is prepared again, and a phase 2 on the foreign one fails', async () => {
    const attacked = copyOfGood();
    // A foreign phase 1, prepared, put where the cache of the good one would be.
    const foreign = layoutIn(path.join(scratch, `foreign-${++counter}`));
    await compileInto(foreign, path.join(fixtures, 'product.circom'));
    await initPhase1(foreign, POWER);
    await contributePhase1(foreign, 'someone else');
    const foreignPrepared = await startPhase2(foreign);
    const cachePath = path.join(attacked.work, `phase1-${goodPins.files['phase1.ptau']!.sha256.slice(0, 16)}.prepared.ptau`);
    copyFileSync(path.join(foreign.work, `phase1-${(await fileDigest(setupFiles(foreign).phase1)).slice(0, 16)}.prepared.ptau`), cachePath);
    // The proving key made on the foreign phase 1, with the transcript's phase 2 rewritten to match and everything re-pinned.
    copyFileSync(setupFiles(foreign).zkey, setupFiles(attacked).zkey);
    copyFileSync(setupFiles(foreign).vkey, setupFiles(attacked).vkey);
    const transcript = readTranscript(attacked.transcript).filter((e) => e.phase === 1);
    writeTranscript(attacked.transcript, [...transcript, ...readTranscript(foreign.transcript).filter((e) => e.phase === 2)]);
    const repinned = await currentPins(attacked, goodPins.preparedPhase1);
    repinned.state = { ...repinned.state, contributions: 0 };
    await expect(verifySetup(attacked, repinned)).rejects.toThrow(
      /^product\.zkey is not a phase 2 of this R1CS on this phase 1 \(.*Invalid alpha1/,
    );
    // The cache now holds the good phase 1's preparation, written whole.
    expect(await fileDigest(cachePath)).toBe(goodPins.preparedPhase1);
    expect(foreignPrepared).not.toBe(goodPins.preparedPhase1);
  });

  it('refuses a prepared phase 1 whose pinned hash is not what phase 1 prepares to; the preparation is deterministic', async () => {
    const dir = mkdtempSync(path.join(scratch, 'prepare-'));
    const again = await preparePhase1(setupFiles(good).phase1, dir);
    expect(again.sha256).toBe(goodPins.preparedPhase1);
    await expect(verifySetup(copyOfGood(), { ...goodPins, preparedPhase1: '0'.repeat(64) })).rejects.toThrow(
      `phase1.ptau prepares to SHA-256 ${goodPins.preparedPhase1}, not the pinned ${'0'.repeat(64)}`,
    );
  });

  it('refuses a phase-2 contribution removed (an earlier proving key), re-pinned', async () => {
    const attacked = copyOfGood();
    const zkey = setupFiles(attacked).zkey;
    // Phase 2 again with one contribution: the transcript (put back) still records two.
    const transcript = readFileSync(attacked.transcript, 'utf8');
    const prepared = await startPhase2(attacked, undefined, goodPins.preparedPhase1);
    await contributePhase2(attacked, 'fixture phase 2, contribution 1');
    writeFileSync(attacked.transcript, transcript);
    await expect(verifySetup(attacked, await currentPins(attacked, prepared))).rejects.toThrow(
      /product\.zkey carries 1 contributions, transcript\.json records 2 for phase 2|transcript\.json does not begin phase 2/,
    );
    expect(zkey).toBeTruthy();
  });

  it('refuses a phase-1 contribution removed', async () => {
    const attacked = layoutIn(path.join(scratch, `short-${++counter}`));
    mkdirSync(path.dirname(attacked.circuit), { recursive: true });
    copyFileSync(good.circuit, attacked.circuit);
    await compileInto(attacked, attacked.circuit);
    mkdirSync(attacked.work, { recursive: true });
    await initPhase1(attacked, POWER);
    await contributePhase1(attacked, 'fixture phase 1, contribution 1');
    const prepared = await startPhase2(attacked);
    await contributePhase2(attacked, 'fixture phase 2, contribution 1');
    await contributePhase2(attacked, 'fixture phase 2, contribution 2');
    const pins = await currentPins(attacked, prepared);
    cpSync(good.transcript, attacked.transcript);
    await expect(verifySetup(attacked, pins)).rejects.toThrow('phase1.ptau carries 1 contributions, transcript.json records 2 for phase 1');
  });

  it('refuses an edited transcript: a name, a hash, an entry removed', async () => {
    const edits: Array<[string, (t: ReturnType<typeof readTranscript>) => void, string | RegExp]> = [
      [
        'name',
        (t) => (t[1]!.name = 'an independent operator'),
        'phase-1 contribution 1: phase1.ptau names it "fixture phase 1, contribution 1", transcript.json "an independent operator"',
      ],
      [
        'hash',
        (t) => (t.at(-1)!.hash = 'ab'.repeat(64)),
        /phase-2 contribution 2 \("fixture phase 2, contribution 2"\): its hash in product\.zkey is not the one transcript\.json records/,
      ],
      ['removed', (t) => t.splice(2, 1), 'phase1.ptau carries 2 contributions, transcript.json records 1 for phase 1'],
    ];
    for (const [, edit, message] of edits) {
      const attacked = copyOfGood();
      const transcript = readTranscript(attacked.transcript);
      edit(transcript);
      writeTranscript(attacked.transcript, transcript);
      await expect(verifySetup(attacked, goodPins)).rejects.toThrow(message);
    }
  });

  it('refuses a beacon recorded that was not run, and passes one that was', async () => {
    const claimed = copyOfGood();
    const transcript = readTranscript(claimed.transcript);
    writeTranscript(claimed.transcript, [
      ...transcript,
      { phase: 2, kind: 'beacon', name: `beacon: ${beacon.source}`, hash: 'cd'.repeat(64), beacon, date: new Date().toISOString() },
    ]);
    await expect(verifySetup(claimed, { ...goodPins, state: { ...goodPins.state, beacon: true } })).rejects.toThrow(
      'product.zkey carries 2 contributions, transcript.json records 3 for phase 2',
    );
    // The last contribution relabelled as a beacon.
    const relabelled = copyOfGood();
    const t2 = readTranscript(relabelled.transcript);
    Object.assign(t2.at(-1)!, { kind: 'beacon', beacon });
    writeTranscript(relabelled.transcript, t2);
    await expect(verifySetup(relabelled, goodPins)).rejects.toThrow('transcript.json records a beacon, product.zkey holds a contribution');

    const closed = copyOfGood();
    await beaconPhase2(closed, beacon);
    const pins = await currentPins(closed, goodPins.preparedPhase1);
    await expect(verifySetup(closed, pins)).resolves.toEqual({
      phase1: 'local',
      contributions: 2,
      beacon: true,
      final: false,
      phase1Blake2b: BLAKE2B,
    });
    // A beacon run with another value than the transcript's.
    const t3 = readTranscript(closed.transcript);
    t3.at(-1)!.beacon = { ...beacon, value: '1f'.repeat(32) };
    writeTranscript(closed.transcript, t3);
    await expect(verifySetup(closed, pins)).rejects.toThrow(
      'the beacon in product.zkey is not the value and iterations transcript.json records',
    );
  });

  it('refuses a phase-2 contribution whose name holds a line break, which would hide it from the reading of the file', async () => {
    const attacked = copyOfGood();
    const files = setupFiles(attacked);
    const next = `${files.zkey}.next`;
    await zKey.contribute(files.zkey, next, 'fixture phase 2, contribution 3\n', 'c'.repeat(64));
    copyFileSync(next, files.zkey);
    writeFileSync(files.vkey, `${JSON.stringify(await zKey.exportVerificationKey(files.zkey), null, 2)}\n`);
    await expect(verifySetup(attacked, await currentPins(attacked, goodPins.preparedPhase1))).rejects.toThrow(
      'product.zkey holds a contribution whose name has a control character: "fixture phase 2, contribution 3\\n"',
    );
  });

  it('refuses to make a contribution whose name has a control or format character (U+2028, a bidirectional override)', async () => {
    for (const name of ['x\u2028Contribution #2: fake', 'right\u202Eleft', 'zero\u200Bwidth', 'tab\there']) {
      await expect(contributePhase2(copyOfGood(), name)).rejects.toThrow("A contribution's name has a control or format character");
    }
  });

  it('refuses a contribution name longer than the file keeps, so the transcript always says what the file carries', async () => {
    await expect(contributePhase2(copyOfGood(), 'x'.repeat(65))).rejects.toThrow("A contribution's name is at most 64 characters");
  });

  it('refuses a state pinned in code that the transcript does not describe', async () => {
    await expect(
      verifySetup(copyOfGood(), { ...goodPins, state: { phase1: 'public', contributions: 2, beacon: true, final: true } }),
    ).rejects.toThrow(/^The transcript describes the setup as .*"final":false.*, the code pins .*"final":true/);
  });
});

describe('ceremony import-phase1', { timeout: 240_000 }, () => {
  /** A public ceremony's final file, as the Hermez ones are: contributions, a beacon, prepared for phase 2. */
  async function publicPhase1(power: number): Promise<{ file: string; blake2b: string }> {
    const dir = mkdtempSync(path.join(scratch, 'public-'));
    const step = (n: number) => path.join(dir, `pot_${n}.ptau`);
    await powersOfTau.newAccumulator(await curves.getCurveFromName('bn128'), power, step(0));
    await powersOfTau.contribute(step(0), step(1), 'public participant 1', 'a'.repeat(64));
    await powersOfTau.contribute(step(1), step(2), 'public participant 2', 'b'.repeat(64));
    await powersOfTau.beacon(step(2), step(3), 'public beacon', beacon.value, beacon.iterationsExp);
    const final = path.join(dir, 'final.ptau');
    await powersOfTau.preparePhase2(step(3), final);
    return { file: final, blake2b: await fileDigest(final, 'blake2b512') };
  }

  let published: { file: string; blake2b: string };
  /** The public hashes this test's "build" pins: the fixture ceremony's, in place of the Hermez files'. */
  let known: string[];
  beforeAll(async () => {
    published = await publicPhase1(POWER);
    known = [published.blake2b];
  }, 240_000);

  it('refuses a file of one’s own imported under its own hash: "public" is only what the build pins', async () => {
    const layout = copyOfGood();
    const own = await publicPhase1(POWER);
    await expect(importPhase1(layout, own.file, own.blake2b)).rejects.toThrow(
      /is not the published hash of a public phase 1 this build knows \(powersOfTau28_hez_final_14\.ptau/,
    );
    await expect(importPhase1(layout, own.file, own.blake2b, undefined, known)).rejects.toThrow('is not the published hash');
    await expect(verifySetup(layout, goodPins)).resolves.toMatchObject({ phase1: 'local' });
    // A transcript that records an import under a hash nobody pinned describes a local phase 1.
    const imported = copyOfGood();
    await importPhase1(imported, own.file, own.blake2b, undefined, [own.blake2b]);
    await contributePhase2(imported, 'operator A');
    await contributePhase2(imported, 'operator B');
    await beaconPhase2(imported, beacon);
    const pins = await currentPins(imported, await fileDigest(own.file), known);
    expect(pins.state).toEqual({ phase1: 'local', contributions: 2, beacon: true, final: false });
    await expect(verifySetup(imported, pins, undefined, known)).resolves.toMatchObject({ phase1: 'local', final: false });
    await expect(
      verifySetup(imported, { ...pins, state: { ...pins.state, phase1: 'public', final: true } }, undefined, known),
    ).rejects.toThrow(/^The transcript describes the setup as .*"phase1":"local"/);
  });

  it('takes a public file with its published hash, restarts phase 2 on it, and verify then holds it to its own chain', async () => {
    const layout = copyOfGood();
    const prepared = await importPhase1(layout, published.file, published.blake2b.toUpperCase(), undefined, known);
    expect(prepared).toBe(await fileDigest(published.file));
    const transcript = readTranscript(layout.transcript);
    expect(transcript.map((e) => [e.phase, e.kind, e.name])).toEqual([
      [1, 'import', 'final.ptau'],
      [1, 'contribution', 'public participant 1'],
      [1, 'contribution', 'public participant 2'],
      [1, 'beacon', 'public beacon'],
      [2, 'start', 'groth16 setup of product.r1cs'],
    ]);
    await expect(verifySetup(layout, await currentPins(layout, prepared, known), undefined, known)).resolves.toEqual({
      phase1: 'public',
      contributions: 0,
      beacon: false,
      final: false,
      phase1Blake2b: published.blake2b,
    });
    await contributePhase2(layout, 'operator A');
    await contributePhase2(layout, 'operator B');
    await beaconPhase2(layout, beacon);
    await expect(verifySetup(layout, await currentPins(layout, prepared, known), undefined, known)).resolves.toEqual({
      phase1: 'public',
      contributions: 2,
      beacon: true,
      final: true,
      phase1Blake2b: published.blake2b,
    });
  });

  it('refuses a wrong published hash, and leaves the setup as it was', async () => {
    const layout = copyOfGood();
    await expect(importPhase1(layout, published.file, 'ee'.repeat(64), undefined, [...known, 'ee'.repeat(64)])).rejects.toThrow(
      `final.ptau has BLAKE2b-512 ${published.blake2b}, not the published ${'ee'.repeat(64)}`,
    );
    await expect(verifySetup(layout, goodPins)).resolves.toMatchObject({ phase1: 'local' });
  });

  it('refuses a tampered file, even with the tampered file’s own hash', async () => {
    const tampered = path.join(scratch, 'tampered.ptau');
    const bytes = readFileSync(published.file);
    // A byte in the middle of the tau·G1 powers.
    bytes[Math.floor(bytes.length / 8)]! ^= 0x01;
    writeFileSync(tampered, bytes);
    const layout = copyOfGood();
    await expect(importPhase1(layout, tampered, published.blake2b, undefined, known)).rejects.toThrow(
      /^tampered\.ptau has BLAKE2b-512 [0-9a-f]{128}, not the published/,
    );
    const ownHash = await fileDigest(tampered, 'blake2b512');
    await expect(importPhase1(layout, tampered, ownHash, undefined, [ownHash])).rejects.toThrow('tampered.ptau does not verify');
  });

  it('refuses a public file too small for the circuit', async () => {
    const small = await publicPhase1(2);
    await expect(importPhase1(copyOfGood(), small.file, small.blake2b, undefined, [small.blake2b])).rejects.toThrow(
      'final.ptau is 2^2, too small for the circuit: 3 constraints need 2^3',
    );
  });
});
