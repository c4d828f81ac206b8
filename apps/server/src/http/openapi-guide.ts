import { SUITE_ID } from '@zeroid/protocol/v3';
import { SEMAPHORE_PROOF_EXAMPLE, ZK_REGISTER_EXAMPLE } from './openapi-example-values.ts';

type Examples = Record<string, { summary: string; value: unknown }>;
interface Guide {
  tag: Tag;
  summary: string;
  description?: string;
  request?: Examples;
  /** By status code. */
  replies?: Record<string, Examples>;
}

/** The reference's table of contents, in reading order. */
export const TAGS = [
  { name: 'Registration and verification', description: "The specification's calls, in their raw and zero-knowledge forms." },
  {
    name: 'Zero-knowledge client',
    description: 'What a client proving on its own device needs: the OPRF, challenges, the group and the proving artifacts.',
  },
  {
    name: 'Cross-device verification',
    description: 'A screen shows a QR code; a phone opens it and verifies; the screen follows the outcome.',
  },
  {
    name: 'Sign in with ZeroID (OpenID Connect)',
    description:
      'ZeroID as an OpenID provider. A site uses the standard endpoints with any certified OpenID Connect library; the `/signin` calls are those of ZeroID’s own sign-in screen. ZeroID keeps no login beyond one sign-in; RP-initiated logout (`/oidc/session/end`), once confirmed, revokes the person’s tokens at that site and returns to its registered `post_logout_redirect_uri`.',
  },
  { name: 'Decentralised identifiers', description: 'Every identity has a did:key that anyone can resolve.' },
  { name: 'Operations', description: 'Health for load balancers and orchestrators.' },
] as const;
type Tag = (typeof TAGS)[number]['name'];

const challenge = '3993908896762707977443148568746186084759960651536039885262373659818521859991';
const did = 'did:key:z6MkhZHwL87T3TAvqbmLwTqnQAjY6um8bauTJjqgQHwf9REU';
const session = 'de49996f16cfd0b56bd48abd6759f359';
const expiresAt = '2026-11-26T14:41:16.309Z';
const error = (code: string, message: string): Examples => ({ [code]: { summary: message, value: { error: { code, message } } } });
const siteDetails = {
  site: { name: 'The Example Site', host: 'localhost:3000' },
  scope: '18245627376427364723847623847623874623847623847628374623874',
  challenge,
  expiresAt,
};
const anotherTry = { result: 'Failure', challenge, expiresAt };

const raw = {
  register: { id_info: 'P-1234 Jane Example', bio_info: 'ridge loop whorl delta arch 12 31 57' },
  verify: { bio_info: 'ridge loop whorl delta arch 12 31 57' },
};

