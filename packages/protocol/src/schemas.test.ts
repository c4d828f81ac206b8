import { describe, expect, it } from 'vitest';
import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { DID_ALREADY_GENERATED, VERIFICATION_RESULT } from './messages.ts';
import { SNARK_SCALAR_FIELD } from './field.ts';
import { deriveIdentity } from './derive-identity.ts';
import { deriveDidKey } from './did-key.ts';
import {
  ChallengeReply,
  ErrorReply,
  RawRegisterBody,
  RawVerifyBody,
  MembersReply,
  OprfKeyReply,
  OprfReply,
  OprfRequest,
  RegisterReply,
  VerifyReply,
  ZkRegisterBody,
  ZkVerifyBody,
} from './schemas.ts';
import { signV2Registration } from '../test/v2-registration.ts';

// The server's validator (Fastify's Ajv) knows date-time; TypeBox's Value needs to be told.
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (value) => !Number.isNaN(Date.parse(value)));

const accepts = (schema: TSchema, value: unknown) => Value.Check(schema, value);

const oprfBio = new Uint8Array(64).fill(9);
const identity = deriveIdentity(oprfBio);
const didKey = deriveDidKey(oprfBio);
const fields = { commitment: identity.commitment.toString(), idTag: 'a1'.repeat(32), did: didKey.did, challenge: '987654321' };
const zkRegister = { ...fields, signatures: signV2Registration(identity, didKey.secretKey, fields) };
const proof = {
  merkleTreeDepth: 10,
  merkleTreeRoot: '123',
  nullifier: '456',
  message: '987654321',
  scope: '987654321',
  points: ['1', '2', '3', '4', '5', '6', '7', '8'],
};

describe('raw bodies (the specification’s contract)', () => {
  it('accepts the raw fields and nothing else', () => {
    expect(accepts(RawRegisterBody, { id_info: 'AB-1', bio_info: 'ridge' })).toBe(true);
    expect(accepts(RawVerifyBody, { bio_info: 'ridge' })).toBe(true);
    expect(accepts(RawRegisterBody, { id_info: 'AB-1', bio_info: 'ridge', admin: true })).toBe(false);
    expect(accepts(RawRegisterBody, { id_info: 'AB-1' })).toBe(false);
    expect(accepts(RawVerifyBody, { bio_info: 'ridge', id_info: 'AB-1' })).toBe(false);
  });

  it('bounds the raw text: 1 to 16 384 characters, strings only', () => {
    expect(accepts(RawVerifyBody, { bio_info: 'x'.repeat(16_384) })).toBe(true);
    expect(accepts(RawVerifyBody, { bio_info: 'x'.repeat(16_385) })).toBe(false);
    expect(accepts(RawVerifyBody, { bio_info: '' })).toBe(false);
    expect(accepts(RawVerifyBody, { bio_info: 42 })).toBe(false);
  });
});

describe('replies keep the specification’s field names', () => {
  it('RegisterReply: a new DID, or "already generated" without echoing anything', () => {
    expect(accepts(RegisterReply, { [DID_ALREADY_GENERATED]: false, DID: didKey.did })).toBe(true);
    expect(accepts(RegisterReply, { 'DID already generated': true })).toBe(true);
    expect(accepts(RegisterReply, { [DID_ALREADY_GENERATED]: true, DID: didKey.did })).toBe(false);
    expect(accepts(RegisterReply, { [DID_ALREADY_GENERATED]: false })).toBe(false);
    expect(accepts(RegisterReply, { [DID_ALREADY_GENERATED]: 'true' })).toBe(false);
  });

  it('VerifyReply: exactly Success or Failure', () => {
    expect(accepts(VerifyReply, { 'Verification Result': 'Success' })).toBe(true);
    expect(accepts(VerifyReply, { [VERIFICATION_RESULT]: 'Failure' })).toBe(true);
    expect(accepts(VerifyReply, { [VERIFICATION_RESULT]: 'success' })).toBe(false);
    expect(accepts(VerifyReply, { [VERIFICATION_RESULT]: 'Success', DID: didKey.did })).toBe(false);
  });

  it('ErrorReply: a code and a message, closed', () => {
    expect(accepts(ErrorReply, { error: { code: 'EMPTY_INPUT', message: 'The text is empty.' } })).toBe(true);
    expect(accepts(ErrorReply, { error: { code: 'EMPTY_INPUT', message: 'x', input: 'raw' } })).toBe(false);
  });
});

