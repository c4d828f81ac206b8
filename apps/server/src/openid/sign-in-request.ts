import type Provider from 'oidc-provider';
import { signInScope, signInSectorUriScope } from '@zeroid/protocol';
import { asksCredential } from './credential-claim.ts';

type Client = NonNullable<Awaited<ReturnType<Provider['Client']['find']>>>;
type Interaction = InstanceType<Provider['Interaction']>;

/** An authorization request waiting for its proof: the site that asks and the scope of its sector. */
export interface SignInRequest {
  uid: string;
  clientId: string;
  site: { name: string; host: string };
  scope: string;
  /** The site asked for the scope `credential` (decision 088). */
  asksCredential: boolean;
}

/**
 * The scope a proof for this client must have (decisions 023, 029 and 038): the client's own sector
 * (`signInScope(client_id)`), or, for a client registered with a `sector_identifier_uri`, the sector
 * of that very document, shared by every client registered with it and listed in it. Always from the
 * stored client, never from a request.
 */
export function sectorScope(client: Client): string {
  return sectorScopeOf({ client_id: client.clientId, sector_identifier_uri: client.sectorIdentifierUri });
}

/** The same, from a client's stored metadata. */
export function sectorScopeOf(metadata: { client_id: string; sector_identifier_uri?: unknown }): string {
  const uri = metadata.sector_identifier_uri;
  return typeof uri === 'string' && URL.canParse(uri) ? signInSectorUriScope(uri) : signInScope(metadata.client_id);
}

/** How the screens name the site: its registered name, and the host its code will be sent to. */
export function siteOf(client: Client, interaction: Interaction): SignInRequest['site'] {
  const requested = interaction.params.redirect_uri;
  const redirectUri = typeof requested === 'string' ? requested : (client.redirectUris?.[0] ?? '');
  return {
    name: String(client.metadata().client_name ?? client.clientId),
    host: URL.canParse(redirectUri) ? new URL(redirectUri).host : '',
  };
}

/** The request's client, if it is still registered. */
export async function clientOf(provider: Provider, interaction: Interaction): Promise<Client | undefined> {
  const clientId = interaction.params.client_id;
  return typeof clientId === 'string' ? provider.Client.find(clientId) : undefined;
}

/**
 * The authorization request with this interaction id, looked up without its browser's cookie: for a
 * phone finishing it through a cross-device session (decision 029), which never gets to complete the
 * interaction itself. Undefined once it has expired or has its result.
 */
export async function findSignInRequest(provider: Provider, uid: string): Promise<SignInRequest | undefined> {
  const interaction = await provider.Interaction.find(uid);
  if (!interaction || interaction.isExpired || interaction.result !== undefined) return undefined;
  const client = await clientOf(provider, interaction);
  if (!client) return undefined;
  return {
    uid,
    clientId: client.clientId,
    site: siteOf(client, interaction),
    scope: sectorScope(client),
    asksCredential: asksCredential(interaction.params.scope),
  };
}
