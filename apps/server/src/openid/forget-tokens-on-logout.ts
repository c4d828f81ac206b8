import type { KoaContextWithOIDC } from 'oidc-provider';
import type { OidcRepository } from '../storage/types.ts';

/**
 * RP-initiated logout (decision 036): the site names the person with an id_token_hint, which
 * oidc-provider has checked (its signature, this issuer, the site as audience; an expired one is
 * accepted, as the specification allows). ZeroID then deletes every record of that pseudonym at that
 * site: its access tokens stop working at once. A hint can only name the site's own pseudonyms.
 */
export function forgetTokensOnLogout(oidc: OidcRepository) {
  return async function forgetOnLogout(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    await next();
    const entities = (ctx.oidc as KoaContextWithOIDC['oidc'] | undefined)?.entities as
      { IdTokenHint?: { payload?: { sub?: unknown } }; Client?: { clientId: string } } | undefined;
    const sub = entities?.IdTokenHint?.payload?.sub;
    if (ctx.oidc?.route !== 'end_session' || ctx.status !== 200 || typeof sub !== 'string' || !entities?.Client) return;
    await oidc.forgetAccountAtClient(sub, entities.Client.clientId);
  };
}
