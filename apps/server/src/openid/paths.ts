/** Where the provider's endpoints live: discovery at the root, as OpenID Connect Discovery requires; the rest under /oidc. */
export const OIDC_PREFIX = '/oidc';
export const DISCOVERY_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = `${OIDC_PREFIX}/jwks`;

/** The web app's sign-in screen for one authorization request. */
export const signInPath = (uid: string) => `/signin/${uid}`;
