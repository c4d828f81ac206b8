import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { groth16, wtns } from 'snarkjs';
import {
  credentialIdTag,
  credentialLeaf,
  credentialProofInput,
  credentialPublicSignals,
  dayNumber,
  issueCredential,
  issuerTree,
  readCredential,
  type CredentialStatement,
} from '@zeroid/protocol/credential';
import {
  G,
  blindQuery,
  deriveRegistration,
  didHash,
  evaluateBlinded,
  randomScalar,
  registrationProofInput,
  unblindEvaluation,
  REGISTRATION_CREDENTIAL_SETUP,
} from '@zeroid/protocol/v3';

/**
 * circuits/registration-credential.circom (decision 085) through its pinned artifacts: the ID tag of a
 * credential the TypeScript issued (circomlib's EdDSAPoseidonVerifier is an implementation independent
 * of @zk-kit/eddsa-poseidon, which signed it), the credential leaf `credentialLeaf` computes (decision
 * 086), the commitment registration-v3's circuit gives for the same rounds, witnesses that must not
 * exist, and one real proof refused with any public signal changed.
 */
const artifact = (name: string) => path.join(import.meta.dirname, 'artifacts', name);
const wasm = readFileSync(artifact('registration-credential.wasm'));
const v3Wasm = readFileSync(artifact('registration-v3.wasm'));
const zkey = artifact('registration-credential.zkey');
const PUBLIC_SIGNALS = 17;
/** The credential leaf's place among the public signals, and so in the witness after its constant 1. */
const LEAF_SIGNAL = 2;

type MemoryFile = { type: 'mem'; data?: Uint8Array };

async function witnessFile(input: Record<string, unknown>, circuit = wasm): Promise<MemoryFile> {
  const out: MemoryFile = { type: 'mem' };
  await wtns.calculate(input as never, circuit, out);
  return out;
}

async function witness(input: Record<string, unknown>, circuit = wasm): Promise<string[]> {
  return ((await wtns.exportJson((await witnessFile(input, circuit)) as never)) as bigint[]).map(String);
}

/** Whether every constraint of the credential circuit's R1CS holds on this witness (snarkjs `wtns check`, which logs why not). */
const quiet = { info: () => {}, warn: () => {}, debug: () => {}, error: () => {} };
const satisfies = async (file: MemoryFile): Promise<boolean> =>
  (await wtns.check(artifact('registration-credential.r1cs'), { type: 'mem', data: file.data }, quiet)) === true;

/** 32 bytes little-endian: how a .wtns file holds each value. */
const littleEndian = (value: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((value >> BigInt(8 * i)) & 0xffn));

afterAll(async () => {
  await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
});

const university = new Uint8Array(32).fill(1);
const employer = new Uint8Array(32).fill(2);
const stranger = new Uint8Array(32).fill(3);
const trusted = [readCredential(issueCredential(employer, 'x')).issuer, readCredential(issueCredential(university, 'x')).issuer];
const tree = issuerTree(trusted);

/** An honest credential registration: the ID round is the credential's ID, the issuer at index 1 of the tree. */
function honestRound(line: string, today: string, key = randomScalar()) {
  const credential = readCredential(line);
  const groupKey = G.multiply(key);
  const bio = blindQuery('bio', 'a biometric');
  const id = blindQuery('id', credential.id);
  const bioEvaluated = evaluateBlinded(key, bio.blinded).evaluated;
  const idEvaluated = evaluateBlinded(key, id.blinded).evaluated;
  const outputId = unblindEvaluation(id, groupKey, idEvaluated).output;
  const registration = deriveRegistration(unblindEvaluation(bio, groupKey, bioEvaluated).output, outputId);
  const statement: CredentialStatement = {
    bioBlinded: bio.blinded,
    bioEvaluated,
    idBlinded: id.blinded,
    idEvaluated,
    groupKey,
    challenge: 987654321n,
    didHash: didHash(registration.didKey.did),
    today: dayNumber(today)!,
    issuersRoot: tree.root,
  };
  const idTag = BigInt(`0x${credentialIdTag(credential.issuer, outputId)}`);
  return { bio, id, credential, statement, registration, idTag, path: tree.pathOf(1) };
}

