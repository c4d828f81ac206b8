import { base64urlnopad } from '@scure/base';
import { verifySignature } from '@zk-kit/eddsa-poseidon';
import { poseidon2 } from 'poseidon-lite/poseidon2';
import { describe, expect, it } from 'vitest';
import { ProtocolInputError } from '../errors.ts';
import { SNARK_SCALAR_FIELD } from '../field.ts';
import { G, Point, encodePoint } from '../v3/baby-jubjub-group.ts';
import {
  credentialIdTag,
  credentialMessage,
  credentialVerifier,
  dayNumber,
  describeCredential,
  isCredentialText,
  isExpired,
  issueCredential,
  issuerPublicKey,
  issuerTree,
  parseIssuerKey,
  readCredential,
  usableCredential,
  verifyCredentialSignature,
  type Credential,
} from './index.ts';

const key = new Uint8Array(32).fill(7);
const otherKey = new Uint8Array(32).fill(9);
const fields = (line: string) => line.split('.');
const swap = (line: string, index: number, value: string) =>
  fields(line)
    .map((field, i) => (i === index ? value : field))
    .join('.');
const zkKitVerifies = ({ id, expiryDay, signature, issuer }: Credential) =>
  verifySignature(credentialMessage(id, expiryDay), signature, [issuer.x, issuer.y]);
const code = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof ProtocolInputError ? error.code : String(error);
  }
  return 'accepted';
};

