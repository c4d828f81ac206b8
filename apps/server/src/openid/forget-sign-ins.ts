import { signInSubject } from '@zeroid/protocol';
import type { Storage } from '../storage/types.ts';
import { sectorScopeOf } from './sign-in-request.ts';

/**
 * An erased person's Sign in with ZeroID records (decision 036). The server cannot tell which
 * records are a person's: their pseudonym at each site is the nullifier of their secret for that
 * site's sector, and the server never holds the secret. An erasure hands it over (checked against the
 * erased commitment); from it the pseudonym at every registered sector is computed, and every record
 * naming one of them (interactions, codes, grants, access tokens, a phone session's pseudonym) is
 * deleted: the person's tokens stop working at once. The pseudonyms are computed here and dropped;
 * they are never stored or logged together.
 */
export async function forgetSignIns(storage: Storage, secretScalar: bigint): Promise<void> {
  const sectors = new Set(
    (await storage.oidc.listClients()).map((json) =>
      sectorScopeOf(JSON.parse(json) as { client_id: string; sector_identifier_uri?: unknown }),
    ),
  );
  const subjects = [...sectors].map((scope) => signInSubject(scope, secretScalar));
  await storage.oidc.forgetAccounts(subjects);
  await storage.sessions.forgetSubjects(subjects);
}
