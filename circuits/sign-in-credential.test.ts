import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { groth16, wtns } from 'snarkjs';
import { Group } from '@semaphore-protocol/group';
import { generateProof, unpackGroth16Proof } from '@semaphore-protocol/proof';
import { LeanIMT } from '@zk-kit/lean-imt';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { poseidon4 } from 'poseidon-lite/poseidon4';
import {
  SNARK_SCALAR_FIELD,
  proveSignInCredential,
  signInCredentialInput,
  signInMessage,
  signInScope,
  verifySignInCredentialProof,
  type SignInCredentialWitness,
  type WireCredentialSignInProof,
} from '@zeroid/protocol';
import { issuerPublicKey, parseIssuerKey } from '@zeroid/protocol/credential';
import { asciiField, provingIdentityV3, SIGN_IN_CREDENTIAL_SETUP } from '@zeroid/protocol/v3';

/**
 * circuits/sign-in-credential.circom (decision 087) through its pinned artifacts: the credential tree's
 * root as @zk-kit/lean-imt builds it over leaves made with the agreed formula, the nullifier Semaphore
 * v4's own prover gives the same identity for the same scope, witnesses that must not exist, and one
 * real proof that `verifySignInCredentialProof` accepts and refuses with any public signal changed.
 */
const artifact = (name: string) => path.join(import.meta.dirname, 'artifacts', name);
const wasm = readFileSync(artifact('sign-in-credential.wasm'));
const zkey = artifact('sign-in-credential.zkey');
const vkey = JSON.parse(readFileSync(artifact('sign-in-credential.vkey.json'), 'utf8')) as object;

async function witness(input: Record<string, unknown>): Promise<string[]> {
  const out = { type: 'mem' } as { type: 'mem'; data?: Uint8Array };
  await wtns.calculate(input as never, wasm, out);
  return ((await wtns.exportJson(out as never)) as bigint[]).map(String);
}

afterAll(async () => {
  await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
});

/** The agreed leaf: Poseidon4(CREDENTIAL_LEAF_DS, A.x, A.y, secret), the label read as a big-endian integer. */
const CREDENTIAL_LEAF_DS = asciiField('zeroid/credential-leaf/v1');
function leafOf(issuer: string, secret: bigint): bigint {
  const { x, y } = parseIssuerKey(issuer)!;
  return poseidon4([CREDENTIAL_LEAF_DS, x, y, secret]);
}

const university = issuerPublicKey(new Uint8Array(32).fill(1));
const employer = issuerPublicKey(new Uint8Array(32).fill(2));
// Two v3 identities, as deriveRegistration makes them from y_bio (secrets below 2^250).
const person = provingIdentityV3(123456789n);
const other = provingIdentityV3(987654321n);
const scope = signInScope('a-site');
const message = signInMessage('42', 'an-interaction');

/** A credential tree of five leaves (others' and erased ones among them); the person's at `position`. */
function treeWith(position: number, leaf: bigint) {
  const tree = new LeanIMT<bigint>((a, b) => poseidon2([a, b]));
  const others = [leafOf(employer, other.secretScalar), 0n, leafOf(university, other.secretScalar), 77n];
  others.splice(position, 0, leaf);
  tree.insertMany(others);
  return tree;
}

function witnessOf(tree: LeanIMT<bigint>, position: number, overrides: Partial<SignInCredentialWitness> = {}): SignInCredentialWitness {
  const proof = tree.generateProof(position);
  return {
    secret: person.secretScalar,
    issuerPublicKey: university,
    proofIndex: proof.index,
    siblings: proof.siblings,
    scope,
    message,
    ...overrides,
  };
}