describe('OPRF, challenge and members', () => {
  it('OprfRequest carries one base64url element and no domain (the server must not learn it)', () => {
    expect(accepts(OprfRequest, { element: 'AAEC'.repeat(11) })).toBe(true);
    expect(accepts(OprfRequest, { element: 'AAEC', domain: 'bio' })).toBe(false);
    expect(accepts(OprfRequest, { element: 'AA==' })).toBe(false);
    expect(accepts(OprfRequest, { element: '' })).toBe(false);
    expect(accepts(OprfReply, { evaluation: 'AAEC' })).toBe(true);
    expect(accepts(OprfKeyReply, { suite: 'ristretto255-SHA512', publicKey: 'AAEC' })).toBe(true);
  });

  it('ChallengeReply: a canonical decimal and an ISO time', () => {
    expect(accepts(ChallengeReply, { challenge: '42', expiresAt: '2030-01-01T00:00:00.000Z' })).toBe(true);
    expect(accepts(ChallengeReply, { challenge: '042', expiresAt: '2030-01-01T00:00:00.000Z' })).toBe(false);
    expect(accepts(ChallengeReply, { challenge: '42', expiresAt: 'tomorrow' })).toBe(false);
  });

  it('MembersReply: a Merkle proof per member of the bucket', () => {
    const base = { size: 3, depth: 2, root: '77', bucketHexChars: 1 };
    expect(accepts(MembersReply, base)).toBe(true);
    expect(
      accepts(MembersReply, { ...base, bucket: 'a', members: [{ commitment: '5', leafIndex: 0, proofIndex: 0, siblings: ['6', '8'] }] }),
    ).toBe(true);
    expect(
      accepts(MembersReply, { ...base, bucket: 'a', members: [{ commitment: '5', leafIndex: -1, proofIndex: 0, siblings: [] }] }),
    ).toBe(false);
  });
});

describe('ZkRegisterBody', () => {
  it('accepts a real signed registration', () => {
    expect(accepts(ZkRegisterBody, zkRegister)).toBe(true);
  });

  it.each([
    ['a commitment with a leading zero', { commitment: `0${fields.commitment}` }],
    ['a hex commitment', { commitment: '0x1f' }],
    ['a 78-digit challenge (at least 10^77 > r)', { challenge: `1${'0'.repeat(77)}` }],
    ['an upper-case ID tag', { idTag: 'A1'.repeat(32) }],
    ['a short ID tag', { idTag: 'a1'.repeat(31) }],
    ['a DID of another key type', { did: 'did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme' }],
    ['a DID with a character outside base58', { did: `${didKey.did.slice(0, -1)}0` }],
    ['an unknown field', { id_info: 'AB-1' }],
    ['an unknown field inside the signatures', { signatures: { ...zkRegister.signatures, extra: 1 } }],
    ['an Ed25519 signature of the wrong length', { signatures: { ...zkRegister.signatures, did: 'AAAA' } }],
  ])('rejects %s', (_name, change) => {
    expect(accepts(ZkRegisterBody, { ...zkRegister, ...change })).toBe(false);
  });

  it('accepts the largest canonical field element, r − 1 (77 digits)', () => {
    const largest = (SNARK_SCALAR_FIELD - 1n).toString();
    expect(largest).toHaveLength(77);
    expect(accepts(ZkRegisterBody, { ...zkRegister, challenge: largest })).toBe(true);
  });
});

describe('ZkVerifyBody', () => {
  it('accepts a proof shaped like Semaphore v4’s', () => {
    expect(accepts(ZkVerifyBody, { proof })).toBe(true);
  });

  it.each([
    ['depth 0', { merkleTreeDepth: 0 }],
    ['depth 33', { merkleTreeDepth: 33 }],
    ['a fractional depth', { merkleTreeDepth: 1.5 }],
    ['seven points', { points: proof.points.slice(0, 7) }],
    ['nine points', { points: [...proof.points, '9'] }],
    ['a number instead of a numeric string', { nullifier: 456 }],
    ['a hex nullifier', { nullifier: '0x1c8' }],
    ['an unknown field', { extra: '1' }],
  ])('rejects %s', (_name, change) => {
    expect(accepts(ZkVerifyBody, { proof: { ...proof, ...change } })).toBe(false);
  });
});
