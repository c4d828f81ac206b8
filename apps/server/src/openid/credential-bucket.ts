import type { Registry } from '../member-tree/member-tree.ts';
import { credentialBucketMembers } from '../member-tree/credential-bucket-members.ts';
import type { Storage } from '../storage/types.ts';

/** What a /credential-members bucket reads: both trees, and the credential table's owners. */
export interface CredentialBucketServices {
  storage: Storage;
  registry: Registry;
  credentialRegistry: Registry;
}

/**
 * The GET /credential-members reply for a bucket of the member tree (decision 088): the credential
 * leaves of the identities whose commitments are in it, found by the identity each leaf belongs to.
 */
export function credentialBucket({ registry, credentialRegistry, storage }: CredentialBucketServices, bucket: string) {
  return credentialBucketMembers(registry, credentialRegistry, storage.credentialLeaves, bucket);
}