describe('the credential registration circuit (circuits/artifacts)', () => {
  const line = issueCredential(university, 'Student 0042', { expires: '2027-03-01' });

  it('the artifacts are the ones pinned in code (REGISTRATION_CREDENTIAL_SETUP), on the v3 circuit’s phase 1', () => {
    const files: Record<string, { sha256: string }> = REGISTRATION_CREDENTIAL_SETUP.files;
    for (const name of [
      'phase1.ptau',
      'registration-credential.r1cs',
      'registration-credential.wasm',
      'registration-credential.zkey',
      'registration-credential.vkey.json',
    ]) {
      const sha256 = createHash('sha256')
        .update(readFileSync(artifact(name)))
        .digest('hex');
      expect({ name, sha256 }).toEqual({ name, sha256: files[name]?.sha256 });
    }
  });

  it('gives the TypeScript’s credential ID tag, and registration-v3’s commitment for the same rounds', async () => {
    const { bio, id, credential, statement, registration, idTag, path: issuerPath } = honestRound(line, '2027-03-01');
    const w = await witness(credentialProofInput(bio, id, credential, issuerPath, statement));
    // The leaf of decision 086, known answer from the TypeScript: Poseidon(CREDENTIAL_LEAF_DS, A.x, A.y, secret)
    // for the key the credential names and the secret of the identity whose commitment the proof gives.
    const leaf = credentialLeaf(credential.issuerKey, registration.secretScalar);
    expect(w.slice(1, 1 + PUBLIC_SIGNALS)).toEqual(credentialPublicSignals(registration.commitment, idTag, leaf, statement));
    expect(w[1 + LEAF_SIGNAL]).toBe(leaf);
    // The leaf is the issuer's: another trusted issuer's key would give another leaf for the same secret.
    expect(leaf).not.toBe(credentialLeaf(trusted[0]!, registration.secretScalar));
    const v3 = await witness(registrationProofInput(bio, id, statement), v3Wasm);
    expect(v3[1]).toBe(registration.commitment);
    // The plain tag of the same ID round is another value: the two tag spaces never meet.
    expect(v3[2]).toBe(registration.idTagField.toString());
    expect(v3[2]).not.toBe(idTag.toString());
    // A credential that never expires proves on any day.
    const forever = honestRound(issueCredential(university, 'Student 0042'), '2999-12-31');
    await expect(
      witness(credentialProofInput(forever.bio, forever.id, forever.credential, forever.path, forever.statement)),
    ).resolves.toHaveLength(w.length);
  }, 120_000);

  it('has no witness for a forged signature, a changed ID, expiry or issuer key, an untrusted issuer, or an expired credential', async () => {
    const { bio, id, credential, statement, path: issuerPath } = honestRound(line, '2027-03-01');
    const forged = readCredential(issueCredential(stranger, 'Student 0042', { expires: '2027-03-01' }));
    const employerPath = tree.pathOf(0);
    const otherId = blindQuery('id', 'Student 0043', id.blind);
    const cases: [string, Record<string, unknown>][] = [
      ['forged signature', credentialProofInput(bio, id, { ...credential, signature: forged.signature }, issuerPath, statement)],
      ['another ID', credentialProofInput(bio, { ...id, hashedText: otherId.hashedText }, credential, issuerPath, statement)],
      ['another expiry', credentialProofInput(bio, id, { ...credential, expiryDay: dayNumber('2028-03-01')! }, issuerPath, statement)],
      ['expiry removed', credentialProofInput(bio, id, { ...credential, expiryDay: 0 }, issuerPath, statement)],
      ['another issuer key', credentialProofInput(bio, id, { ...credential, issuer: trusted[0]! }, issuerPath, statement)],
      ['the trusted issuer’s path for another leaf', credentialProofInput(bio, id, credential, employerPath, statement)],
      // The stranger signed its own credential: the signature holds, its key is in no leaf of the root.
      ['untrusted issuer', credentialProofInput(bio, id, forged, issuerPath, statement)],
      ['expired at today', credentialProofInput(bio, id, credential, issuerPath, { ...statement, today: dayNumber('2027-03-02')! })],
      [
        'another root',
        credentialProofInput(bio, id, credential, issuerPath, { ...statement, issuersRoot: issuerTree([forged.issuer]).root }),
      ],
    ];
    for (const [what, input] of cases) await expect(witness(input), what).rejects.toThrow(/Assert Failed/);
    // A path bit that is not a bit.
    const notABit = credentialProofInput(bio, id, credential, { ...issuerPath, pathBits: [2, 0, 0, 0, 0] }, statement);
    await expect(witness(notABit)).rejects.toThrow(/Assert Failed/);
  }, 120_000);

  it('has no witness with another credential leaf: the R1CS holds on the honest witness and fails with only the leaf changed', async () => {
    const { bio, id, credential, statement, registration, path: issuerPath } = honestRound(line, '2027-03-01');
    const honest = await witnessFile(credentialProofInput(bio, id, credential, issuerPath, statement));
    expect(await satisfies(honest)).toBe(true);
    const leaf = BigInt(credentialLeaf(credential.issuerKey, registration.secretScalar));
    for (const other of [leaf + 1n, BigInt(credentialLeaf(trusted[0]!, registration.secretScalar)), 0n]) {
      const data = Uint8Array.from(honest.data!);
      // The witness section holds the constant 1, then the public signals: find the leaf's one place.
      const at = Buffer.from(data).indexOf(Buffer.from(littleEndian(leaf)));
      expect(at).toBeGreaterThan(0);
      expect(Buffer.from(data).indexOf(Buffer.from(littleEndian(leaf)), at + 1)).toBe(-1);
      data.set(littleEndian(other), at);
      expect({ other, holds: await satisfies({ type: 'mem', data }) }).toEqual({ other, holds: false });
    }
  }, 120_000);

  it('proves a registration with a credential, and the proof fails with any public signal changed', async () => {
    const { bio, id, credential, statement, registration, idTag, path: issuerPath } = honestRound(line, '2026-11-29');
    const vkey = JSON.parse(readFileSync(artifact('registration-credential.vkey.json'), 'utf8')) as object;
    const { proof, publicSignals } = await groth16.fullProve(credentialProofInput(bio, id, credential, issuerPath, statement), wasm, zkey);
    const expected = credentialPublicSignals(
      registration.commitment,
      idTag,
      credentialLeaf(credential.issuerKey, registration.secretScalar),
      statement,
    );
    expect(publicSignals).toEqual(expected);
    expect(expected).toHaveLength(PUBLIC_SIGNALS);
    expect(await groth16.verify(vkey, expected, proof)).toBe(true);
    for (let i = 0; i < expected.length; i++) {
      const changed = expected.map((s, j) => (j === i ? (BigInt(s) + 1n).toString() : s));
      expect({ i, valid: await groth16.verify(vkey, changed, proof) }).toEqual({ i, valid: false });
    }
    // Nor does the plain circuit's key accept it.
    const v3Key = JSON.parse(readFileSync(artifact('registration-v3.vkey.json'), 'utf8')) as object;
    expect(await groth16.verify(v3Key, [...expected.slice(0, LEAF_SIGNAL), ...expected.slice(LEAF_SIGNAL + 1, 15)], proof)).toBe(false);
  }, 300_000);
});
