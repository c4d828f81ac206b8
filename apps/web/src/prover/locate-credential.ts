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
 * Finds the credential leaf of the identity whose secret is `secret` and commitment `commitment` (decision 089): registered with
 * a credential, the identity left L = Poseidon4(CREDENTIAL_LEAF_DS, A.x, A.y, secret) in the
 * credential tree, for its issuer A. This device asks GET /credential-members once, for the bucket of
 * its own commitment, the one `locateIdentity` asked GET /members for (decision 088), which answers
 * the credential leaves of every identity in that bucket; it computes L for every issuer the server
 * trusts (GET /issuers) and looks for it there. The server learns the bucket /members told it, and
 * neither whether the person has a credential nor for which issuer. Undefined when no leaf matches (a
 * plain identity, or one whose issuer is no longer trusted).
 */
export async function locateCredential(secret: bigint, commitment: bigint): Promise<LocatedCredential | undefined> {
  const [{ issuers }, params] = await Promise.all([
    requestJson<IssuersReply>(apiUrls.issuers()),
    requestJson<CredentialMembersReply>(apiUrls.credentialMembers()),
  ]);
  if (params.size === 0 || issuers.length === 0) return undefined;
  // The commitment's bucket, with the member tree's length (which this reply gives): the same bucket
  // as the person's /members request, so the two requests say the same thing.
  const bucket = memberBucket(commitment.toString(), params.bucketHexChars);
  const reply = await requestJson<CredentialMembersReply>(apiUrls.credentialMembers(bucket));
  timelineMark('credential-buckets-found');
  for (const { name, publicKey } of issuers) {
    const leaf = credentialLeaf(publicKey, secret);
    const member = reply.members?.find((m) => m.leaf === leaf);
    if (member) return { issuerName: name, issuerPublicKey: publicKey, member, depth: reply.depth, root: reply.root };
  }
  return undefined;
}
