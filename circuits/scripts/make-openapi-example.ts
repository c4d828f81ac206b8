import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { base64urlnopad } from '@scure/base';
import { packGroth16Proof } from '@semaphore-protocol/proof';
import { groth16 } from 'snarkjs';
import { normaliseInput } from '@zeroid/protocol';
import {
  G,
  blindQuery,
  deriveRegistration,
  registrationStatement,
  encodePoint,
  evaluateBlinded,
  randomScalar,
  registrationProofInput,
  registrationPublicSignals,
  signWithDid,
  unblindEvaluation,
  v3RegistrationMessage,
} from '@zeroid/protocol/v3';

/**
 * Rewrites `ZK_REGISTER_EXAMPLE` in apps/server/src/openapi/example-proofs.ts: a v3 registration
 * body proven with this directory's circuit for a random key and signed by its derived DID key, so the
 * API reference shows a body the server would accept in shape. Run it after the circuit or the
 * protocol's derivations change (decision 062 did both).
 *
 *   npx tsx circuits/scripts/make-openapi-example.ts
 */
const CHALLENGE = '8327364283746238746238746283746283746283746238476283746283746';
const root = path.join(import.meta.dirname, '..');
const target = path.join(root, '..', 'apps', 'server', 'src', 'openapi', 'example-proofs.ts');

const key = randomScalar();
const groupKey = G.multiply(key);
const round = (domain: 'bio' | 'id', text: string) => {
  const query = blindQuery(domain, normaliseInput(text));
  const { evaluated } = evaluateBlinded(key, query.blinded);
  return { query, evaluated, output: unblindEvaluation(query, groupKey, evaluated).output };
};
const bio = round('bio', 'ridge loop whorl delta arch 12 31 57');
const id = round('id', 'P-1234 Jane Example');
const registration = deriveRegistration(bio.output, id.output);
const statement = registrationStatement({ bio, id }, groupKey, CHALLENGE, registration.didKey.did);
const artifact = (name: string) => path.join(root, 'artifacts', name);
const { proof, publicSignals } = await groth16.fullProve(
  registrationProofInput(bio.query, id.query, statement),
  artifact('registration-v3.wasm'),
  artifact('registration-v3.zkey'),
);
const expected = registrationPublicSignals(registration.commitment, registration.idTagField, statement);
const vkey = JSON.parse(readFileSync(artifact('registration-v3.vkey.json'), 'utf8')) as object;
if (publicSignals.join() !== expected.join() || !(await groth16.verify(vkey, expected, proof)))
  throw new Error('The example does not prove');

const fields = { commitment: registration.commitment, idTag: registration.idTag, did: registration.didKey.did, challenge: CHALLENGE };
const example = {
  ...fields,
  bio: { blinded: base64urlnopad.encode(encodePoint(bio.query.blinded)) },
  id: { blinded: base64urlnopad.encode(encodePoint(id.query.blinded)) },
  proof: packGroth16Proof(proof).map(String),
  didSignature: signWithDid(v3RegistrationMessage(fields), registration.didKey.secretKey),
};
const source = readFileSync(target, 'utf8');
const block = /export const ZK_REGISTER_EXAMPLE = \{[\s\S]*?\n\} as const;/;
if (!block.test(source)) throw new Error(`No ZK_REGISTER_EXAMPLE block in ${target}`);
writeFileSync(target, source.replace(block, `export const ZK_REGISTER_EXAMPLE = ${JSON.stringify(example, null, 2)} as const;`));
console.log(`wrote ZK_REGISTER_EXAMPLE in ${target} (run npm run format)`);
await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
