import { credentialLeaf, memberBucket, type CredentialMembersReply, type IssuersReply } from '@zeroid/protocol';
import { requestJson } from '../shared/http.ts';
import { apiUrls } from '../shared/paths.ts';
import { timelineMark } from '../shared/timeline-mark.ts';

type CredentialMember = NonNullable<CredentialMembersReply['members']>[number];

/** The credential leaf a person holds: its issuer, and its Merkle path in the credential tree. */
export interface LocatedCredential {
  issuerPublicKey: string;
  /** The operator's name for the issuer, as GET /issuers gives it: what the site will be told. */
  issuerName: string;
  member: CredentialMember;
  /** The tree as the bucket's reply saw it: the proof is made against this root. */
  depth: number;
  root: string;
}

/**
 * Finds the credential leaf of the identity whose secret is `secret` (decision 089): registered with
 * a credential, the identity left L = Poseidon4(CREDENTIAL_LEAF_DS, A.x, A.y, secret) in the
 * credential tree, for its issuer A. This device computes L for every issuer the server trusts
 * (GET /issuers) and asks for the k-anonymous bucket of each (GET /credential-members, as
 * `locateIdentity` asks GET /members), all of them whatever it finds: the server learns a set of
 * buckets, one per trusted issuer, and neither whether one holds this person nor for which issuer.
 * Undefined when none does (a plain identity, or one whose issuer is no longer trusted).
 */
export async function locateCredential(secret: bigint): Promise<LocatedCredential | undefined> {
  const [{ issuers }, params] = await Promise.all([
    requestJson<IssuersReply>(apiUrls.issuers()),
    requestJson<CredentialMembersReply>(apiUrls.credentialMembers()),
  ]);
  if (params.size === 0 || issuers.length === 0) return undefined;
  const leaves = issuers.map(({ name, publicKey }) => ({
    issuerName: name,
    issuerPublicKey: publicKey,
    leaf: credentialLeaf(publicKey, secret),
  }));
  // Two issuers' leaves may share a bucket: each bucket is asked for once. In sorted order, not the
  // issuers': a server that learns the issuer from the proof must not learn from the order of the
  // requests which bucket was that issuer's leaf's.
  const buckets = [...new Set(leaves.map(({ leaf }) => memberBucket(leaf, params.bucketHexChars)))].sort();
  const replies = await Promise.all(buckets.map((bucket) => requestJson<CredentialMembersReply>(apiUrls.credentialMembers(bucket))));
  timelineMark('credential-buckets-found');
  for (const { leaf, ...issuer } of leaves) {
    for (const reply of replies) {
      const member = reply.members?.find((m) => m.leaf === leaf);
      if (member) return { ...issuer, member, depth: reply.depth, root: reply.root };
    }
  }
  return undefined;
}
