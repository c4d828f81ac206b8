import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { CEREMONY_CIRCUITS, ceremonyCircuit, type CeremonyCircuit } from '../setup/ceremony-circuits.ts';
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
import { shareMainPhase1 } from '../setup/share-phase1.ts';
import { currentPins } from '../setup/setup-pins.ts';
import type { SetupPins } from '../setup/setup-files.ts';
import { consoleLogger, releaseCurve } from '../setup/snarkjs-setup.ts';
import { verifySetup } from '../setup/verify-setup.ts';

/**
 * The trusted setups of the registration circuits (decisions 040, 072, 085): one phase 1 (powers of
 * tau, 2¹⁴: a public ceremony's file, imported, or a local accumulator) shared by every circuit in
 * circuits/setup/ceremony-circuits.ts, and each circuit's own phase 2, all in snarkjs's formats, whose
 * files carry every contribution so far. Each circuit has its own transcript (ceremony/transcript.json
 * for registration-v3, ceremony/<name>.transcript.json for the others) and its own pins in code
 * (packages/protocol/src/v3/registration-setup.ts, registration-credential-setup.ts), which the server
 * refuses to start without. Phase-2 commands act on `--circuit NAME` (registration-v3 when not given);
 * phase-1 commands on the shared file, restarting every circuit's phase 2; `verify` checks every
 * circuit unless one is named.
 *
 *   npm run ceremony -- import-phase1 FILE BLAKE2B     phase 1 from a public ceremony's file (restarts phase 2)
 *   npm run ceremony -- init-phase1                    a local phase 1 (a new accumulator)
 *   npm run ceremony -- contribute-phase1 "<name>"     add a local phase-1 contribution (restarts phase 2)
 *   npm run ceremony -- beacon-phase1 <hex> <exp> "<source>"   close a local phase 1 with a public random beacon
 *   npm run ceremony -- setup [--circuit NAME]         start phase 2 from the current phase 1
 *   npm run ceremony -- contribute "<name>" [--circuit NAME]   add a phase-2 contribution
 *   npm run ceremony -- beacon <hex> <exp> "<source>" [--circuit NAME]   close phase 2 with a public random beacon
 *   npm run ceremony -- verify [--circuit NAME]        the whole chain, from the circuit's source (minutes)
 *   npm run ceremony -- pins [--circuit NAME]          re-pin after a recompile that changed only the .wasm
 *
 * The setup is sound if one contributor of each phase forgot their entropy.
 */
const POWER = 14;
const log = consoleLogger;
const [main] = CEREMONY_CIRCUITS as [CeremonyCircuit, ...CeremonyCircuit[]];

/** The pins the code holds for a circuit now, or undefined before its first `setup`. */
async function pinned(circuit: CeremonyCircuit): Promise<SetupPins | undefined> {
  if (!existsSync(circuit.pinsFile)) return undefined;
  const module = (await import(pathToFileURL(circuit.pinsFile).href)) as Record<string, SetupPins>;
  return module[circuit.pinsConstant];
}

/** Rewrites the TypeScript constant the server and `verify` hold the circuit's files to. */
async function pin(circuit: CeremonyCircuit, preparedPhase1: string): Promise<void> {
  const pins: SetupPins = await currentPins(circuit.layout, preparedPhase1);
  const file = circuit.pinsFile;
  const source = `/**
 * The trusted setup of ${circuit.what} this build accepts (decisions 072, 085): each file's
 * SHA-256 and size, the SHA-256 of phase 1 prepared for phase 2, and what the setup is. Written by
 * \`npm run ceremony\` (circuits/scripts/ceremony.ts); \`npm run ceremony -- verify\` holds the files in
 * circuits/artifacts/ and its transcript in circuits/ceremony/ to it, and the server refuses to start on
 * any other file. \`state.final\` is false until phase 1 is a public ceremony's, phase 2 has two or
 * more contributions and a closing beacon: the server warns at every start until then.
 */
export const ${circuit.pinsConstant} = ${JSON.stringify(pins, null, 2)} as const;
${circuit === main ? `\nexport type RegistrationSetupState = (typeof ${circuit.pinsConstant})['state'];\n` : ''}`;
  const formatted = await format(source, { ...(await resolveConfig(file)), filepath: file });
  writeFileSync(`${file}.tmp`, formatted);
  renameSync(`${file}.tmp`, file);
}

