import { issuerPublicKey, issuerTree } from '@zeroid/protocol/credential';
import { describe, expect, it } from 'vitest';
import { issuersRoot } from './issuers-root.ts';
import { readTrustedIssuers } from './trusted-issuers.ts';

const keys = (count: number) => Array.from({ length: count }, (_, i) => issuerPublicKey(new Uint8Array(32).fill(i + 1)));

describe('TRUSTED_ISSUERS and the credential proof’s tree (decision 085)', () => {
  it('takes 32 issuers, and refuses a 33rd: the proof’s tree has 32 leaves', () => {
    const problems: string[] = [];
    expect(readTrustedIssuers(keys(32).join(','), (message) => problems.push(message))).toHaveLength(32);
    expect(problems).toEqual([]);
    readTrustedIssuers(keys(33).join(','), (message) => problems.push(message));
    expect(problems).toEqual(['TRUSTED_ISSUERS lists 33 issuers; at most 32 fit']);
  });

  it('gives the root of the tree of the issuers in their order, the one GET /issuers publishes', () => {
    const issuers = readTrustedIssuers(keys(3).join(','), () => undefined);
    expect(issuersRoot(issuers)).toBe(issuerTree(issuers.map((issuer) => issuer.point)).root.toString());
    const reversed = readTrustedIssuers(keys(3).reverse().join(','), () => undefined);
    expect(issuersRoot(reversed)).not.toBe(issuersRoot(issuers));
  });
});
