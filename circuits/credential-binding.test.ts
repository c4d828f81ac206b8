import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wtns } from 'snarkjs';
import { credentialIdTag, dayNumber, issueCredential, readCredential } from '@zeroid/protocol/credential';
import { hashText, randomScalar } from '@zeroid/protocol/v3';

/**
 * The prototype of a credential's part of the registration proof (circuits/credential-binding.circom,
 * decision 079), compiled here with circom 2 in WebAssembly and run on credentials the TypeScript
 * issued: circomlib's EdDSAPoseidonVerifier is an implementation independent of @zk-kit/eddsa-poseidon.
 */
const require = createRequire(import.meta.url);
const out = path.join(import.meta.dirname, '.tmp', 'credential-binding');
let wasm: Buffer;

beforeAll(() => {
  mkdirSync(out, { recursive: true });
  const circom = path.join(path.dirname(require.resolve('circom2/package.json')), 'cli.js');
  const source = path.join(import.meta.dirname, 'credential-binding.circom');
  execFileSync(process.execPath, [circom, source, '--wasm', '--O2', '-l', path.join(import.meta.dirname, '..', 'node_modules'), '-o', out]);
  wasm = readFileSync(path.join(out, 'credential-binding_js', 'credential-binding.wasm'));
}, 300_000);

afterAll(async () => {
  await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
});

/** The circuit's outputs [idTag, issuerHash] for `input`, or the constraint it broke (thrown). */
async function outputs(input: Record<string, unknown>): Promise<string[]> {
  const witness = { type: 'mem' } as { type: 'mem'; data?: Uint8Array };
  await wtns.calculate(input as never, wasm, witness);
  return ((await wtns.exportJson(witness as never)) as bigint[]).slice(1, 3).map(String);
}

const university = new Uint8Array(32).fill(1);
const stranger = new Uint8Array(32).fill(3);

function inputOf(line: string, today: string, idOutput: bigint) {
  const { issuer, signature, id, expiryDay } = readCredential(line);
  return {
    issuer: [issuer.x, issuer.y],
    signatureR8: signature.R8,
    signatureS: signature.S,
    idText: hashText(id),
    expiryDay,
    idOutput,
    today: dayNumber(today)!,
  };
}

describe('the credential binding circuit (prototype)', () => {
  const line = issueCredential(university, 'Student 0042', { expires: '2027-03-01' });
  const idOutput = randomScalar();

  it('checks the issuer signature over the ID slot’s t and gives the TypeScript’s credential ID tag', async () => {
    const { issuer } = readCredential(line);
    expect(await outputs(inputOf(line, '2027-03-01', idOutput))).toEqual([
      BigInt(`0x${credentialIdTag(issuer, idOutput)}`).toString(),
      poseidon2([issuer.x, issuer.y]).toString(),
    ]);
    // Never expires: any day.
    await expect(outputs(inputOf(issueCredential(university, 'Student 0042'), '2999-12-31', idOutput))).resolves.toHaveLength(2);
  }, 120_000);

  it('refuses an expired credential, another ID, another expiry and a forged signature', async () => {
    const honest = inputOf(line, '2027-03-01', idOutput);
    const forged = inputOf(issueCredential(stranger, 'Student 0042', { expires: '2027-03-01' }), '2027-03-01', idOutput);
    for (const [what, input] of [
      ['expired', { ...honest, today: dayNumber('2027-03-02')! }],
      ['another ID', { ...honest, idText: hashText('Student 0043') }],
      ['another expiry', { ...honest, expiryDay: dayNumber('2028-03-01')! }],
      ['expiry removed', { ...honest, expiryDay: 0 }],
      ['forged signature', { ...honest, signatureR8: forged.signatureR8, signatureS: forged.signatureS }],
      ['another issuer key', { ...honest, issuer: forged.issuer }],
    ] as const) {
      await expect(outputs(input), what).rejects.toThrow(/Assert Failed/);
    }
  }, 120_000);
});