/** After a phase-1 step on the main circuit's setup: every other circuit's transcript takes its phase 1, its phase 2 restarts. */
async function afterPhase1(prepared: string): Promise<void> {
  await pin(main, prepared);
  for (const circuit of CEREMONY_CIRCUITS.slice(1)) {
    shareMainPhase1(main.layout, circuit.layout, log);
    await pin(circuit, prepared);
  }
}

function beaconArgs(args: string[]): Beacon {
  const [value, exp, source] = args;
  if (!value || !/^[0-9a-f]{64}$/i.test(value) || !exp || !source)
    throw new Error('Usage: beacon <64 hex digits> <iterations exponent, e.g. 10> "<where the value was published>"');
  return { value: value.toLowerCase(), iterationsExp: Number(exp), source };
}

/** The arguments without `--circuit NAME`, and the circuit it names (undefined: none named). */
function circuitOption(all: string[]): { args: string[]; named: CeremonyCircuit | undefined } {
  const at = all.indexOf('--circuit');
  if (at === -1) return { args: all, named: undefined };
  const name = all[at + 1];
  if (!name) throw new Error('--circuit needs a name');
  return { args: [...all.slice(0, at), ...all.slice(at + 2)], named: ceremonyCircuit(name) };
}

const [command, ...rest] = process.argv.slice(2);
const { args, named } = circuitOption(rest);
const circuit = named ?? main;
/** Phase 1 prepared for phase 2 is one file for every circuit: the main circuit's pin names it. */
const preparedPin = (await pinned(main))?.preparedPhase1 ?? '';
switch (command) {
  case 'import-phase1': {
    const [file, hash] = args;
    if (!file || !hash || !existsSync(file)) throw new Error('Usage: import-phase1 <the .ptau file> <its published BLAKE2b-512>');
    await afterPhase1(await importPhase1(main.layout, file, hash, log));
    console.warn('Phase 2 restarted on the imported phase 1: collect its contributions and close it with a beacon.');
    break;
  }
  case 'init-phase1':
    await initPhase1(main.layout, POWER, log);
    await afterPhase1('');
    break;
  case 'contribute-phase1':
    if (!args[0]) throw new Error('Usage: contribute-phase1 "<name>"');
    await contributePhase1(main.layout, args[0], log);
    await afterPhase1('');
    break;
  case 'beacon-phase1':
    await beaconPhase1(main.layout, beaconArgs(args), log);
    await afterPhase1('');
    break;
  case 'setup':
    if (circuit !== main) shareMainPhase1(main.layout, circuit.layout, log);
    await pin(circuit, await startPhase2(circuit.layout, log, circuit === main ? undefined : preparedPin || undefined));
    break;
  case 'contribute':
    if (!args[0]) throw new Error('Usage: contribute "<name>"');
    await contributePhase2(circuit.layout, args[0], log);
    await pin(circuit, preparedPin);
    break;
  case 'beacon':
    await beaconPhase2(circuit.layout, beaconArgs(args), log);
    await pin(circuit, preparedPin);
    break;
  case 'pins':
    // After `npm run circuit:compile` changed only the witness generator (its error messages carry
    // source line numbers, so a comment can change its bytes while the R1CS and the keys stay).
    await pin(circuit, preparedPin);
    break;
  case 'verify': {
    for (const each of named ? [named] : CEREMONY_CIRCUITS) {
      const pins = await pinned(each);
      if (!pins) throw new Error(`No pins in code for ${each.name}: run \`setup --circuit ${each.name}\``);
      const state = await verifySetup(each.layout, pins, log);
      console.log(
        `${each.name}: the setup verifies: the circuit compiles to these files, phase 1 and phase 2 carry the transcript's contributions, ` +
          `phase 2 is built on this phase 1, and every hash is the one pinned in code. State: ${JSON.stringify(state)}`,
      );
      console.log(`Phase 1's BLAKE2b-512: ${state.phase1Blake2b}`);
      const missing = [
        state.phase1 === 'public' ? '' : 'a public phase 1 (import-phase1)',
        state.contributions >= 2 ? '' : `${2 - state.contributions} more phase-2 contribution(s)`,
        state.beacon ? '' : 'a closing beacon',
      ].filter(Boolean);
      if (!state.final)
        console.warn(
          `${each.name}: not final: missing ${missing.join(', ')}. Contributions count as independent only if their contributors are.`,
        );
    }
    break;
  }
  default:
    throw new Error('Commands: import-phase1, init-phase1, contribute-phase1, beacon-phase1, setup, contribute, beacon, pins, verify');
}
await releaseCurve();
