import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CEREMONY_CIRCUITS } from './ceremony-circuits.ts';
import { setupFiles, type SetupPins } from './setup-files.ts';
import { readTranscript } from './transcript.ts';

/**
 * Every circuit `npm run ceremony -- verify` walks (all of CEREMONY_CIRCUITS when no `--circuit` is
 * given) is complete in the repository: its source, its transcript, its pins in code for each of its
 * files, on the one shared phase 1. The full `verify` takes minutes and runs before a release; this
 * catches a circuit added without one of them, or a phase 1 that one circuit does not share.
 */
describe('the circuits with a trusted setup', () => {
  it('each has its source, transcript and pins, all on the same phase 1', async () => {
    const [main] = CEREMONY_CIRCUITS;
    expect(CEREMONY_CIRCUITS.map((c) => c.name)).toEqual(['registration-v3', 'registration-credential', 'sign-in-credential']);
    const mainPhase1 = readTranscript(main!.layout.transcript).filter((e) => e.phase === 1);
    const mainPins = await pinsOf(main!);
    for (const circuit of CEREMONY_CIRCUITS) {
      expect(existsSync(circuit.layout.circuit), circuit.name).toBe(true);
      const transcript = readTranscript(circuit.layout.transcript);
      expect(
        transcript.filter((e) => e.phase === 1),
        circuit.name,
      ).toEqual(mainPhase1);
      expect(
        transcript.some((e) => e.phase === 2 && e.kind === 'start'),
        circuit.name,
      ).toBe(true);
      const pins = await pinsOf(circuit);
      const { name } = setupFiles(circuit.layout);
      expect(Object.keys(pins.files).sort(), circuit.name).toEqual(
        ['phase1.ptau', `${name}.r1cs`, `${name}.wasm`, `${name}.zkey`, `${name}.vkey.json`].sort(),
      );
      expect(pins.files['phase1.ptau'], circuit.name).toEqual(mainPins.files['phase1.ptau']);
      expect(pins.preparedPhase1, circuit.name).toBe(mainPins.preparedPhase1);
    }
  });
});

async function pinsOf(circuit: (typeof CEREMONY_CIRCUITS)[number]): Promise<SetupPins> {
  const module = (await import(pathToFileURL(circuit.pinsFile).href)) as Record<string, SetupPins>;
  const pins = module[circuit.pinsConstant];
  if (!pins) throw new Error(`${circuit.pinsFile} exports no ${circuit.pinsConstant}`);
  return pins;
}
