import { randomBytes } from 'node:crypto';

/**
 * The client's metadata as oidc-provider reads it; a confidential client gets a 256-bit secret. A
 * `sector_identifier_uri` (already checked, decision 029) makes the client's sector that URI itself
 * (decision 038); `post_logout_redirect_uris` are where RP-initiated logout may return (decision 036).
 */
export function newClientMetadata(options: {
  id: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[] | undefined;
  name?: string | undefined;
  public: boolean;
  sectorIdentifierUri?: string | undefined;
}) {
  return {
    client_id: options.id,
    ...(options.public
      ? { token_endpoint_auth_method: 'none' }
      : { client_secret: randomBytes(32).toString('base64url'), token_endpoint_auth_method: 'client_secret_basic' }),
    client_name: options.name ?? options.id,
    redirect_uris: options.redirectUris,
    ...(options.postLogoutRedirectUris?.length ? { post_logout_redirect_uris: options.postLogoutRedirectUris } : {}),
    ...(options.sectorIdentifierUri === undefined ? {} : { sector_identifier_uri: options.sectorIdentifierUri }),
    grant_types: ['authorization_code'],
    response_types: ['code'],
    id_token_signed_response_alg: 'ES256',
  };
}