describe('credentials', () => {
  it('issues one line that reads back to the normalised ID, the expiry and a valid signature', () => {
    const line = issueCredential(key, '  Student\n 0042 ', { expires: '2027-03-01' });
    expect(line).toMatch(/^zeroid-credential-v1\.[A-Za-z0-9_-]{43}\.2027-03-01\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    const credential = readCredential(line);
    expect(credential).toMatchObject({ issuerKey: issuerPublicKey(key), id: 'Student 0042', expires: '2027-03-01', expiryDay: 20878 });
    expect(verifyCredentialSignature(credential)).toBe(true);
    // Deterministic: the same inputs sign alike, so an issuer's back end and the CLI agree.
    expect(issueCredential(key, 'Student 0042', { expires: '2027-03-01' })).toBe(line);
  });

  it('a known answer: the public key and the credential of a fixed key', () => {
    expect(issuerPublicKey(key)).toMatchInlineSnapshot(`"o_u64m17HfnhFw2BDJ93Vbcnc5KQ3cHPxkldWJ02yZA"`);
    expect(issueCredential(key, 'id 1')).toMatchInlineSnapshot(
      `"zeroid-credential-v1.o_u64m17HfnhFw2BDJ93Vbcnc5KQ3cHPxkldWJ02yZA.never.aWQgMQ.rJyWkL4R7r0Y6TktN3d6-VqA8pmxDUTIr_1MpYPE8wbcIvOlYcV5raGPCc5hi3ypGXomhxyWYFFaUvRn1GrDAQ"`,
    );
  });

  it('refuses a changed ID, expiry or issuer key, and a forged signature', () => {
    const line = issueCredential(key, 'Student 0042', { expires: '2027-03-01' });
    const otherId = base64urlnopad.encode(new TextEncoder().encode('Student 0043'));
    const forged = issueCredential(otherKey, 'Student 0042', { expires: '2027-03-01' });
    for (const changed of [
      swap(line, 2, '2027-03-02'),
      swap(line, 2, 'never'),
      swap(line, 3, otherId),
      swap(line, 1, issuerPublicKey(otherKey)),
      swap(forged, 1, issuerPublicKey(key)),
    ]) {
      const credential = readCredential(changed);
      expect(verifyCredentialSignature(credential)).toBe(false);
      // zk-kit's own verifier (slow, so not the product's) agrees.
      expect(zkKitVerifies(credential)).toBe(false);
    }
    expect(zkKitVerifies(readCredential(line))).toBe(true);
    // R8 = (x, 0), a point of order 4, reads (the subgroup is the equation's to check) and never verifies.
    expect(verifyCredentialSignature(readCredential(swap(line, 4, 'A'.repeat(86))))).toBe(false);
  });

  it('a verifier with window tables for known issuers gives the same verdicts', () => {
    const verify = credentialVerifier([issuerPublicKey(key)]);
    const line = issueCredential(key, 'Student 0042', { expires: '2027-03-01' });
    const honest = readCredential(line);
    expect(verify(honest)).toBe(true);
    expect(verify(readCredential(issueCredential(otherKey, 'Student 0042')))).toBe(true);
    expect(verify(readCredential(swap(line, 2, '2027-03-02')))).toBe(false);
    // The key's text names a known issuer but the point is another's: the table is not used for it.
    const other = readCredential(issueCredential(otherKey, 'Student 0042', { expires: '2027-03-01' }));
    expect(verify({ ...other, issuerKey: honest.issuerKey })).toBe(true);
    expect(verify({ ...honest, issuer: other.issuer })).toBe(false);
  });

  it('never verifies under a small-order key, whatever built the credential', () => {
    const T = Point.fromAffine({ x: 0n, y: SNARK_SCALAR_FIELD - 1n });
    const credential = readCredential(issueCredential(key, 'x'));
    // With 8·A = 0 the equation is S·Base8 = R8: anyone could sign.
    const S = 12345n;
    const R8 = G.multiply(S).toAffine();
    expect(verifyCredentialSignature({ ...credential, issuer: T.toAffine(), signature: { R8: [R8.x, R8.y], S } })).toBe(false);
  });

  it('refuses malformed lines without quoting them', () => {
    const line = issueCredential(key, 'Student 0042');
    const identity = base64urlnopad.encode(encodePoint(G.subtract(G)));
    for (const bad of [
      'zeroid-credential-v1',
      swap(line, 0, 'zeroid-credential-v2'),
      `${line}.extra`,
      swap(line, 1, identity.padEnd(43, 'A').slice(0, 43)),
      swap(line, 2, '2027-02-30'),
      swap(line, 2, '1970-01-01'),
      swap(line, 3, ''),
      swap(line, 3, base64urlnopad.encode(new TextEncoder().encode(' padded '))),
      // R8's y at or above the field's modulus: not an encoding of a point.
      swap(line, 4, '_'.repeat(86)),
      swap(line, 4, fields(line)[4]!.slice(0, 80)),
    ]) {
      expect(code(() => readCredential(bad))).toBe('MALFORMED_CREDENTIAL');
    }
    try {
      readCredential(swap(line, 4, '_'.repeat(86)));
    } catch (error) {
      expect((error as Error).message).not.toContain('Student');
    }
  });

  it('reads a line that a paste broke with white space', () => {
    const line = issueCredential(key, 'Student 0042');
    expect(readCredential(`${line.slice(0, 40)}\n ${line.slice(40)}`).id).toBe('Student 0042');
  });

  it('refuses a small-order or mixed-order issuer key', () => {
    expect(parseIssuerKey(issuerPublicKey(key))).toBeDefined();
    // T = (0, −1) has order 2: with 8·A = 0, S·Base8 = R8 + 8h·A would hold for any message.
    const T = Point.fromAffine({ x: 0n, y: SNARK_SCALAR_FIELD - 1n });
    expect(parseIssuerKey(base64urlnopad.encode(encodePoint(T)))).toBeUndefined();
    // A + T signs like A: a second spelling of one issuer, refused.
    const A = Point.fromBytes(base64urlnopad.decode(issuerPublicKey(key)));
    expect(parseIssuerKey(base64urlnopad.encode(encodePoint(A.add(T))))).toBeUndefined();
    expect(parseIssuerKey('not a key')).toBeUndefined();
  });

  it('refuses a key whose last character carries padding bits, as malformed, not as an error', () => {
    const good = issuerPublicKey(key);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const padded = good.slice(0, -1) + alphabet[alphabet.indexOf(good.at(-1)!) ^ 1];
    expect(parseIssuerKey(padded)).toBeUndefined();
    const line = issueCredential(key, 'x').split('.');
    line[1] = padded;
    expect(code(() => readCredential(line.join('.')))).toBe('MALFORMED_CREDENTIAL');
  });

  it('expires after the whole of its last day, UTC; never is never', () => {
    const credential = readCredential(issueCredential(key, 'x', { expires: '2027-03-01' }));
    expect(isExpired(credential, new Date('2027-03-01T23:59:59Z'))).toBe(false);
    expect(isExpired(credential, new Date('2027-03-02T00:00:00Z'))).toBe(true);
    expect(isExpired(readCredential(issueCredential(key, 'x')), new Date('2999-01-01T00:00:00Z'))).toBe(false);
    expect(dayNumber('2027-3-1')).toBeUndefined();
    expect(code(() => issueCredential(key, 'x', { expires: 'tomorrow' }))).toBe('MALFORMED_CREDENTIAL');
  });

  it('tells a credential from a plain ID by its reserved prefix', () => {
    expect(isCredentialText(issueCredential(key, 'x'))).toBe(true);
    expect(isCredentialText('zeroid-credential-v1')).toBe(true);
    expect(isCredentialText('passport 1234')).toBe(false);
    expect(isCredentialText('zeroid-credential-v1x')).toBe(false);
    // Reserved in any case: a credential whose prefix was upper-cased is refused, never a plain ID.
    expect(isCredentialText(issueCredential(key, 'x').replace('zeroid-credential-v1', 'ZEROID-Credential-V1'))).toBe(true);
  });

  it("gives each issuer's IDs their own tags", () => {
    const a = parseIssuerKey(issuerPublicKey(key))!;
    const b = parseIssuerKey(issuerPublicKey(otherKey))!;
    expect(credentialIdTag(a, 5n)).toMatch(/^[0-9a-f]{64}$/);
    expect(credentialIdTag(a, 5n)).not.toBe(credentialIdTag(b, 5n));
    expect(credentialIdTag(a, 5n)).not.toBe(credentialIdTag(a, 6n));
  });
});

describe('describeCredential', () => {
  it('names the issuer and the last valid day as a person reads them', () => {
    expect(describeCredential({ expires: '2027-03-01' }, 'Example University')).toBe(
      'Credential from Example University, valid until 1 March 2027',
    );
    expect(describeCredential({ expires: '2030-12-31' }, 'Example Employer')).toBe(
      'Credential from Example Employer, valid until 31 December 2030',
    );
    expect(describeCredential({ expires: undefined }, 'Example Employer')).toBe('Credential from Example Employer, with no expiry');
  });
});

describe('issuerTree', () => {
  it('gives each issuer a path that leads from its leaf to the root, and refuses more than 32 issuers', () => {
    const keys = [key, otherKey, new Uint8Array(32).fill(11)].map((k) => parseIssuerKey(issuerPublicKey(k))!);
    const tree = issuerTree(keys);
    keys.forEach((issuer, index) => {
      const { pathBits, siblings } = tree.pathOf(index);
      let node = poseidon2([issuer.x, issuer.y]);
      pathBits.forEach((bit, level) => (node = bit ? poseidon2([siblings[level]!, node]) : poseidon2([node, siblings[level]!])));
      expect(node).toBe(tree.root);
    });
    expect(issuerTree(keys.slice(0, 2)).root).not.toBe(tree.root);
    expect(() => tree.pathOf(3)).toThrow(RangeError);
    expect(() => issuerTree(Array.from({ length: 33 }, () => keys[0]!))).toThrow(RangeError);
  });
});

describe('usableCredential', () => {
  it('refuses on the device what the raw path refuses, with the same codes, and gives the issuer’s place', () => {
    const line = issueCredential(key, 'Student 1', { expires: '2027-03-01' });
    const trusted = [issuerPublicKey(otherKey), issuerPublicKey(key)];
    const now = new Date('2027-03-01T23:59:59Z');
    expect(usableCredential(line, trusted, now).issuerIndex).toBe(1);
    const code = (text: string, keys = trusted, at = now) => {
      try {
        usableCredential(text, keys, at);
        return 'accepted';
      } catch (error) {
        return (error as ProtocolInputError).code;
      }
    };
    expect(code(line, [issuerPublicKey(otherKey)])).toBe('ISSUER_NOT_TRUSTED');
    expect(code(swap(line, 2, '2028-03-01'))).toBe('CREDENTIAL_SIGNATURE_INVALID');
    expect(code(line, trusted, new Date('2027-03-02T00:00:00Z'))).toBe('CREDENTIAL_EXPIRED');
    expect(code(line.slice(0, -2))).toBe('MALFORMED_CREDENTIAL');
  });
});
