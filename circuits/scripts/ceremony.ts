import { existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { REGISTRATION_V3_SETUP } from '@zeroid/protocol/v3';
import { importPhase1 } from '../setup/import-phase1.ts';
import {
  beaconPhase1,
  beaconPhase2,
  contributePhase1,
  contributePhase2,
  initPhase1,
  startPhase2,
  type Beacon,
} from '../setup/phase-steps.ts';
import { currentPins } from '../setup/setup-pins.ts';
import type { SetupLayout, SetupPins } from '../setup/setup-files.ts';
import { consoleLogger, releaseCurve } from '../setup/snarkjs-setup.ts';
import { verifySetup } from '../setup/verify-setup.ts';

/**
 * The trusted setup of the v3 registration circuit (decisions 040, 072): phase 1 (powers of tau,
 * 2¹⁴: a public ceremony's file, imported, or a local accumulator) and the circuit's phase 2, both in
 * snarkjs's formats, whose files carry every contribution so far. Each command rewrites the
 * artifacts, the transcript (ceremony/transcript.json) and the hashes pinned in code
 * (packages/protocol/src/v3/registration-setup.ts, which the server refuses to start without).
 *
 *   npm run ceremony -- import-phase1 FILE BLAKE2B     phase 1 from a public ceremony's file (restarts phase 2)
 *   npm run ceremony -- init-phase1                    a local phase 1 (a new accumulator)
 *   npm run ceremony -- contribute-phase1 "<name>"     add a local phase-1 contribution (restarts phase 2)
 *   npm run ceremony -- beacon-phase1 <hex> <exp> "<source>"   close a local phase 1 with a public random beacon
 *   npm run ceremony -- setup                          start phase 2 from the current phase 1
 *   npm run ceremony -- contribute "<name>"            add a phase-2 contribution
 *   npm run ceremony -- beacon <hex> <exp> "<source>"  close phase 2 with a public random beacon
 *   npm run ceremony -- verify                         the whole chain, from the circuit's source (minutes)
 *   npm run ceremony -- pins                           re-pin after a recompile that changed only the .wasm
 *
 * The setup is sound if one contributor of each phase forgot their entropy.
 */
const root = path.join(import.meta.dirname, '..');
const layout: SetupLayout = {
  circuit: path.join(root, 'registration-v3.circom'),
  artifacts: path.join(root, 'artifacts'),
  transcript: path.join(root, 'ceremony', 'transcript.json'),
  work: path.join(root, '.tmp'),
};
const PINS_FILE = path.join(root, '..', 'packages', 'protocol', 'src', 'v3', 'registration-setup.ts');
const POWER = 14;
const log = consoleLogger;

/** Rewrites the TypeScript constant the server and `verify` hold the files to. */
async function pin(preparedPhase1: string): Promise<void> {
  const pins: SetupPins = await currentPins(layout, preparedPhase1);
  const source = `/**
 * The trusted setup of the v3 registration circuit this build accepts (decision 072): each file's
 * SHA-256 and size, the SHA-256 of phase 1 prepared for phase 2, and what the setup is. Written by
 * \`npm run ceremony\` (circuits/scripts/ceremony.ts); \`npm run ceremony -- verify\` holds the files in
 * circuits/artifacts/ and circuits/ceremony/transcript.json to it, and the server refuses to start on
 * any other file. \`state.final\` is false until phase 1 is a public ceremony's, phase 2 has two or
 * more contributions and a closing beacon: the server warns at every start until then.
 */
export const REGISTRATION_V3_SETUP = ${JSON.stringify(pins, null, 2)} as const;

export type RegistrationSetupState = (typeof REGISTRATION_V3_SETUP)['state'];
`;
  const formatted = await format(source, { ...(await resolveConfig(PINS_FILE)), filepath: PINS_FILE });
  writeFileSync(`${PINS_FILE}.tmp`, formatted);
  renameSync(`${PINS_FILE}.tmp`, PINS_FILE);
}

function beaconArgs(args: string[]): Beacon {
  const [value, exp, source] = args;
  if (!value || !/^[0-9a-f]{64}$/i.test(value) || !exp || !source)
    throw new Error('Usage: beacon <64 hex digits> <iterations exponent, e.g. 10> "<where the value was published>"');
  return { value: value.toLowerCase(), iterationsExp: Number(exp), source };
}

const pinnedPrepared: string = REGISTRATION_V3_SETUP.preparedPhase1;
const [command, ...args] = process.argv.slice(2);
switch (command) {
  case 'import-phase1': {
    const [file, hash] = args;
    if (!file || !hash || !existsSync(file)) throw new Error('Usage: import-phase1 <the .ptau file> <its published BLAKE2b-512>');
    await pin(await importPhase1(layout, file, hash, log));
    console.warn('Phase 2 restarted on the imported phase 1: collect its contributions and close it with a beacon.');
    break;
  }
  case 'init-phase1':
    await initPhase1(layout, POWER, log);
    await pin('');
    break;
  case 'contribute-phase1':
    if (!args[0]) throw new Error('Usage: contribute-phase1 "<name>"');
    await contributePhase1(layout, args[0], log);
    await pin('');
    break;
  case 'beacon-phase1':
    await beaconPhase1(layout, beaconArgs(args), log);
    await pin('');
    break;
  case 'setup':
    await pin(await startPhase2(layout, log));
    break;
  case 'contribute':
    if (!args[0]) throw new Error('Usage: contribute "<name>"');
    await contributePhase2(layout, args[0], log);
    await pin(pinnedPrepared);
    break;
  case 'beacon':
    await beaconPhase2(layout, beaconArgs(args), log);
    await pin(pinnedPrepared);
    break;
  case 'pins':
    // After `npm run circuit:compile` changed only the witness generator (its error messages carry
    // source line numbers, so a comment can change its bytes while the R1CS and the keys stay).
    await pin(pinnedPrepared);
    break;
  case 'verify': {
    const state = await verifySetup(layout, REGISTRATION_V3_SETUP, log);
    console.log(
      `The setup verifies: the circuit compiles to these files, phase 1 and phase 2 carry the transcript's contributions, ` +
        `phase 2 is built on this phase 1, and every hash is the one pinned in code. State: ${JSON.stringify(state)}`,
    );
    console.log(`Phase 1's BLAKE2b-512: ${state.phase1Blake2b}`);
    const missing = [
      state.phase1 === 'public' ? '' : 'a public phase 1 (import-phase1)',
      state.contributions >= 2 ? '' : `${2 - state.contributions} more phase-2 contribution(s)`,
      state.beacon ? '' : 'a closing beacon',
    ].filter(Boolean);
    if (!state.final)
      console.warn(`Not final: missing ${missing.join(', ')}. Contributions count as independent only if their contributors are.`);
    break;
  }
  default:
    throw new Error('Commands: import-phase1, init-phase1, contribute-phase1, beacon-phase1, setup, contribute, beacon, pins, verify');
}
await releaseCurve();
