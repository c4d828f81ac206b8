// A site that signs people in with ZeroID: OpenID Connect, authorization code + PKCE, on openid-client.
// Settings: ZEROID_URL (the issuer, default http://127.0.0.1:8080), CLIENT_ID (default example-site),
// CLIENT_SECRET (absent: a public client), PORT (default 3000), HOST (default 127.0.0.1: this machine only),
// SITE_URL (default http://localhost:PORT, the origin of the registered redirect URI). See README.md.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import * as client from 'openid-client';
import { homePage, notFoundPage, notSignedInPage, signedOutPage, page, problem, signedInPage } from './pages.js';
import { createSessions } from './session.js';

const issuer = new URL(process.env.ZEROID_URL ?? 'http://127.0.0.1:8080');
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const site = new URL(process.env.SITE_URL ?? `http://localhost:${port}`);
const redirectUri = new URL('/callback', site).href;
const clientId = process.env.CLIENT_ID ?? 'example-site';
// Register it with --post-logout-redirect-uri for "Sign out" to come back here.
const signedOut = new URL('/signed-out', site).href;
const secret = process.env.CLIENT_SECRET;
const insecure = issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined;
const style = readFileSync(new URL('./public/style.css', import.meta.url));

/** ZeroID's configuration, discovered at the first request that needs it, and again after a failure (ZeroID may start later). */
let discovery;
const zeroid = () => {
  discovery ??= client.discovery(issuer, clientId, secret, secret ? undefined : client.None(), insecure);
  discovery.catch(() => (discovery = undefined));
  return discovery;
};

const unreachable = {
  title: `ZeroID is not reachable at ${issuer.origin}`,
  detail: 'Start it at the root of the repository (or set ZEROID_URL to where it runs), then check again.',
  command: 'npm start',
};

/**
 * A development aid, not part of signing in: whether ZeroID runs and knows this site, so the home page
 * can say what to fix instead of failing after the person's biometric step. It sends one authorization
 * request (never completed); once the answer is good it is not asked again.
 */
let setupOk = false;
async function checkSetup() {
  if (setupOk) return { ok: true };
  const config = await zeroid().catch(() => undefined);
  if (!config) return { ok: false, problem: unreachable };
  const probe = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
  });
  const reply = await fetch(probe, { redirect: 'manual' }).catch(() => undefined);
  if (!reply) return { ok: false, problem: unreachable };
  if (reply.status >= 300 && reply.status < 400) return { ok: (setupOk = true) };
  const text = await reply.text();
  const add = `npm run oidc -- add-client --id ${clientId} --name "Example site" --redirect-uri ${redirectUri}${secret ? '' : ' --public'} --post-logout-redirect-uri ${signedOut}`;
  if (text.includes('invalid_client')) {
    return {
      ok: false,
      problem: {
        title: `ZeroID does not know this site (client_id "${clientId}")`,
        detail:
          'Register it at the root of the repository with the same DATA_DIR as the running server (the default ./data, unless you started it with another), then check again.',
        command: add,
      },
    };
  }
  if (text.includes('redirect_uri')) {
    return {
      ok: false,
      problem: {
        title: `ZeroID knows "${clientId}" with another redirect URI than ${redirectUri}`,
        detail: 'Register it again with this one (or set SITE_URL to the address it was registered with), then check again.',
        command: `npm run oidc -- remove-client --id ${clientId} && ${add}`,
      },
    };
  }
  return { ok: false, problem: { title: `ZeroID refused the sign-in request (HTTP ${reply.status})`, detail: 'See its log for why.' } };
}

/** What an OAuth error code the site received means for the person. */
const MEANINGS = {
  access_denied: 'You cancelled on ZeroID, or the biometric was not recognised there.',
  login_required: 'ZeroID needs you to verify again.',
  invalid_grant: 'The sign-in took too long or was already used. Please sign in again.',
  invalid_client: `ZeroID does not accept this site's credentials (client_id "${clientId}"). Check CLIENT_ID and CLIENT_SECRET.`,
};

/**
 * Each visitor's session (session.js): while signing in, the PKCE verifier, state and nonce of the
 * login; once signed in, the person's pseudonym (`sub`) and the ID token that names them at sign-out.
 */
const sessions = createSessions({ secure: site.protocol === 'https:' });

/**
 * What the site learnt of the person's credential: not asked; asked and none shared (ZeroID makes the
 * claim only when the person's identity was registered with a credential from an issuer it trusts,
 * and proved so at this sign-in); or the issuer's name and public key, from the ID token's claims
 * `credential_issuer_name` and `credential_issuer` (its signature was checked with the token).
 */
