import type { OidcRepository } from '../storage/types.ts';
import { sectorScopeOf } from './sign-in-request.ts';

/** The client a sector document belongs to: the first registered with it (decision 049). */
export interface SectorHolder {
  clientId: string;
  redirectUris: string[];
  removedAt?: number;
}

/**
 * The first client ever registered with this `sector_identifier_uri`, removed or not, if any. A
 * sector's pseudonyms are that client's people's; a later client joins it only when the operator names
 * that client (`add-client --join-sector-of`), and only while the document lists both clients'
 * redirect URIs. So neither a changed document nor the removal of every client of a sector hands its
 * pseudonyms to a newcomer.
 */
export async function sectorHolder(oidc: OidcRepository, sectorIdentifierUri: string): Promise<SectorHolder | undefined> {
  const scope = sectorScopeOf({ client_id: '', sector_identifier_uri: sectorIdentifierUri });
  for (const client of await oidc.everyClient()) {
    const metadata = JSON.parse(client.metadata) as { client_id?: string; sector_identifier_uri?: unknown; redirect_uris?: unknown };
    if (typeof metadata.sector_identifier_uri !== 'string') continue;
    if (sectorScopeOf({ client_id: client.clientId, sector_identifier_uri: metadata.sector_identifier_uri }) !== scope) continue;
    const redirectUris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris.filter((uri) => typeof uri === 'string') : [];
    return { clientId: client.clientId, redirectUris, ...(client.removedAt === undefined ? {} : { removedAt: client.removedAt }) };
  }
  return undefined;
}
