import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * `response_mode=form_post` (decision 028): the provider answers with a page whose form posts the
 * code to the site's redirect URI, submitted by an inline script. Our CSP allows that script (the
 * provider adds its hash to `script-src`) but its `form-action 'self'` would stop the post. For that
 * one answer, and only when the redirect URI is one the client registered, `form-action` also allows
 * that URI's origin (an origin, not the URI: browsers apply `form-action` to the redirects that follow
 * the post too, and a site may redirect within its own origin after reading the code). The logout
 * page's form posts to ZeroID, whose answer redirects to the site: that origin, once registered, too.
 */
export async function allowFormPostToRedirectUri(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  const oidc = ctx.oidc as KoaContextWithOIDC['oidc'] | undefined;
  if (!oidc?.params || !ctx.response.is('html')) return;
  const target = formPostTarget(oidc);
  if (target === undefined) return;
  const policy = ctx.response.get('content-security-policy');
  if (policy) ctx.set('content-security-policy', withFormActionSource(policy, target));
}

/**
 * The origin a provider page's form may lead to, if any: the site's registered redirect URI of a
 * `form_post` answer; or, for the logout page (decision 036), the registered post_logout_redirect_uri
 * that its confirmation redirects to (oidc-provider drops one the client did not register).
 */
function formPostTarget(oidc: KoaContextWithOIDC['oidc']): string | undefined {
  const allowed = (uri: unknown, check: (uri: string) => boolean | undefined) =>
    typeof uri === 'string' && URL.canParse(uri) && check(uri) === true ? new URL(uri).origin : undefined;
  if (oidc.route === 'end_session') {
    return allowed(oidc.params!.post_logout_redirect_uri, (uri) => oidc.client?.postLogoutRedirectUriAllowed(uri));
  }
  if (oidc.responseMode !== 'form_post') return undefined;
  return allowed(oidc.params!.redirect_uri, (uri) => oidc.client?.redirectUriAllowed(uri));
}

/** `policy` with `source` added to its `form-action` directive (unchanged when it has none). */
export function withFormActionSource(policy: string, source: string): string {
  return policy
    .split(';')
    .map((directive) => (/^\s*form-action(\s|$)/i.test(directive) ? `${directive.trimEnd()} ${source}` : directive))
    .join(';');
}
