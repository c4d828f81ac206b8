import Provider, { interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { OidcRepository } from '../../storage/types.ts';
import { allowFormPostToRedirectUri } from './form-post-csp.ts';
import { storageAdapter } from './storage-adapter.ts';
import type { SigningJwk } from './signing-keys.ts';

/** Where the provider's endpoints live: discovery at the root, as OpenID Connect Discovery requires; the rest under /oidc. */
export const OIDC_PREFIX = '/oidc';
export const DISCOVERY_PATH = '/.well-known/openid-configuration';

/** The web app's sign-in screen for one authorization request. */
export const signInPath = (uid: string) => `/signin/${uid}`;

/**
 * A person is asked for a fresh proof on every authorization request: there is no ZeroID account
 * and no remembered login. Only the resumption right after that proof skips the prompt.
 */
function proofEveryTime() {
  const policy = interactionPolicy.base();
  const login = policy.get('login')!;
  login.checks.add(
    new interactionPolicy.Check('zeroid_proof_every_time', 'Every sign-in needs a fresh proof', (ctx: KoaContextWithOIDC) =>
      ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
    ),
    0,
  );
  return policy;
}

/**
 * The OpenID provider (oidc-provider, certified): authorization code with PKCE (S256) for every
 * client, ES256 ID tokens whose only claim about the person is `sub`, the per-site nullifier
 * (decision 023). Everything else is off: dynamic registration, device flow, logout, refresh tokens,
 * introspection, revocation. The state lives in our storage, so any process can continue a login.
 */
export function createProvider(options: { issuer: string; oidc: OidcRepository; signing: SigningJwk[]; cookieKeys: string[] }) {
  const configuration: Configuration = {
    adapter: storageAdapter(options.oidc),
    clients: [],
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
      token_endpoint_auth_method: 'client_secret_basic',
    },
    jwks: { keys: options.signing },
    cookies: {
      keys: options.cookieKeys,
      names: { session: 'zeroid_oidc_session', interaction: 'zeroid_oidc_interaction', resume: 'zeroid_oidc_resume' },
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    scopes: ['openid'],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    // The subject is already per site (the nullifier of the site's scope): no pairwise mapping on top.
    subjectTypes: ['public'],
    // A sector_identifier_uri is checked once, when the client is added (sector-document.ts): a
    // process loading the client never fetches it, so a site's server being down stops no sign-in.
    sectorIdentifierUriValidate: () => false,
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    // Nothing identifying is released, so nothing to consent to beyond the site named on the proof
    // screen: the openid scope is granted with the login.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (accountId === undefined || clientId === undefined) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope('openid');
      await grant.save();
      return grant;
    },
    interactions: { policy: proofEveryTime(), url: async (_ctx, interaction) => signInPath(interaction.uid) },
    routes: {
      authorization: `${OIDC_PREFIX}/auth`,
      token: `${OIDC_PREFIX}/token`,
      jwks: `${OIDC_PREFIX}/jwks`,
      userinfo: `${OIDC_PREFIX}/me`,
      end_session: `${OIDC_PREFIX}/session/end`,
      pushed_authorization_request: `${OIDC_PREFIX}/request`,
      revocation: `${OIDC_PREFIX}/token/revocation`,
      introspection: `${OIDC_PREFIX}/token/introspection`,
      registration: `${OIDC_PREFIX}/reg`,
      code_verification: `${OIDC_PREFIX}/device`,
      device_authorization: `${OIDC_PREFIX}/device/auth`,
      backchannel_authentication: `${OIDC_PREFIX}/backchannel`,
      challenge: `${OIDC_PREFIX}/challenge`,
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: false },
      deviceFlow: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: { enabled: false },
      dPoP: { enabled: false },
      introspection: { enabled: false },
      revocation: { enabled: false },
      userinfo: { enabled: true },
    },
    // Short lives: a login is one request; nothing is remembered after it.
    ttl: { AuthorizationCode: 60, IdToken: 600, AccessToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    // A browser app (a public client) exchanges its code from its own origin: allow exactly the origins
    // of its registered redirect URIs.
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Sign in with ZeroID</title></head><body><h1>Sign in with ZeroID could not continue</h1>${Object.entries(
        out,
      )
        .map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(String(value))}</p>`)
        .join('')}</body></html>`;
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.use(allowFormPostToRedirectUri);
  return provider;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
