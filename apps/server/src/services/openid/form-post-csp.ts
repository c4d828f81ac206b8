import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * `response_mode=form_post` (decision 028): the provider answers with a page whose form posts the
 * code to the site's redirect URI, submitted by an inline script. Our CSP allows that script (the
 * provider adds its hash to `script-src`) but its `form-action 'self'` would stop the post. For that
 * one answer, and only when the redirect URI is one the client registered, `form-action` also allows
 * that URI's origin (an origin, not the URI: browsers apply `form-action` to the redirects that follow
 * the post too, and a site may redirect within its own origin after reading the code).
 */
export async function allowFormPostToRedirectUri(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  const oidc = ctx.oidc as KoaContextWithOIDC['oidc'] | undefined;
  if (!oidc?.params || oidc.responseMode !== 'form_post' || !ctx.response.is('html')) return;
  const redirectUri = oidc.params.redirect_uri;
  if (typeof redirectUri !== 'string' || !URL.canParse(redirectUri) || !oidc.client?.redirectUriAllowed(redirectUri)) return;
  const policy = ctx.response.get('content-security-policy');
  if (policy) ctx.set('content-security-policy', withFormActionSource(policy, new URL(redirectUri).origin));
}

/** `policy` with `source` added to its `form-action` directive (unchanged when it has none). */
export function withFormActionSource(policy: string, source: string): string {
  return policy
    .split(';')
    .map((directive) => (/^\s*form-action(\s|$)/i.test(directive) ? `${directive.trimEnd()} ${source}` : directive))
    .join(';');
}
