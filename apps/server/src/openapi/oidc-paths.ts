import type { Tag } from './tags.ts';

const oidc = 'Sign in with ZeroID (OpenID Connect)' satisfies Tag;
const html = { 'text/html': { schema: { type: 'string' } } };
const jsonOf = (schema: object, example: unknown) => ({ 'application/json': { schema, example } });
const redirect = (description: string) => ({ '303': { description } });
const authParameters = [
  ['client_id', true, 'The site, as registered with `npm run oidc -- add-client`.'],
  ['redirect_uri', true, 'Exactly one of the registered redirect URIs.'],
  ['response_type', true, '`code`.'],
  ['scope', true, '`openid` (the only scope; the only claim is `sub`).'],
  ['code_challenge', true, 'PKCE, S256: required of every client.'],
  ['code_challenge_method', true, '`S256`.'],
  ['state', false, 'Returned unchanged.'],
  ['nonce', false, 'Returned in the ID token.'],
  ['response_mode', false, '`query` (default), `fragment` or `form_post`.'],
  ['prompt', false, '`login`, or `none` (always answered `login_required`: ZeroID keeps no login).'],
  ['max_age', false, 'Any value: every sign-in is a fresh proof, and the ID token then carries `auth_time`.'],
].map(([name, required, description]) => ({ name, in: 'query', required, description, schema: { type: 'string' } }));

/**
 * The OpenID provider's endpoints (decision 023). They are served by oidc-provider, outside the
 * route schemas, so they are described here, for people; sites use the discovery document.
 */
export const OIDC_PATHS = {
  '/.well-known/openid-configuration': {
    get: {
      tags: [oidc],
      summary: 'Discovery: every endpoint and what the provider supports',
      responses: {
        '200': {
          description: 'The OpenID Provider Metadata (OpenID Connect Discovery 1.0).',
          content: jsonOf(
            { type: 'object' },
            {
              issuer: 'https://zeroid.example',
              authorization_endpoint: 'https://zeroid.example/oidc/auth',
              token_endpoint: 'https://zeroid.example/oidc/token',
              userinfo_endpoint: 'https://zeroid.example/oidc/me',
              jwks_uri: 'https://zeroid.example/oidc/jwks',
              scopes_supported: ['openid', 'credential'],
              response_types_supported: ['code'],
              code_challenge_methods_supported: ['S256'],
              id_token_signing_alg_values_supported: ['ES256'],
              subject_types_supported: ['public'],
            },
          ),
        },
      },
    },
  },
  '/oidc/auth': {
    get: {
      tags: [oidc],
      summary: 'Authorization: send the person here to sign in',
      description:
        'Authorization code flow with PKCE. The browser goes on to ZeroID’s sign-in screen (`/signin/{uid}`), where the person proves with their biometric, then back to `redirect_uri` with `code` and `state` (or `error=access_denied`). The same parameters may be POSTed as a form.',
      parameters: authParameters,
      responses: {
        ...redirect('To the sign-in screen, or back to the site with an error.'),
        '400': { description: 'An invalid client or redirect URI: an HTML page, never a redirect.', content: html },
        '413': { description: 'A parameter over 1,024 characters or a request over 4,096.' },
        '429': { description: 'Too many authorization requests from this client: `Retry-After` says when to come back.' },
      },
    },
  },
  '/oidc/session/end': {
    get: {
      tags: [oidc],
      summary: 'RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0)',
      description:
        'With `id_token_hint`, `post_logout_redirect_uri` (exactly one the site registered with `--post-logout-redirect-uri`) and `state`: ZeroID’s page confirms by itself (`POST /oidc/session/end/confirm`); the confirmation, never the request alone, revokes the person’s tokens at that site, and the browser returns to the site with `state`. The same parameters may be POSTed as a form.',
      parameters: [
        ['id_token_hint', false, 'An ID token ZeroID issued to this site.'],
        ['post_logout_redirect_uri', false, 'Exactly one of the registered post-logout redirect URIs.'],
        ['state', false, 'Returned unchanged.'],
        ['client_id', false, 'The site, when there is no `id_token_hint`.'],
      ].map(([name, required, description]) => ({ name, in: 'query', required, description, schema: { type: 'string' } })),
      responses: {
        '200': { description: 'A page that confirms by itself.', content: html },
        '400': { description: 'An unregistered `post_logout_redirect_uri` or a foreign `id_token_hint`: an HTML page.', content: html },
      },
    },
  },
  '/oidc/token': {
    post: {
      tags: [oidc],
      summary: 'Token: exchange the code for an ID token',
      requestBody: {
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: ['grant_type', 'code', 'redirect_uri', 'code_verifier'],
              properties: {
                grant_type: { type: 'string', const: 'authorization_code' },
                code: { type: 'string' },
                redirect_uri: { type: 'string' },
                code_verifier: { type: 'string', description: 'PKCE verifier.' },
                client_id: { type: 'string', description: 'For a public client; a confidential one authenticates as registered.' },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'The tokens. The ID token’s `sub` is the person’s pseudonym at this site.',
          content: jsonOf(
            { type: 'object' },
            { access_token: 'kT3…', expires_in: 600, id_token: 'eyJhbGciOiJFUzI1NiIs…', scope: 'openid', token_type: 'Bearer' },
          ),
        },
        '400': {
          description: 'invalid_grant (a used or expired code, a wrong verifier), invalid_client…',
          content: jsonOf({ type: 'object' }, { error: 'invalid_grant', error_description: 'grant request is invalid' }),
        },
      },
    },
  },
  '/oidc/me': {
    get: {
      tags: [oidc],
      summary: 'UserInfo: the pseudonym, with the access token',
      description: 'Also POST. Only `sub`: ZeroID releases nothing else.',
      responses: {
        '200': { description: 'The claims.', content: jsonOf({ type: 'object' }, { sub: 'x0Yt2V6w8c1uY4kq9Zr3HnGmQpL5sDfAeBjR7tWvXzK' }) },
      },
    },
  },
  '/oidc/jwks': {
    get: {
      tags: [oidc],
      summary: 'JWKS: the keys that sign ID tokens',
      responses: {
        '200': {
          description: 'A JSON Web Key Set (ES256).',
          content: jsonOf(
            { type: 'object' },
            { keys: [{ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: 'r3…', x: 'Q1…', y: 'Zk…' }] },
          ),
        },
      },
    },
  },
} as const;
