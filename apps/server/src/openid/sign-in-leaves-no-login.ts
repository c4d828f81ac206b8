import type { KoaContextWithOIDC } from 'oidc-provider';
import { OIDC_PREFIX } from './paths.ts';

/** The routes that must see no earlier login: an authorization request, its resumption, and a logout request. */
const FRESH_SESSION = new RegExp(`^${OIDC_PREFIX}/(auth(/[^/]+)?|session/end)$`);

/** The Cookie header without the cookie `name` (and its signature). */
export function withoutCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  const kept = header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && !pair.startsWith(`${name}=`) && !pair.startsWith(`${name}.sig=`));
  return kept.length > 0 ? kept.join('; ') : undefined;
}

/**
 * ZeroID keeps no login between sign-ins (decisions 023 and 036). oidc-provider would keep one
 * session per browser, naming the last person who signed in; the next site's authorization request
 * would then store a grant for that site under the previous site's pseudonym, record it beside the
 * new site's client in its interaction, and send the browser to a logout page when the new proof
 * named another pseudonym. So:
 * - the provider's session cookie is dropped from every authorization request, resumption and
 *   logout request before the provider reads it: each sign-in starts from an empty session, in any
 *   browser, whoever signed in there before and wherever;
 * - once a resumption has answered the site (a code, or an error), its session is deleted and its
 *   cookie cleared: the codes and tokens do not depend on it (`expiresWithSession` is off).
 */
export function signInLeavesNoLogin(sessionCookie: string, cookieOptions: object) {
  return async function leaveNoLogin(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    if (FRESH_SESSION.test(ctx.path)) {
      const cookie = withoutCookie(ctx.req.headers.cookie, sessionCookie);
      if (cookie === undefined) delete ctx.req.headers.cookie;
      else ctx.req.headers.cookie = cookie;
    }
    await next();
    const oidc = ctx.oidc as KoaContextWithOIDC['oidc'] | undefined;
    const session = oidc?.entities.Session;
    if (oidc?.route === 'resume' && session?.accountId !== undefined && !(session as { destroyed?: boolean }).destroyed) {
      await session.destroy();
      ctx.cookies.set(sessionCookie, null, cookieOptions);
    }
  };
}
