import type { KoaContextWithOIDC } from 'oidc-provider';
import type { OidcRepository } from '../storage/types.ts';

/** The record of a logout request that names a person, until its confirmation (decision 047). */
const LOGOUT_REQUEST = 'LogoutRequest';

/**
 * RP-initiated logout (decisions 036 and 047): the site names the person with an id_token_hint, which
 * oidc-provider has checked (its signature, this issuer, the site as audience; an expired one is
 * accepted, as the specification allows). The request itself (a GET anyone can make a browser or a
 * link preview send, with any hint it ever saw) deletes nothing: it records which pseudonym at which
 * site it names, under the logout's one-time `xsrf` secret, for the session's lifetime. Only the
 * confirmation (the POST from ZeroID's logout page, with that secret and the session cookie) deletes
 * every record of that pseudonym at that site, so its access tokens stop working, and scrubs their
 * bytes. A hint can only name the site's own pseudonyms.
 */
export function forgetTokensOnLogout(oidc: OidcRepository, ttlSeconds: number) {
  return async function forgetOnLogout(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    await next();
    const context = ctx.oidc as KoaContextWithOIDC['oidc'] | undefined;
    if (context?.route === 'end_session' && ctx.status === 200) {
      const entities = context.entities as { IdTokenHint?: { payload?: { sub?: unknown } }; Client?: { clientId: string } };
      const sub = entities.IdTokenHint?.payload?.sub;
      const secret = (context.session?.state as { secret?: unknown } | undefined)?.secret;
      if (typeof sub !== 'string' || !entities.Client || typeof secret !== 'string') return;
      const named = { accountId: sub, clientId: entities.Client.clientId };
      await oidc.upsert(LOGOUT_REQUEST, secret, JSON.stringify(named), Date.now() + ttlSeconds * 1000, named);
      return;
    }
    if (context?.route !== 'end_session_confirm' || ctx.status !== 303) return;
    const xsrf = context.params?.xsrf;
    if (typeof xsrf !== 'string' || !(await oidc.consume(LOGOUT_REQUEST, xsrf))) return;
    const named = await oidc.find(LOGOUT_REQUEST, xsrf);
    await oidc.destroy(LOGOUT_REQUEST, xsrf);
    if (!named) return;
    const { accountId, clientId } = JSON.parse(named.payload) as { accountId: string; clientId: string };
    await oidc.forgetAccountAtClient(accountId, clientId);
    await oidc.scrubFreed();
  };
}
