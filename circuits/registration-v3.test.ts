import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { groth16, wtns } from 'snarkjs';
import { normaliseInput } from '@zeroid/protocol';
import {
  G,
  blindQuery,
  deriveRegistration,
  didHash,
  evaluateBlinded,
  pointFromAffine,
  randomScalar,
  registrationProofInput,
  registrationPublicSignals,
  unblindEvaluation,
  type BlindedQuery,
  type RegistrationStatement,
  REGISTRATION_V3_SETUP,
} from '@zeroid/protocol/v3';
import known from '../packages/protocol/src/vectors/protocol-v3.json' with { type: 'json' };

const artifact = (name: string) => path.join(import.meta.dirname, 'artifacts', name);
const wasm = readFileSync(artifact('registration-v3.wasm'));
const zkey = artifact('registration-v3.zkey');

/** The circuit's witness for `input`: [1, public signals…, private wires…], or the constraint it broke. */
async function witness(input: Record<string, unknown>): Promise<string[]> {
  const out = { type: 'mem' } as { type: 'mem'; data?: Uint8Array };
  await wtns.calculate(input as never, wasm, out);
  return ((await wtns.exportJson(out as never)) as bigint[]).map(String);
}

function honestRound(bioText: string, idText: string, key = randomScalar()) {
  const groupKey = G.multiply(key);
  const bio = blindQuery('bio', normaliseInput(bioText));
  const id = blindQuery('id', normaliseInput(idText));
  const bioEvaluated = evaluateBlinded(key, bio.blinded).evaluated;
  const idEvaluated = evaluateBlinded(key, id.blinded).evaluated;
  const registration = deriveRegistration(
    unblindEvaluation(bio, groupKey, bioEvaluated).output,
    unblindEvaluation(id, groupKey, idEvaluated).output,
  );
  const statement: RegistrationStatement = {
    bioBlinded: bio.blinded,
    bioEvaluated,
    idBlinded: id.blinded,
    idEvaluated,
    groupKey,
    challenge: 123456789n,
    didHash: didHash(registration.didKey.did),
  };
  return { bio, id, statement, registration };
}
const publicOf = (w: string[]) => w.slice(1, 15);

afterAll(async () => {
  await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
});

describe('the v3 registration circuit (circuits/artifacts)', () => {
  it('the artifacts are the ones pinned in code (REGISTRATION_V3_SETUP)', () => {
    const files: Record<string, { sha256: string; bytes: number }> = REGISTRATION_V3_SETUP.files;
    for (const name of [
      'phase1.ptau',
      'registration-v3.r1cs',
      'registration-v3.wasm',
      'registration-v3.zkey',
      'registration-v3.vkey.json',
    ]) {
      const bytes = readFileSync(artifact(name));
      expect({ name, sha256: createHash('sha256').update(bytes).digest('hex') }).toEqual({ name, sha256: files[name]?.sha256 });
    }
  });

  it('computes every known answer’s commitment and ID tag, an implementation independent of the TypeScript', async () => {
    const point = (p: { x: string; y: string }) => pointFromAffine({ x: BigInt(p.x), y: BigInt(p.y) })!;
    const groupKey = point(known.groupKey);
    for (const vector of known.vectors) {
      const round = (r: typeof vector.bioRound, domain: 'bio' | 'id'): BlindedQuery => ({
        domain,
        hashedText: BigInt(r.text),
        query: BigInt(r.query),
        blind: BigInt(r.blind),
        blinded: point(r.blinded),
      });
      const statement: RegistrationStatement = {
        bioBlinded: point(vector.bioRound.blinded),
        bioEvaluated: point(vector.bioRound.evaluated),
        idBlinded: point(vector.idRound.blinded),
        idEvaluated: point(vector.idRound.evaluated),
        groupKey,
        challenge: 1n,
        didHash: didHash(vector.did),
      };
      const w = await witness(registrationProofInput(round(vector.bioRound, 'bio'), round(vector.idRound, 'id'), statement));
      expect(publicOf(w)).toEqual(registrationPublicSignals(vector.commitment, BigInt(`0x${vector.idTag}`), statement));
    }
  });

  it('has no witness for a blinded point that does not hide the query, nor for an unbound blind', async () => {
    const { bio, id, statement } = honestRound('a biometric', 'an ID');
    const other = blindQuery('bio', 'another biometric');
    await expect(witness(registrationProofInput(bio, id, { ...statement, bioBlinded: other.blinded }))).rejects.toThrow(/Assert Failed/);
    await expect(witness(registrationProofInput({ ...bio, blind: bio.blind + 1n }, id, statement))).rejects.toThrow(/Assert Failed/);
    await expect(witness(registrationProofInput({ ...bio, hashedText: bio.hashedText + 1n }, id, statement))).rejects.toThrow(
      /Assert Failed/,
    );
  });

  it('has no witness with the ID round in the biometric slot, nor with one round in both slots (decision 062)', async () => {
    const { bio, id, statement } = honestRound('a biometric', 'an ID');
    expect(publicOf(await witness(registrationProofInput(bio, id, statement)))).toHaveLength(14);
    const bioSlot = { bioBlinded: statement.idBlinded, bioEvaluated: statement.idEvaluated };
    const idSlot = { idBlinded: statement.bioBlinded, idEvaluated: statement.bioEvaluated };
    // The rounds swapped: the ID's evaluation registered as the biometric and the reverse.
    await expect(witness(registrationProofInput(id, bio, { ...statement, ...bioSlot, ...idSlot }))).rejects.toThrow(/Assert Failed/);
    // One evaluation for both slots, either one.
    await expect(witness(registrationProofInput(id, id, { ...statement, ...bioSlot }))).rejects.toThrow(/Assert Failed/);
    await expect(witness(registrationProofInput(bio, bio, { ...statement, ...idSlot }))).rejects.toThrow(/Assert Failed/);
  });

  it('outputs another identity when an evaluation comes from another key: the registrar must check Z', async () => {
    const { bio, id, statement, registration } = honestRound('bio text', 'id text');
    const w = await witness(registrationProofInput(bio, id, { ...statement, bioEvaluated: bio.blinded.multiply(randomScalar()) }));
    expect(w[1]).not.toBe(registration.commitment);
    expect(w[2]).toBe(registration.idTagField.toString());
  });

  it('proves a registration, and the proof fails with any public signal changed', async () => {
    const { bio, id, statement, registration } = honestRound('proof bio', 'proof id');
    const vkey = JSON.parse(readFileSync(artifact('registration-v3.vkey.json'), 'utf8')) as object;
    const { proof, publicSignals } = await groth16.fullProve(registrationProofInput(bio, id, statement), wasm, zkey);
    const expected = registrationPublicSignals(registration.commitment, registration.idTagField, statement);
    expect(publicSignals).toEqual(expected);
    expect(await groth16.verify(vkey, expected, proof)).toBe(true);
    for (let i = 0; i < expected.length; i++) {
      const changed = expected.map((s, j) => (j === i ? (BigInt(s) + 1n).toString() : s));
      expect({ i, valid: await groth16.verify(vkey, changed, proof) }).toEqual({ i, valid: false });
    }
  });
});
