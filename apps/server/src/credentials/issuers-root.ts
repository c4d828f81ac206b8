import { issuerTree } from '@zeroid/protocol/credential';
import type { TrustedIssuer } from './trusted-issuers.ts';

const roots = new WeakMap<readonly TrustedIssuer[], string>();

/**
 * The root of the trusted issuers' tree (`issuerTree`, in `TRUSTED_ISSUERS`'s order), as the decimal a
 * credential proof's public input `issuersRoot` must equal (decision 085); built once per list.
 */
export function issuersRoot(issuers: readonly TrustedIssuer[]): string {
  let root = roots.get(issuers);
  if (root === undefined) roots.set(issuers, (root = issuerTree(issuers.map((issuer) => issuer.point)).root.toString()));
  return root;
}