describe('the sign-in credential circuit (circuits/artifacts)', () => {
  const leaf = leafOf(university, person.secretScalar);

  it('the artifacts are the ones pinned in code (SIGN_IN_CREDENTIAL_SETUP), on the shared phase 1', () => {
    const files: Record<string, { sha256: string }> = SIGN_IN_CREDENTIAL_SETUP.files;
    for (const name of [
      'phase1.ptau',
      'sign-in-credential.r1cs',
      'sign-in-credential.wasm',
      'sign-in-credential.zkey',
      'sign-in-credential.vkey.json',
    ]) {
      const sha256 = createHash('sha256')
        .update(readFileSync(artifact(name)))
        .digest('hex');
      expect({ name, sha256 }).toEqual({ name, sha256: files[name]?.sha256 });
    }
  });

  it('gives the LeanIMT’s root at every position (a promoted last leaf, one leaf alone) and Semaphore v4’s nullifier', async () => {
    // Semaphore's own prover, on the same identity and scope: its nullifier is Poseidon(hash(scope), secret).
    const require = createRequire(import.meta.url);
    const semaphoreArtifacts = path.dirname(require.resolve('@zk-kit/semaphore-artifacts/package.json'));
    const group = new Group([BigInt(person.commitment), BigInt(other.commitment)]);
    const semaphore = await generateProof(
      { secretScalar: person.secretScalar, commitment: BigInt(person.commitment) } as never,
      group,
      message,
      scope,
      1,
      {
        wasm: path.join(semaphoreArtifacts, 'semaphore-1.wasm'),
        zkey: path.join(semaphoreArtifacts, 'semaphore-1.zkey'),
      },
    );
    const { x, y } = parseIssuerKey(university)!;
    for (const position of [0, 2, 4]) {
      const tree = treeWith(position, leaf);
      const input = signInCredentialInput(witnessOf(tree, position));
      const w = await witness(input);
      expect(w.slice(1, 7), `position ${position}`).toEqual([
        tree.root.toString(),
        semaphore.nullifier,
        x.toString(),
        y.toString(),
        input.scope,
        input.message,
      ]);
    }
    // The scope and message the circuit sees are the ones Semaphore's circuit saw for the same sign-in:
    // its own proof verifies with them in its public signals (root, nullifier, message, scope).
    const { scope: scopeField, message: messageField } = signInCredentialInput(witnessOf(treeWith(0, leaf), 0));
    const semaphoreKey = JSON.parse(readFileSync(path.join(semaphoreArtifacts, 'semaphore-1.json'), 'utf8')) as object;
    const semaphoreSignals = (m: unknown, s: unknown) => [semaphore.merkleTreeRoot, semaphore.nullifier, m, s].map(String);
    const semaphorePoints = unpackGroth16Proof(semaphore.points);
    expect(await groth16.verify(semaphoreKey, semaphoreSignals(messageField, scopeField), semaphorePoints)).toBe(true);
    expect(await groth16.verify(semaphoreKey, semaphoreSignals(scopeField, messageField), semaphorePoints)).toBe(false);
    // The last of five leaves has no sibling at the bottom: its proof index is not its position.
    expect(treeWith(4, leaf).generateProof(4).index).not.toBe(4);
    const alone = new LeanIMT<bigint>((a, b) => poseidon2([a, b]), [leaf]);
    const w = await witness(signInCredentialInput(witnessOf(alone, 0)));
    expect(w[1]).toBe(leaf.toString());
  }, 120_000);

  it('has no witness for a leaf not in the tree, another issuer than the leaf’s, another secret, or a secret or depth out of range', async () => {
    // merkleRoot is an output: a witness for a wrong leaf exists, but only for another root, so no
    // proof with the tree's root (the one a verifier accepts) can be made from it.
    const tree = treeWith(2, leaf);
    const someoneElses = treeWith(2, leafOf(employer, 5n));
    const cases: [string, LeanIMT<bigint>, SignInCredentialWitness][] = [
      // The path of position 2 in a tree where that leaf is someone else's: the person's leaf is not in it.
      ['a leaf not in the tree', someoneElses, witnessOf(someoneElses, 2)],
      ['another issuer than the leaf’s', tree, witnessOf(tree, 2, { issuerPublicKey: employer })],
      ['another secret', tree, witnessOf(tree, 2, { secret: other.secretScalar })],
    ];
    for (const [what, target, input] of cases) {
      const w = await witness(signInCredentialInput(input));
      expect(w[1], what).not.toBe(target.root.toString());
    }
    // …while the honest one gives exactly that root.
    expect((await witness(signInCredentialInput(witnessOf(tree, 2))))[1]).toBe(tree.root.toString());
    const honest = signInCredentialInput(witnessOf(tree, 2));
    // The field's largest element passes Semaphore's LessThan(251) alone; the 251-bit check refuses it.
    await expect(witness({ ...honest, secret: (SNARK_SCALAR_FIELD - 1n).toString() })).rejects.toThrow(/Assert Failed/);
    await expect(witness({ ...honest, secret: (1n << 251n).toString() })).rejects.toThrow(/Assert Failed/);
    // A length above 24 would make the library's root 0: refused.
    await expect(witness({ ...honest, merkleProofLength: '25' })).rejects.toThrow(/Assert Failed/);
    await expect(witness({ ...honest, merkleProofLength: '31' })).rejects.toThrow(/Assert Failed/);
    await expect(witness({ ...honest, merkleProofIndex: (1 << 24).toString() })).rejects.toThrow(/Assert Failed/);
  }, 120_000);

  it('proves once; verifySignInCredentialProof accepts it and refuses it with any public signal changed, or malformed', async () => {
    const tree = treeWith(2, leaf);
    const proof = await proveSignInCredential(signInCredentialInput(witnessOf(tree, 2)), { wasm, zkey: readFileSync(zkey) });
    expect(proof).toMatchObject({ issuer: university, merkleTreeRoot: tree.root.toString(), merkleTreeDepth: 3 });
    const binding = { scope, message };
    expect(await verifySignInCredentialProof(vkey, proof, binding)).toBe(true);
    const changed: [string, WireCredentialSignInProof, typeof binding][] = [
      ['root', { ...proof, merkleTreeRoot: treeWith(1, leaf).root.toString() }, binding],
      ['nullifier', { ...proof, nullifier: ((BigInt(proof.nullifier) + 1n) % SNARK_SCALAR_FIELD).toString() }, binding],
      ['issuer', { ...proof, issuer: employer }, binding],
      ['scope', proof, { scope: signInScope('another-site'), message }],
      ['message', proof, { scope, message: signInMessage('43', 'an-interaction') }],
    ];
    for (const [what, p, b] of changed) expect(await verifySignInCredentialProof(vkey, p, b), what).toBe(false);
    const q = '21888242871839275222246405745257275088696311157297823662689037894645226208583';
    const malformed: [string, unknown][] = [
      ['a coordinate at the base field modulus', { ...proof, points: [q, ...proof.points.slice(1)] }],
      ['a point not on the curve', { ...proof, points: ['1', '1', ...proof.points.slice(2)] }],
      ['seven points', { ...proof, points: proof.points.slice(1) }],
      ['a root at the scalar field modulus', { ...proof, merkleTreeRoot: SNARK_SCALAR_FIELD.toString() }],
      ['a root in hex', { ...proof, merkleTreeRoot: `0x${BigInt(proof.merkleTreeRoot).toString(16)}` }],
      ['an issuer key that is no point', { ...proof, issuer: 'A'.repeat(43) }],
      ['not an object', 'proof'],
      ['null', null],
    ];
    for (const [what, p] of malformed) expect(await verifySignInCredentialProof(vkey, p, binding), what).toBe(false);
    expect(await verifySignInCredentialProof(vkey, proof, { scope: 'not a number', message })).toBe(false);
    expect(await verifySignInCredentialProof(vkey, proof, { scope: (1n << 256n).toString(), message })).toBe(false);
    expect(await verifySignInCredentialProof({}, proof, binding)).toBe(false);
  }, 300_000);

  it('refuses to build an input for an issuer key that is no key, a proof too long or an index that does not fit', () => {
    const tree = treeWith(2, leaf);
    expect(() => signInCredentialInput(witnessOf(tree, 2, { issuerPublicKey: 'A'.repeat(43) }))).toThrow(/issuer’s key/);
    expect(() => signInCredentialInput(witnessOf(tree, 2, { siblings: Array<bigint>(25).fill(1n) }))).toThrow(/deeper than 24/);
    expect(() => signInCredentialInput(witnessOf(tree, 2, { proofIndex: 8 }))).toThrow(/index/);
    expect(() => signInCredentialInput(witnessOf(tree, 2, { secret: 1n << 251n }))).toThrow(/secret/);
    expect(() => signInCredentialInput(witnessOf(tree, 2, { scope: 1n << 256n }))).toThrow(/scope or message/);
    expect(() => signInCredentialInput(witnessOf(tree, 2, { message: -1n }))).toThrow(/scope or message/);
  });
});
