import type { IssuersReply } from '@zeroid/protocol';
import {
  describeCredential,
  isCredentialText,
  issuerTree,
  parseIssuerKey,
  usableCredential,
  type Credential,
  type IssuerTree,
} from '@zeroid/protocol/credential';
import { ProtocolInputError, normaliseInput } from '@zeroid/protocol';
import { apiUrls } from '../../shared/paths.ts';
import { requestJson } from '../../shared/http.ts';

let issuers: Promise<IssuersReply> | undefined;

/** GET /issuers, asked for once (and again after a failure): the issuers this server trusts, in its order. */
export function trustedIssuers(): Promise<IssuersReply> {
  issuers ??= requestJson<IssuersReply>(apiUrls.issuers());
  issuers.catch(() => (issuers = undefined));
  return issuers;
}

/** A pasted credential this server will take, checked on this device (decision 085), with what the proof needs. */
export interface CheckedCredential {
  credential: Credential;
  /** "Credential from Example University, valid until 1 March 2027". */
  description: string;
  tree: IssuerTree;
  issuerIndex: number;
}

/**
 * What the ID field holds, read before anything is proven: undefined for a plain ID, else the
 * credential checked against GET /issuers at `now` (malformed, from an issuer this server does not
 * trust, badly signed or expired: thrown, with a message for the person that never quotes it).
 */
export async function checkCredential(idText: string, now = new Date()): Promise<CheckedCredential | undefined> {
  const normalised = normaliseInput(idText);
  if (!isCredentialText(normalised)) return undefined;
  const reply = await trustedIssuers();
  const { credential, issuerIndex } = usableCredential(
    normalised,
    reply.issuers.map((issuer) => issuer.publicKey),
    now,
  );
  const tree = issuerTree(reply.issuers.map((issuer) => parseIssuerKey(issuer.publicKey)!));
  // The server's list and its root must agree with what this device built, or no proof would verify.
  if (tree.root.toString() !== reply.issuersRoot) throw new Error('The server’s list of issuers is inconsistent. Please reload the page.');
  return { credential, description: describeCredential(credential, reply.issuers[issuerIndex]!.name), tree, issuerIndex };
}

/** The message of a refused credential, for the screen. */
export const credentialProblem = (error: unknown): string =>
  error instanceof ProtocolInputError || error instanceof Error ? error.message : 'The credential cannot be read.';
