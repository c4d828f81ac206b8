import { signInSubject } from '@zeroid/protocol';
import type { Storage } from '../storage/types.ts';
import { sectorScopeOf } from './sign-in-request.ts';

/** The scope of every registered sector, each once (a shared sector document's clients share one). */
export async function sectorScopes(storage: Storage): Promise<string[]> {
  return [
    ...new Set(
      (await storage.oidc.listClients()).map((json) =>
        sectorScopeOf(JSON.parse(json) as { client_id: string; sector_identifier_uri?: unknown }),
      ),
    ),
  ];
}

/** A secret's pseudonym at every registered sector: for the raw erasure, whose server derives the secret itself. */
export async function subjectsOfSecret(storage: Storage, secretScalar: bigint): Promise<string[]> {
  return (await sectorScopes(storage)).map((scope) => signInSubject(scope, secretScalar));
}

/**
 * An erased person's Sign in with ZeroID records (decisions 036 and 048). The server cannot tell
 * which records are a person's: their pseudonym at each site is the nullifier of their secret for
 * that site's sector, and the server never holds the secret. A zero-knowledge erasure proves each
 * pseudonym with a Semaphore proof (`provenSignInSubjects`); the raw erasure derives them. Every
 * record naming one of them (interactions, codes, grants, access tokens, a phone session's pseudonym)
 * is deleted, so the person's tokens stop working at once, and the freed bytes are scrubbed. The
 * pseudonyms are held here only; they are never stored or logged together.
 */
export async function forgetSignIns(storage: Storage, subjects: string[]): Promise<void> {
  if (subjects.length === 0) return;
  await storage.oidc.forgetAccounts(subjects);
  await storage.sessions.forgetSubjects(subjects);
  await storage.oidc.scrubFreed();
}
