import path from 'node:path';
import type { SetupLayout } from './setup-files.ts';

/**
 * The circuits with a trusted setup (decisions 085, 087): each its own source, transcript and pins in code,
 * all on the one phase 1 in circuits/artifacts/phase1.ptau (2¹⁴, which all fit). The first is the one
 * whose transcript a phase-1 command writes first; the others' phase-1 entries are copied from it.
 */
export interface CeremonyCircuit {
  name: string;
  layout: SetupLayout;
  /** The TypeScript file of its pins, and the constant's name there. */
  pinsFile: string;
  pinsConstant: string;
  /** What the pins' JSDoc says the circuit is. */
  what: string;
}

const root = path.join(import.meta.dirname, '..');
const pinsDir = path.join(root, '..', 'packages', 'protocol', 'src', 'v3');
const layoutOf = (name: string, transcript: string): SetupLayout => ({
  circuit: path.join(root, `${name}.circom`),
  artifacts: path.join(root, 'artifacts'),
  transcript: path.join(root, 'ceremony', transcript),
  work: path.join(root, '.tmp'),
});

export const CEREMONY_CIRCUITS: readonly CeremonyCircuit[] = [
  {
    name: 'registration-v3',
    layout: layoutOf('registration-v3', 'transcript.json'),
    pinsFile: path.join(pinsDir, 'registration-setup.ts'),
    pinsConstant: 'REGISTRATION_V3_SETUP',
    what: 'the v3 registration circuit',
  },
  {
    name: 'registration-credential',
    layout: layoutOf('registration-credential', 'registration-credential.transcript.json'),
    pinsFile: path.join(pinsDir, 'registration-credential-setup.ts'),
    pinsConstant: 'REGISTRATION_CREDENTIAL_SETUP',
    what: 'the registration circuit of an ID that is a credential',
  },
  {
    name: 'sign-in-credential',
    layout: layoutOf('sign-in-credential', 'sign-in-credential.transcript.json'),
    pinsFile: path.join(pinsDir, 'sign-in-credential-setup.ts'),
    pinsConstant: 'SIGN_IN_CREDENTIAL_SETUP',
    what: 'the sign-in circuit that shows a credential’s issuer',
  },
];

/** The circuit of that name, or a clear refusal naming the ones there are. */
export function ceremonyCircuit(name: string): CeremonyCircuit {
  const circuit = CEREMONY_CIRCUITS.find((c) => c.name === name);
  if (!circuit) throw new Error(`No circuit "${name}": ${CEREMONY_CIRCUITS.map((c) => c.name).join(', ')}`);
  return circuit;
}