/** What each operation is for, with examples; keyed `method path` as in the document. */
export const GUIDE: Record<string, Guide> = {
  'post /register': {
    tag: 'Registration and verification',
    summary: 'Register an identity',
    description:
      'Raw (the specification’s body): the server derives everything and drops the raw values. Zero-knowledge (protocol v3): the client runs one OPRF round per input (`POST /oprf` with `suite`), derives the commitment, ID tag and DID itself, and proves in zero knowledge (the `registration-v3` circuit of `GET /artifacts`) that they are the derivations of those evaluations, bound to a fresh challenge; the DID’s key signs, and nothing raw is sent. The server computes each evaluation again from the blinded points and registers each evaluation once. With `credential: {today, issuersRoot}`, the ID is a credential and the proof is of the `registration-credential` circuit: a trusted issuer (not named) signed the ID, and it has not expired on day `today`; the body carries neither the credential nor the ID (`ISSUER_NOT_TRUSTED` for another root, `CREDENTIAL_DAY_INVALID` for a day not the challenge’s). The v2 body (with `signatures`) is refused with `PROTOCOL_V2_REGISTRATION_CLOSED`. An ID or biometric already registered answers `"DID already generated": true`, never the existing identity’s data.',
    request: {
      raw: { summary: 'Raw: ID and biometric text', value: raw.register },
      zeroKnowledge: {
        summary: 'Zero-knowledge (v3): derived values, OPRF rounds, registration proof, DID signature',
        value: ZK_REGISTER_EXAMPLE,
      },
    },
    replies: {
      '200': {
        registered: { summary: 'A new identity', value: { 'DID already generated': false, DID: did } },
        already: { summary: 'Already registered', value: { 'DID already generated': true } },
      },
    },
  },
  'post /verify': {
    tag: 'Registration and verification',
    summary: 'Verify with the biometric alone',
    description:
      'Raw: the biometric text. Zero-knowledge: a Semaphore v4 proof of membership whose message and scope are an unused challenge from `POST /challenge`. Either way the verdict is HTTP 200; with `session`, it also completes that cross-device session.',
    request: {
      raw: { summary: 'Raw: the biometric text', value: raw.verify },
      zeroKnowledge: { summary: 'Zero-knowledge: a Semaphore proof', value: { proof: SEMAPHORE_PROOF_EXAMPLE } },
    },
    replies: {
      '200': {
        success: { summary: 'Verified', value: { 'Verification Result': 'Success' } },
        failure: { summary: 'Not registered, or the proof was refused', value: { 'Verification Result': 'Failure' } },
      },
    },
  },
  'post /erase': {
    tag: 'Registration and verification',
    summary: 'Delete an identity',
    description:
      'Proven with the ID and the biometric: the leaf becomes 0, the DID resolves as deactivated, and the person may register again.',
    request: { raw: { summary: 'Raw: ID and biometric text', value: raw.register } },
    replies: {
      '200': {
        erased: { summary: 'Erased', value: { 'Erasure Result': 'Success' } },
        notErased: { summary: 'Nothing matched both', value: { 'Erasure Result': 'Failure' } },
      },
    },
  },
  'get /erase/sign-in-scopes': {
    tag: 'Registration and verification',
    summary: 'The sectors a zero-knowledge erasure proves its pseudonyms at',
    description:
      'One scope per registered Sign in with ZeroID sector. A zero-knowledge erasure sends one Semaphore proof per scope, in the group of its own commitment alone and bound to its challenge, so that its sign-in records and tokens go too, without its secret ever leaving the device.',
    replies: { '200': { scopes: { summary: 'Two sectors', value: { scopes: ['1234', '5678'] } } } },
  },
  'get /issuers': {
    tag: 'Registration and verification',
    summary: 'The issuers whose credentials register here',
    description:
      'The operator’s `TRUSTED_ISSUERS`, with their names, and `REQUIRE_CREDENTIAL`. A credential (`npm run issuer -- issue`) is one line sent as `id_info`: the server checks its signature, that its issuer is listed here and that it has not expired, derives the identity from its ID in that issuer’s own ID-tag space, and keeps neither the credential nor the ID. Refusals: `MALFORMED_CREDENTIAL`, `CREDENTIAL_SIGNATURE_INVALID`, `ISSUER_NOT_TRUSTED`, `CREDENTIAL_EXPIRED`, and `CREDENTIAL_REQUIRED` for a plain ID on either path when credentials are required. `issuersRoot` is the root of the Poseidon Merkle tree of these issuers in this order, which a zero-knowledge registration with a credential proves its hidden issuer is in.',
    replies: {
      '200': {
        one: {
          summary: 'One trusted issuer, plain IDs still accepted',
          value: {
            issuers: [{ name: 'Example University', publicKey: 'XtGKu4yllQRQwdQ61w4oYP4coWTf0sjdVXRge2oTqIE' }],
            credentialRequired: false,
            issuersRoot: '3574564371982775872325254121758795096176071840378252561171556799032783195096',
          },
        },
      },
    },
  },
  'get /generateQRCode': {
    tag: 'Cross-device verification',
    summary: 'QR code of the verification link (PNG)',
    description: 'With `session`, the link completes that session when a phone verifies through it.',
  },
  'get /oprf/public-key': {
    tag: 'Zero-knowledge client',
    summary: 'The OPRF public key',
    description: 'The client checks every evaluation’s DLEQ proof against it. In threshold mode, also the nodes and t.',
    replies: {
      '200': {
        single: { summary: 'One key', value: { suite: 'ristretto255-SHA512', publicKey: 'iLECguPc2fdLLeTOFCM4xT4iJyMjCFAgwEZVf9KBrjE' } },
      },
    },
  },
  'post /oprf': {
    tag: 'Zero-knowledge client',
    summary: 'Evaluate one blinded element (RFC 9497)',
    description:
      'The only place a guess can be tested, so it is rate-limited per client and globally (429 with Retry-After). With `suite` (protocol v3) the element is one Baby Jubjub point B and the evaluation Z ‖ e ‖ s under the v3 key of `GET /oprf/public-key`; same guess cost.',
    request: {
      element: { summary: 'A blinded element', value: { element: 'AQAgNmD1bCHLf5yM_7D9o8ZqH6ZkW4H2Kp7bqG0r8mYkXWo' } },
      v3: { summary: 'Protocol v3: one blinded point', value: { element: 'KV-q4XboXRIcac9vOsfh9SG2SElJZL472zckV3zEAi0', suite: SUITE_ID } },
    },
    replies: { '429': error('TOO_MANY_GUESSES', 'Too many attempts from your network. Please try again in 900 seconds.') },
  },
  'post /oprf/admission': {
    tag: 'Zero-knowledge client',
    summary: 'Threshold mode: admission to the OPRF nodes',
    description:
      'Counts the guess against the same limits as `POST /oprf`, then signs the blinded request: each node evaluates it only with this admission in the `zeroid-admission` header. 409 in single-key mode.',
    replies: { '429': error('TOO_MANY_GUESSES', 'Too many attempts from your network. Please try again in 900 seconds.') },
  },
  'post /challenge': {
    tag: 'Zero-knowledge client',
    summary: 'A one-time challenge',
    replies: { '200': { challenge: { summary: 'A field element, valid for a few minutes', value: { challenge, expiresAt } } } },
  },
  'post /reservations': {
    tag: 'Zero-knowledge client',
    summary: 'Take a flow’s guesses at its start',
    description:
      'Takes the OPRF evaluations a flow will need (a registration 4, a verification 2, an erasure 3) from the client’s guess budget at once, or none: a 429 whose Retry-After is exactly when the budget holds them. The flow’s later calls carry the reservation in the `zeroid-reservation` header and draw on it, so a flow is never refused halfway. It serves only the address that took it, for ten minutes.',
    request: { registration: { summary: 'A registration’s four', value: { guesses: 4 } } },
    replies: {
      '200': { taken: { summary: 'Taken', value: { reservation: 'q3Vb1m0m3lYyQz5l3d4sJc1fWm7c2kZr0gQyXo6l2aU', guesses: 4, expiresAt } } },
      '429': error('TOO_MANY_GUESSES', 'Too many attempts from your network. Please try again in 900 seconds.'),
    },
  },
  'post /reservations/release': {
    tag: 'Zero-knowledge client',
    summary: 'Give back what a flow did not use',
    description: 'Ends the reservation and returns its unused guesses to the client’s budget (they were never evaluated).',
    request: { release: { summary: 'A reservation', value: { reservation: 'q3Vb1m0m3lYyQz5l3d4sJc1fWm7c2kZr0gQyXo6l2aU' } } },
    replies: { '200': { released: { summary: 'One guess given back', value: { released: 1 } } } },
  },
  'get /members': {
    tag: 'Zero-knowledge client',
    summary: 'The group, or one k-anonymous bucket of it',
    description:
      'Without `bucket`: the group’s size, depth and root. With `bucket` (the first hex characters of the commitment’s hash): every member in it with its Merkle proof. The server learns the bucket, never which member verifies.',
    replies: {
      '200': {
        bucket: {
          summary: 'A bucket',
          value: {
            size: 1,
            depth: 1,
            root: '5939796729025575893449925993801550624359221883375368278276469315998285656686',
            bucketHexChars: 0,
            bucket: '',
            members: [
              {
                commitment: '5939796729025575893449925993801550624359221883375368278276469315998285656686',
                leafIndex: 0,
                proofIndex: 0,
                siblings: [],
              },
            ],
          },
        },
      },
    },
  },
  'get /artifacts': {
    tag: 'Zero-knowledge client',
    summary: 'The proving artifacts, with checksums',
    description: 'Ask for each as `/artifacts/<name>?sha256=<sha256>`: that reply may be kept for good.',
  },
  'get /artifacts/{name}': {
    tag: 'Zero-knowledge client',
    summary: 'A circuit, proving key or verification key',
    description:
      'Brotli- or gzip-compressed as `Accept-Encoding` allows; `X-Content-SHA256` is the SHA-256 of the uncompressed file, which the client checks.',
  },
  'get /did/{did}': {
    tag: 'Decentralised identifiers',
    summary: 'Resolve a DID to its DID document',
  },
  'get /healthz': {
    tag: 'Operations',
    summary: 'Ready: storage and tree loaded',
    description:
      '`setup` is what the v3 registration circuit’s trusted setup is, `credentialSetup` the credential registration circuit’s: `final` only with a public phase 1, two or more phase-2 contributions and a closing beacon. Neither changes the status.',
    replies: {
      '200': {
        ready: {
          summary: 'Ready',
          value: {
            status: 'ready',
            members: 2,
            root: '1200320220719314186300992006211585066859',
            setup: { phase1: 'local', contributions: 2, beacon: false, final: false },
            credentialSetup: { phase1: 'local', contributions: 2, beacon: true, final: false },
          },
        },
      },
    },
  },
  'get /livez': { tag: 'Operations', summary: 'Alive', replies: { '200': { ok: { summary: 'Alive', value: { status: 'ok' } } } } },
  'post /sessions': {
    tag: 'Cross-device verification',
    summary: 'Open a cross-device session',
    description:
      'The screen keeps `secret` in memory; the QR code carries only the session, as `link`, which the screen also shows as text.',
    replies: {
      '200': {
        created: {
          summary: 'A pending session',
          value: {
            session,
            status: 'pending',
            expiresAt,
            secret: 'BwbYtLOFwQ0b8SB1sUVDw_l2tHaELehMiHzKe8yo0Nc',
            link: `https://zeroid.example/user-verification?session=${session}`,
          },
        },
      },
    },
  },
  'get /sessions/{id}': {
    tag: 'Cross-device verification',
    summary: 'The outcome, for the screen holding the secret',
    replies: {
      '200': {
        waiting: {
          summary: 'A phone opened the link and is verifying',
          value: { session, status: 'pending', expiresAt, phoneConnected: true },
        },
        done: { summary: 'Verified on the phone', value: { session, status: 'success', expiresAt } },
      },
    },
  },
  'get /sessions/{id}/open': {
    tag: 'Cross-device verification',
    summary: 'Whether the session still waits (the phone’s view)',
    replies: { '200': { open: { summary: 'Open', value: { session, open: true, expiresAt } } } },
  },
  'post /sessions/{id}/failure': { tag: 'Cross-device verification', summary: 'The phone reports a biometric that is not registered' },
  'post /sessions/{id}/confirm': {
    tag: 'Cross-device verification',
    summary: 'The screen types the code its phone showed',
    description:
      'After a phone’s Success, the screen’s person types the six digits that phone showed; only then is the session confirmed. Five wrong codes fail the session.',
  },
  'get /signin/{uid}/details': {
    tag: 'Sign in with ZeroID (OpenID Connect)',
    summary: 'Sign-in screen: the site, scope and challenge',
    replies: { '200': { details: { summary: 'What to prove for', value: siteDetails } } },
  },
  'post /signin/{uid}/proof': {
    tag: 'Sign in with ZeroID (OpenID Connect)',
    summary: 'Sign-in screen: send the proof',
    replies: {
      '200': {
        back: { summary: 'Back to the site with a code', value: { redirectTo: 'http://localhost:3000/callback?code=…&state=…&iss=…' } },
        again: { summary: 'Not accepted: try again, with a fresh challenge', value: anotherTry },
      },
    },
  },
  'post /signin/{uid}/failure': {
    tag: 'Sign in with ZeroID (OpenID Connect)',
    summary: 'Sign-in screen: the biometric is not registered, try again',
    description:
      'The screen found the biometric not registered before proving anything. Counted as a failed verification of the client (429 with Retry-After past the limit); the sign-in waits for another try.',
    replies: { '200': { again: { summary: 'Another try, with a fresh challenge', value: anotherTry } } },
  },
  'post /signin/{uid}/cancel': { tag: 'Sign in with ZeroID (OpenID Connect)', summary: 'Sign-in screen: cancel (access_denied)' },
  'post /signin/{uid}/sessions': { tag: 'Sign in with ZeroID (OpenID Connect)', summary: 'Sign-in screen: verify on a phone instead' },
  'post /signin/{uid}/sessions/{id}/finish': {
    tag: 'Sign in with ZeroID (OpenID Connect)',
    summary: 'Sign-in screen: finish once the phone has proved',
  },
  'get /sessions/{id}/sign-in': {
    tag: 'Sign in with ZeroID (OpenID Connect)',
    summary: 'Phone: what a sign-in session asks to prove',
    replies: {
      '200': { details: { summary: 'The site, named before anything is proved', value: { ...siteDetails, uid: 'fV3mQz6y0cJk2hLrT8wq' } } },
    },
  },
  'post /sessions/{id}/sign-in': {
    tag: 'Sign in with ZeroID (OpenID Connect)',
    summary: 'Phone: send the sign-in proof',
    replies: { '200': { success: { summary: 'Accepted', value: { session, result: 'Success' } } } },
  },
};

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
              scopes_supported: ['openid'],
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
