// A site that signs people in with ZeroID: OpenID Connect, authorization code + PKCE, on openid-client.
// Settings: ZEROID_URL (the issuer, default http://127.0.0.1:8080), CLIENT_ID (default example-site),
// CLIENT_SECRET (absent: a public client), PORT (default 3000). See README.md.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import * as client from 'openid-client';

const issuer = new URL(process.env.ZEROID_URL ?? 'http://127.0.0.1:8080');
const port = Number(process.env.PORT ?? 3000);
const redirectUri = `http://localhost:${port}/callback`;
// Register it with --post-logout-redirect-uri for "Sign out" to come back here.
const signedOut = `http://localhost:${port}/signed-out`;
const secret = process.env.CLIENT_SECRET;
const insecure = issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined;
const config = await client.discovery(
  issuer,
  process.env.CLIENT_ID ?? 'example-site',
  secret,
  secret ? undefined : client.None(),
  insecure,
);

/** Logins in progress, by a random cookie: the PKCE verifier, state and nonce of each. */
const pending = new Map();
/** Signed-in visitors, by the same cookie: their ID token, which names them when they sign out. */
const signedIn = new Map();
const page = (body) => `<!DOCTYPE html><meta charset="utf-8"><title>Example site</title><h1>Example site</h1>${body}`;
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', `http://localhost:${port}`);
  try {
    if (url.pathname === '/login') {
      const login = { verifier: client.randomPKCECodeVerifier(), state: client.randomState(), nonce: client.randomNonce() };
      const id = randomBytes(16).toString('hex');
      pending.set(id, login);
      const to = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid',
        code_challenge: await client.calculatePKCECodeChallenge(login.verifier),
        code_challenge_method: 'S256',
        state: login.state,
        nonce: login.nonce,
      });
      res.writeHead(302, { location: to.href, 'set-cookie': `login=${id}; HttpOnly; SameSite=Lax; Path=/` });
      return res.end();
    }
    const id = /(?:^|; )login=([0-9a-f]{32})/.exec(req.headers.cookie ?? '')?.[1];
    if (url.pathname === '/callback') {
      const login = id && pending.get(id);
      if (!login) throw new Error('No sign-in in progress');
      pending.delete(id);
      const tokens = await client.authorizationCodeGrant(config, url, {
        pkceCodeVerifier: login.verifier,
        expectedState: login.state,
        expectedNonce: login.nonce,
      });
      signedIn.set(id, { idToken: tokens.id_token, state: client.randomState() });
      // `sub` is this site's pseudonym for the person: the same on every visit, unknown to every other site.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        page(`<p id="signed-in">Signed in as ${escape(tokens.claims().sub)}</p><p><a href="/">Home</a> <a href="/logout">Sign out</a></p>`),
      );
    }
    if (url.pathname === '/logout' && id && signedIn.has(id)) {
      // RP-initiated logout: ZeroID forgets this site's tokens for the person and sends them back here.
      const { idToken, state } = signedIn.get(id);
      const to = client.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: signedOut, state });
      return res.writeHead(302, { location: to.href }).end();
    }
    if (url.pathname === '/signed-out') {
      const session = id && signedIn.get(id);
      if (!session || url.searchParams.get('state') !== session.state) throw new Error('No sign-out in progress');
      signedIn.delete(id);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(page('<p id="signed-out">Signed out</p><p><a href="/">Home</a></p>'));
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page('<p><a id="sign-in" href="/login">Sign in with ZeroID</a></p>'));
  } catch (error) {
    res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page(`<p id="not-signed-in">Not signed in: ${escape(error.error ?? error.message)}</p><p><a href="/">Home</a></p>`));
  }
}).listen(port, () => console.log(`Example site on http://localhost:${port} (ZeroID at ${issuer.href})`));
