import Provider, { interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { TrustedIssuer } from '../credentials/trusted-issuers.ts';
import type { OidcRepository } from '../storage/types.ts';
import { allowFormPostToRedirectUri } from './form-post-csp.ts';
import {
  asksCredential,
  CREDENTIAL_CLAIMS,
  CREDENTIAL_SCOPE,
  claimStillTrue,
  credentialClaimOf,
  saveCredentialClaim,
  type CredentialClaim,
} from './credential-claim.ts';
import { forgetTokensOnLogout } from './forget-tokens-on-logout.ts';
import { DISCOVERY_PATH, JWKS_PATH, OIDC_PREFIX, signInPath } from './paths.ts';
import { signInLeavesNoLogin } from './sign-in-leaves-no-login.ts';
import { ID_TOKEN_TTL_SECONDS, JWKS_MAX_AGE_SECONDS, type SigningJwk } from './signing-keys.ts';
import { storageAdapter } from './storage-adapter.ts';

/** How long a site may cache the discovery document: it changes only with ZeroID's version. */
const DISCOVERY_MAX_AGE_SECONDS = 300;
const SESSION_COOKIE = 'zeroid_oidc_session';
const COOKIE_OPTIONS = { httpOnly: true, sameSite: 'lax' } as const;

/**
 * A person is asked for a fresh proof on every authorization request: there is no ZeroID account
 * and no remembered login. Only the resumption right after that proof skips the prompt.
 */
function proofEveryTime() {
  const policy = interactionPolicy.base();
  const login = policy.get('login')!;
  login.checks.add(
    // prompt=none gets OpenID Connect Core's login_required: there is never a login to reuse.
    new interactionPolicy.Check(
      'zeroid_proof_every_time',
      'Every sign-in needs a fresh proof',
      'login_required',
      (ctx: KoaContextWithOIDC) =>
        ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
    ),
    0,
  );
  return policy;
}

const page = (title: string, body: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body>${body}</body></html>`;

/**
 * The OpenID provider (oidc-provider, certified): authorization code with PKCE (S256) for every
 * client, ES256 ID tokens whose only claim about the person is `sub`, the per-site nullifier
 * (decision 023), and RP-initiated logout (decision 036). Everything else is off: dynamic
 * registration, device flow, refresh tokens, introspection, revocation. The state lives in our
 * storage, so any process can continue a login; no login outlives its sign-in.
 */
export function createProvider(options: {
  issuer: string;
  oidc: OidcRepository;
  signing: SigningJwk[];
  cookieKeys: string[];
  /** How long an authorization request waits for its proof (SIGN_IN_TTL_SECONDS). */
  signInTtlSeconds: number;
  /** TRUSTED_ISSUERS: a stored credential claim is told only while its issuer is one of them. */
  trustedIssuers: readonly TrustedIssuer[];
}) {
  const configuration: Configuration = {
    adapter: storageAdapter(options.oidc),
    clients: [],
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
      token_endpoint_auth_method: 'client_secret_basic',
    },
    // Exactly the methods our clients use (decision 037): none for public clients; a confidential
    // client's secret in the Authorization header (client_secret_basic, as registered) or, as
    // oidc-provider deliberately allows for the same client, in the body (client_secret_post,
    // openid-client's default). No JWT-based method: no client has keys for one.
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    jwks: { keys: options.signing },
    cookies: {
      keys: options.cookieKeys,
      names: { session: SESSION_COOKIE, interaction: 'zeroid_oidc_interaction', resume: 'zeroid_oidc_resume' },
      long: COOKIE_OPTIONS,
      short: COOKIE_OPTIONS,
    },
    scopes: ['openid', CREDENTIAL_SCOPE],
    // `sub` (and `iss` and, when a site asks for max_age, `auth_time`, in the ID token), and, only for
    // a sign-in that asked for `credential` and proved one, the issuer's key and name (decision 088):
    // no other claim is ever issued, so discovery lists no other (publishedMetadata).
    claims: { openid: ['sub'], [CREDENTIAL_SCOPE]: [...CREDENTIAL_CLAIMS] },
    // The credential's claims go in the ID token too, not only to userinfo: a site reads the ID token.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    // The subject is already per site (the nullifier of the site's scope): no pairwise mapping on top;
    // discovery says `pairwise`, which is what a site gets (publishedMetadata).
    subjectTypes: ['public'],
    // A sector_identifier_uri is checked once, when the client is added (sector-document.ts): a
    // process loading the client never fetches it, so a site's server being down stops no sign-in.
    sectorIdentifierUriValidate: () => false,
    // A grant's credential claim is kept under the grant's id (credential-claim.ts): the code and the
    // access token carry it, and the provider releases the values only under the granted scope, so
    // they are read only for a token whose scope holds `credential`.
    findAccount: async (_ctx, sub, token) => ({
      accountId: sub,
      claims: async (_use, scope) => ({
        sub,
        ...(asksCredential(scope)
          ? claimStillTrue(await credentialClaimOf(options.oidc, token?.grantId), options.trustedIssuers)
          : undefined),
      }),
    }),
    // Nothing identifying is released, so nothing to consent to beyond the site named on the proof
    // screen: the openid scope is granted with the login, for the pseudonym just proved at this site
    // (the session is a new one for every sign-in, so it names no other).
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (accountId === undefined || clientId === undefined || ctx.oidc.result?.login?.accountId !== accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope('openid');
      // The credential is granted only with the claim the sign-in proved (decision 088); asked for and
      // not proved, it is refused, so the provider does not ask again for consent.
      const claim = (ctx.oidc.result as { credential?: CredentialClaim } | undefined)?.credential;
      const asked = asksCredential(ctx.oidc.params?.scope);
      if (asked && claim) grant.addOIDCScope(CREDENTIAL_SCOPE);
      else if (asked) grant.rejectOIDCScope(CREDENTIAL_SCOPE);
      const grantId = await grant.save();
      if (asked && claim)
        await saveCredentialClaim(
          options.oidc,
          { grantId, accountId, clientId, expiresAt: Date.now() + ID_TOKEN_TTL_SECONDS * 1000 },
          claim,
        );
      return grant;
    },
    // Codes and tokens do not depend on the provider's session, which is deleted once the site has
    // its answer (sign-in-leaves-no-login.ts).
    expiresWithSession: async () => false,
    interactions: { policy: proofEveryTime(), url: async (_ctx, interaction) => signInPath(interaction.uid) },
    routes: {
      authorization: `${OIDC_PREFIX}/auth`,
      token: `${OIDC_PREFIX}/token`,
      jwks: JWKS_PATH,
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
      // RP-Initiated Logout 1.0 (decision 036): ZeroID holds no login to end, so it asks nothing;
      // it forgets the site's tokens for the person its id_token_hint names and returns to the
      // site's registered post_logout_redirect_uri.
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.body = page(
            'Sign out',
            `<h1>Sign out</h1>${form}<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button>`,
          );
        },
        postLogoutSuccessSource: async (ctx) => {
          const site = ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId;
          ctx.body = page(
            'Signed out',
            `<h1>Signed out</h1><p>${site ? `${escapeHtml(site)} has signed you out. ` : ''}ZeroID keeps no login.</p>`,
          );
        },
      },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: { enabled: false },
      dPoP: { enabled: false },
      introspection: { enabled: false },
      revocation: { enabled: false },
      userinfo: { enabled: true },
    },
    // Short lives (decision 023): a login is one request; nothing is remembered after it.
    ttl: {
      AuthorizationCode: 60,
      IdToken: ID_TOKEN_TTL_SECONDS,
      AccessToken: ID_TOKEN_TTL_SECONDS,
      Grant: ID_TOKEN_TTL_SECONDS,
      Interaction: options.signInTtlSeconds,
      Session: options.signInTtlSeconds,
    },
    // A browser app (a public client) exchanges its code from its own origin: allow exactly the origins
    // of its registered redirect URIs.
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page(
        'Sign in with ZeroID',
        `<h1>Sign in with ZeroID could not continue</h1>${Object.entries(out)
          .map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(String(value))}</p>`)
          .join('')}`,
      );
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.use(publishedMetadata);
  provider.use(signInLeavesNoLogin(SESSION_COOKIE, COOKIE_OPTIONS));
  provider.use(forgetTokensOnLogout(options.oidc, options.signInTtlSeconds));
  provider.use(allowFormPostToRedirectUri);
  return provider;
}

/** The claims an ID token or userinfo of ours can hold; oidc-provider would also list `sid`, which no token carries. */
const CLAIMS_SUPPORTED = ['sub', 'iss', 'auth_time', ...CREDENTIAL_CLAIMS];

/**
 * Discovery says exactly what the provider does, and it and the JWKS may be cached (decision 037):
 * discovery for five minutes, the JWKS for less than a new key waits before it signs
 * (signing-keys.ts). Every other answer stays `no-store`, and a 503 says when to try again.
 */
async function publishedMetadata(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.status === 503) ctx.set('retry-after', '5');
  if (ctx.status !== 200) return;
  if (ctx.path === DISCOVERY_PATH) {
    const metadata = ctx.body as { claims_supported: string[]; subject_types_supported: string[] };
    metadata.claims_supported = CLAIMS_SUPPORTED;
    // Every sub is pairwise (the nullifier of the site's sector), though oidc-provider maps none itself.
    metadata.subject_types_supported = ['pairwise'];
    ctx.set('cache-control', `public, max-age=${DISCOVERY_MAX_AGE_SECONDS}`);
  }
  if (ctx.path === JWKS_PATH) ctx.set('cache-control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