function credentialShown(asked, claims) {
  if (!asked) return { asked: false };
  const { credential_issuer: issuer, credential_issuer_name: name } = claims;
  if (typeof issuer !== 'string' || typeof name !== 'string') return { asked: true };
  return { asked: true, issuer, name };
}

/** 303 See Other: the browser GETs `to`; a reload there does not repeat what led to it. */
const redirect = (res, to) => {
  res.writeHead(303, { location: to });
  res.end();
};

const send = (res, status, html) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
};

createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', site);
  // The session cookie belongs to one host: opened as 127.0.0.1, the site first moves to the host of its
  // redirect URI (localhost), so the person comes back from ZeroID to the same cookie.
  if (req.headers.host !== site.host) {
    res.writeHead(302, { location: new URL(url.pathname + url.search, site).href });
    return res.end();
  }
  try {
    if (url.pathname === '/style.css') {
      res.writeHead(200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'max-age=300' });
      return res.end(style);
    }
    const session = sessions.read(req);
    const user = session?.data.user;
    // Signed in: every visit to the home page, and every reload, shows so, until "Sign out".
    if (url.pathname === '/')
      return send(res, 200, user ? signedInPage(user.sub, user.credential) : homePage(await checkSetup(), issuer.origin));
    if (url.pathname === '/login') {
      const config = await zeroid();
      // `/login?ask=credential` also asks which organisation vouches for the person's ID (scope `credential`).
      const asksCredential = url.searchParams.get('ask') === 'credential';
      const login = {
        verifier: client.randomPKCECodeVerifier(),
        state: client.randomState(),
        nonce: client.randomNonce(),
        asksCredential,
      };
      sessions.start(res, { login }, session?.id);
      const to = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: asksCredential ? 'openid credential' : 'openid',
        code_challenge: await client.calculatePKCECodeChallenge(login.verifier),
        code_challenge_method: 'S256',
        state: login.state,
        nonce: login.nonce,
      });
      res.writeHead(302, { location: to.href });
      return res.end();
    }
    if (url.pathname === '/callback') {
      const login = session?.data.login;
      // Back to a callback already used while signed in: nothing left to do here.
      if (!login && user) return redirect(res, '/');
      if (!login) {
        return send(
          res,
          400,
          notSignedInPage('no sign-in in progress', 'This site restarted, or the sign-in was finished already. Sign in again.'),
        );
      }
      delete session.data.login;
      const tokens = await client.authorizationCodeGrant(await zeroid(), url, {
        pkceCodeVerifier: login.verifier,
        expectedState: login.state,
        expectedNonce: login.nonce,
      });
      // `sub` is this site's pseudonym for the person: the same on every visit, unknown to every other site.
      // Signed in: a new session id (the one from before the sign-in is dropped), then the home page, so
      // that a reload shows the signed-in page instead of replaying the used code.
      const claims = tokens.claims();
      const signedInUser = {
        sub: claims.sub,
        idToken: tokens.id_token,
        logoutState: client.randomState(),
        credential: credentialShown(login.asksCredential, claims),
      };
      sessions.start(res, { user: signedInUser }, session.id);
      return redirect(res, '/');
    }
    if (url.pathname === '/logout') {
      if (!user) return redirect(res, '/');
      // RP-initiated logout: ZeroID forgets this site's tokens for the person and sends them back here.
      const to = client.buildEndSessionUrl(await zeroid(), {
        id_token_hint: user.idToken,
        post_logout_redirect_uri: signedOut,
        state: user.logoutState,
      });
      res.writeHead(302, { location: to.href });
      return res.end();
    }
    if (url.pathname === '/signed-out') {
      if (!user || url.searchParams.get('state') !== user.logoutState) {
        return send(res, 400, notSignedInPage('no sign-out in progress', 'This site restarted, or you were signed out already.'));
      }
      sessions.end(res, session.id);
      return send(res, 200, signedOutPage());
    }
    send(res, 404, notFoundPage());
  } catch (error) {
    // An OAuth error code (access_denied…) or ZeroID out of reach; never a stack trace.
    if (typeof error?.error === 'string')
      return send(res, 400, notSignedInPage(error.error, MEANINGS[error.error] ?? error.error_description ?? ''));
    console.error(`Sign-in failed: ${error?.message ?? error}`);
    send(res, 502, page(`<h1>Not signed in</h1>${problem(unreachable)}`));
  }
}).listen(port, host, () => console.log(`Example site on ${site.origin} (ZeroID at ${issuer.origin})`));
