import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SemaphoreProof } from '@semaphore-protocol/proof';
import { generateOprfKeyPair, signInSectorUriScope, signInMessage, signInScope, VERIFICATION_RESULT } from '@zeroid/protocol';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { usePostgres } from './support/use-postgres.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';
import { Browser, oidcCli as cliOf, signInJourney, type Login, type SignInJourney } from './sign-in-journey.ts';
import { terminateCurve } from './support/terminate-curve.ts';

/**
 * Sign in with ZeroID (decision 023), end to end against two real server processes on one real
 * PostgreSQL, driven by openid-client (every check on, ID token signatures included) with real proofs.
 * The browser journey itself is e2e/tests/sign-in-with-zeroid.spec.ts.
 */
const REDIRECT_A = 'http://localhost:3001/callback';
const REDIRECT_B = 'http://localhost:3002/callback';
const BIO = 'sign in with zeroid: the left thumb';

const postgres = usePostgres();
let a: ServerProcess;
let b: ServerProcess;
let env: Record<string, string>;
let artifacts: Artifacts;
let siteA: client.Configuration;
let siteB: client.Configuration;
/** Extra environment for the CLI: the test's own certificate authority, for sector documents over https. */
let cliEnv: Record<string, string> = {};

const oidcCli = (...args: string[]) => cliOf({ ...env, ...cliEnv }, ...args);

beforeAll(async () => {
  const { privateKey } = await generateOprfKeyPair();
  env = { DATABASE_URL: postgres.url, OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url'), DATA_DIR: '/tmp/zeroid-unused' };
  a = await startServerProcess(env);
  // One issuer for both processes, as behind a load balancer: PUBLIC_URL, here A's address.
  env.PUBLIC_URL = a.url;
  b = await startServerProcess(env);
  artifacts = await Artifacts.load();
  journey = signInJourney(a.url, artifacts);
  const confidential = await oidcCli('add-client', '--id', 'site-a', '--redirect-uri', REDIRECT_A, '--name', 'Site A');
  expect(confidential.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const publicClient = await oidcCli('add-client', '--id', 'site-b', '--redirect-uri', REDIRECT_B, '--public');
  expect(publicClient).not.toHaveProperty('client_secret');
  const discover = { execute: [client.allowInsecureRequests] };
  siteA = await client.discovery(new URL(a.url), 'site-a', confidential.client_secret, undefined, discover);
  siteB = await client.discovery(new URL(a.url), 'site-b', undefined, client.None(), discover);
  for (const config of [siteA, siteB]) client.enableNonRepudiationChecks(config);
  expect((await new ZkTestClient(viaHttp(a.url), artifacts).register('SIGN-IN-1', BIO)).json()).toMatchObject({
    'DID already generated': false,
  });
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await terminateCurve();
});

/** The discovered metadata, as plain JSON (without the helper methods of `serverMetadata()`). */
const metadataOf = (config: client.Configuration) => JSON.parse(JSON.stringify(config.serverMetadata())) as client.ServerMetadata;

let journey: SignInJourney;
const startLogin = (config: client.Configuration, redirectUri: string, server = a, extra: Record<string, string> = {}) =>
  journey.startLogin(config, redirectUri, { server: server.url, extra });
const prove = (bio: string, scope: string, message: string) => journey.prove(bio, scope, message);
const finish = (login: Login, proof: SemaphoreProof | 'cancel', challenge?: string) => journey.finish(login, proof, challenge);
const provedLogin = (login: Login) => journey.provedLogin(login, BIO);

/** Only what OpenID Connect needs: no DID, no commitment, nothing else about the person. */
const ID_TOKEN_CLAIMS = ['aud', 'exp', 'iat', 'iss', 'nonce', 'sub'];

describe('Sign in with ZeroID', () => {
  let subAtA: string;

  it('signs a registered person in at a site with sub = their nullifier for that site, in an ID token openid-client validates', async () => {
    const login = await startLogin(siteA, REDIRECT_A);
    expect(login.details.site).toEqual({ name: 'Site A', host: 'localhost:3001' });
    expect(login.details.scope).toBe(signInScope('site-a'));
    const proof = await prove(BIO, login.details.scope, signInMessage(login.details.challenge, login.uid));
    const back = await finish(login, proof);
    expect(back.origin + back.pathname).toBe(REDIRECT_A);
    const tokens = await client.authorizationCodeGrant(siteA, back, login.checks);
    const claims = tokens.claims()!;
    expect(claims.iss).toBe(a.url);
    expect(claims.aud).toBe('site-a');
    expect(Buffer.from(claims.sub, 'base64url').toString('hex')).toBe(BigInt(proof.nullifier).toString(16).padStart(64, '0'));
    // auth_time is optional in the token (the provider adds it when asked for max_age).
    expect(
      Object.keys(claims)
        .filter((claim) => claim !== 'auth_time')
        .sort(),
    ).toEqual(ID_TOKEN_CLAIMS);
    subAtA = claims.sub;
    // The code works once.
    await expect(client.authorizationCodeGrant(siteA, back, login.checks)).rejects.toMatchObject({ error: 'invalid_grant' });
  }, 60_000);

  it('gives the same person the same sub at the same site, exchanged on the other process; a wrong redirect_uri and a missing PKCE verifier are refused', async () => {
    const login = await startLogin(siteA, REDIRECT_A, a);
    const back = await provedLogin(login);
    const wrongRedirect = new URL(back.href.replace('/callback', '/elsewhere'));
    await expect(client.authorizationCodeGrant(siteA, wrongRedirect, login.checks)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(client.authorizationCodeGrant(siteA, back, { ...login.checks, pkceCodeVerifier: undefined })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(
      client.authorizationCodeGrant(siteA, back, { ...login.checks, pkceCodeVerifier: client.randomPKCECodeVerifier() }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    // Log in on A, exchange the code on B: one database, one set of keys.
    const onB = new client.Configuration({ ...metadataOf(siteA), token_endpoint: `${b.url}/oidc/token` }, 'site-a', siteA.clientMetadata());
    client.allowInsecureRequests(onB);
    client.enableNonRepudiationChecks(onB);
    const tokens = await client.authorizationCodeGrant(onB, back, login.checks);
    expect(tokens.claims()!.sub).toBe(subAtA);
  }, 60_000);

  it('gives the same person another, unlinkable sub at another site (a public client)', async () => {
    const login = await startLogin(siteB, REDIRECT_B, b);
    expect(login.details.scope).toBe(signInScope('site-b'));
    const tokens = await client.authorizationCodeGrant(siteB, await provedLogin(login), login.checks);
    expect(tokens.claims()!.sub).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokens.claims()!.sub).not.toBe(subAtA);
  }, 60_000);

  it('delivers the code by response_mode=form_post to the registered redirect URI, whose origin alone the page may post to', async () => {
    const login = await startLogin(siteA, REDIRECT_A, b, { response_mode: 'form_post' });
    const proof = await prove(BIO, login.details.scope, signInMessage(login.details.challenge, login.uid));
    const reply = await login.browser.fetch(`${b.url}/signin/${login.uid}/proof`, {
      method: 'POST',
      body: { proof, challenge: login.details.challenge },
    });
    const { redirectTo } = (await reply.json()) as { redirectTo: string };
    const page = await login.browser.fetch(redirectTo.replace(a.url, b.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = page.headers.get('content-security-policy') ?? '';
    // The browser may post this form to the site's origin, and nowhere else; its inline script is allowed by hash.
    expect(
      policy
        .split(';')
        .find((directive) => directive.trim().startsWith('form-action'))
        ?.trim(),
    ).toBe("form-action 'self' http://localhost:3001");
    expect(policy).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/]+=*'/);
    const html = await page.text();
    expect(/<form method="post" action="([^"]+)">/.exec(html)?.[1]).toBe(REDIRECT_A);
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)"\/>/g)].map((m): [string, string] => [m[1]!, m[2]!]),
    );
    expect(Object.keys(fields).sort()).toEqual(['code', 'iss', 'state']);
    expect(fields.iss).toBe(a.url);
    // What the site receives: a POST to its callback, which openid-client reads and exchanges.
    const callback = new Request(REDIRECT_A, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
    const tokens = await client.authorizationCodeGrant(siteA, callback, login.checks);
    expect(tokens.claims()!.sub).toBe(subAtA);
  }, 60_000);

  it('keeps a sign-in waiting after a refused proof (for another site, replayed, on a consumed challenge) or a reported unregistered biometric, each time with a fresh challenge; a right proof then signs the person in, and Cancel sends access_denied', async () => {
    /** One try at the sign-in screen: the reply, which is another try's challenge when it did not sign the person in. */
    const tryAt = async (login: Login, attempt: { proof: SemaphoreProof; challenge: string } | 'not registered') => {
      const reply =
        attempt === 'not registered'
          ? await login.browser.fetch(`${a.url}/signin/${login.uid}/failure`, { method: 'POST' })
          : await login.browser.fetch(`${a.url}/signin/${login.uid}/proof`, { method: 'POST', body: attempt });
      expect(reply.status).toBe(200);
      return (await reply.json()) as { result?: string; challenge: string; expiresAt: string; redirectTo?: string };
    };

    // A good proof, used at one sign-in, to replay at the next.
    const first = await startLogin(siteA, REDIRECT_A);
    const used = await prove(BIO, first.details.scope, signInMessage(first.details.challenge, first.uid));
    expect((await client.authorizationCodeGrant(siteA, await finish(first, used), first.checks)).claims()!.sub).toBe(subAtA);

    const login = await startLogin(siteA, REDIRECT_A);
    const challenges = [login.details.challenge];
    const refused = [
      // Replayed from the first sign-in, with its own (consumed) challenge.
      { proof: used, challenge: first.details.challenge },
      // Bound to this sign-in, but on the consumed challenge.
      {
        proof: await prove(BIO, login.details.scope, signInMessage(first.details.challenge, login.uid)),
        challenge: first.details.challenge,
      },
      // Made for site B's scope.
      {
        proof: await prove(BIO, signInScope('site-b'), signInMessage(login.details.challenge, login.uid)),
        challenge: login.details.challenge,
      },
    ] as const;
    for (const attempt of [...refused, 'not registered'] as const) {
      const again = await tryAt(login, attempt);
      expect(again).toEqual({ result: 'Failure', challenge: expect.stringMatching(/^[1-9][0-9]*$/), expiresAt: expect.any(String) });
      expect(challenges).not.toContain(again.challenge);
      challenges.push(again.challenge);
    }
    // The person, on the same screen, with the last challenge: signed in, with the same pseudonym.
    const latest = challenges.at(-1)!;
    const right = await prove(BIO, login.details.scope, signInMessage(latest, login.uid));
    const tokens = await client.authorizationCodeGrant(siteA, await finish(login, right, latest), login.checks);
    expect(tokens.claims()!.sub).toBe(subAtA);

    // Cancel (or a screen whose tries ran out): access_denied at the site.
    const cancelled = await startLogin(siteA, REDIRECT_A);
    expect(await tryAt(cancelled, 'not registered')).toMatchObject({ result: 'Failure' });
    await expect(client.authorizationCodeGrant(siteA, await finish(cancelled, 'cancel'), cancelled.checks)).rejects.toMatchObject({
      error: 'access_denied',
    });
  }, 90_000);

  it('refuses an authorization request without PKCE, and one for a redirect_uri the site did not register', async () => {
    const browser = new Browser();
    const noPkce = client.buildAuthorizationUrl(siteB, { redirect_uri: REDIRECT_B, scope: 'openid', state: 's' });
    const refused = new URL((await browser.fetch(noPkce.href)).headers.get('location')!);
    expect(refused.origin + refused.pathname).toBe(REDIRECT_B);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    const foreignRedirect = client.buildAuthorizationUrl(siteA, {
      redirect_uri: 'http://localhost:3666/callback',
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const page = await browser.fetch(foreignRedirect.href);
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
  });

  it('signs in on a phone through a QR session of the sign-in screen: the phone names the site, a proof for another sector is refused, the right one gives the same sub', async () => {
    /** The phone: no cookie, only the session id of the QR link. */
    const phone = (session: string) => ({
      open: async () => (await fetch(`${a.url}/sessions/${session}/open`)).json() as Promise<Record<string, unknown>>,
      details: async () =>
        (await fetch(`${b.url}/sessions/${session}/sign-in`)).json() as Promise<{ scope: string; challenge: string; uid: string }>,
      send: async (proof: SemaphoreProof, challenge: string) =>
        fetch(`${b.url}/sessions/${session}/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ proof, challenge }),
        }),
    });
    /** The screen: opens the session, then finishes the login once the phone is done. */
    const onPhone = async (login: Login) => {
      const created = await login.browser.fetch(`${a.url}/signin/${login.uid}/sessions`, { method: 'POST' });
      expect(created.status).toBe(200);
      const { session, secret } = (await created.json()) as { session: string; secret: string };
      const finish = (code?: string, withSecret = secret) =>
        fetch(`${a.url}/signin/${login.uid}/sessions/${session}/finish`, {
          method: 'POST',
          headers: {
            cookie: login.browser.cookieFor(`${a.url}/signin/${login.uid}/sessions`),
            'session-secret': withSecret,
            'content-type': 'application/json',
          },
          body: JSON.stringify(code === undefined ? {} : { code }),
        });
      return { session, finish, phone: phone(session) };
    };
    const followBack = async (login: Login, reply: Response) => {
      expect(reply.status).toBe(200);
      const { redirectTo } = (await reply.json()) as { redirectTo: string };
      const back = await login.browser.fetch(redirectTo);
      expect(back.status).toBe(303);
      return new URL(back.headers.get('location')!);
    };

    // A proof for site B's sector, made on the phone for site A's sign-in: refused, and A gets access_denied.
    const foreign = await startLogin(siteA, REDIRECT_A);
    const first = await onPhone(foreign);
    expect(await first.phone.open()).toMatchObject({ open: true, signIn: { site: { name: 'Site A', host: 'localhost:3001' } } });
    expect((await first.finish()).status).toBe(409);
    const forB = await first.phone.details();
    expect(forB.scope).toBe(signInScope('site-a'));
    expect(forB.uid).toBe(foreign.uid);
    const proofForB = await prove(BIO, signInScope('site-b'), signInMessage(forB.challenge, forB.uid));
    expect(await (await first.phone.send(proofForB, forB.challenge)).json()).toEqual({ session: first.session, result: 'Failure' });
    await expect(
      client.authorizationCodeGrant(siteA, await followBack(foreign, await first.finish()), foreign.checks),
    ).rejects.toMatchObject({
      error: 'access_denied',
    });

    // The right proof: the screen finishes with the same sub as a sign-in on the screen itself.
    const login = await startLogin(siteA, REDIRECT_A);
    const second = await onPhone(login);
    const details = await second.phone.details();
    const proof = await prove(BIO, details.scope, signInMessage(details.challenge, details.uid));
    // A plain verification cannot complete a sign-in's session.
    const plain = await fetch(`${a.url}/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ proof, session: second.session }),
    });
    expect(await plain.json()).toEqual({ [VERIFICATION_RESULT]: 'Failure' });
    const proved = (await (await second.phone.send(proof, details.challenge)).json()) as { confirmationCode: string };
    expect(proved).toEqual({ session: second.session, result: 'Success', confirmationCode: expect.stringMatching(/^[0-9]{6}$/) });
    // Replayed on the phone: the session has completed and the request has its answer.
    expect((await second.phone.send(proof, details.challenge)).status).toBe(404);
    // The screen finishes only with the secret, and with the code the phone shows (decision 035).
    expect((await second.finish(proved.confirmationCode, 'not-the-secret-not-the-secret-not-the-secre')).status).toBe(403);
    expect(await (await second.finish()).json()).toMatchObject({ error: { code: 'CONFIRMATION_CODE_REQUIRED' } });
    const wrong = proved.confirmationCode === '000000' ? '000001' : '000000';
    expect(await (await second.finish(wrong)).json()).toMatchObject({ error: { code: 'CONFIRMATION_CODE_WRONG' } });
    const tokens = await client.authorizationCodeGrant(
      siteA,
      await followBack(login, await second.finish(proved.confirmationCode)),
      login.checks,
    );
    expect(tokens.claims()!.sub).toBe(subAtA);
    expect(Buffer.from(tokens.claims()!.sub, 'base64url').toString('hex')).toBe(BigInt(proof.nullifier).toString(16).padStart(64, '0'));
  }, 90_000);

  describe('with a sector_identifier_uri', () => {
    const REDIRECT_C = 'http://localhost:3003/callback';
    const REDIRECT_D = 'http://localhost:3004/callback';
    const REDIRECT_E = 'http://localhost:3005/callback';
    let tls: string;
    let sectorServer: ReturnType<typeof createServer>;
    let sectorBase: string;

    beforeAll(async () => {
      // A real https server with a certificate of our own making, which only the CLI's process trusts.
      tls = await mkdtemp(path.join(os.tmpdir(), 'zeroid-sector-'));
      await promisify(execFile)('openssl', [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        path.join(tls, 'key.pem'),
        '-out',
        path.join(tls, 'cert.pem'),
      ]);
      const documents: Record<string, unknown> = {
        '/sector.json': [REDIRECT_C, REDIRECT_D],
        // Another owner's document on the same host, at another path, listing only their own client.
        '/~another/sector.json': [REDIRECT_E],
        '/missing-one.json': [REDIRECT_C],
        '/not-an-array.json': { redirect_uris: [REDIRECT_C] },
      };
      sectorServer = createServer(
        { key: await readFile(path.join(tls, 'key.pem')), cert: await readFile(path.join(tls, 'cert.pem')) },
        (request, response) => {
          const document = documents[request.url ?? ''];
          response.writeHead(document === undefined ? 404 : 200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(document ?? {}));
        },
      );
      await new Promise<void>((resolve) => sectorServer.listen(0, '127.0.0.1', resolve));
      sectorBase = `https://localhost:${(sectorServer.address() as AddressInfo).port}`;
      cliEnv = { NODE_EXTRA_CA_CERTS: path.join(tls, 'cert.pem') };
    });

    afterAll(async () => {
      cliEnv = {};
      await new Promise((resolve) => sectorServer?.close(resolve));
      await rm(tls, { recursive: true, force: true });
    });

    /** What `add-client --id site-x` says when given this redirect URI and sector document ('accepted' if it was). */
    const refusal = (redirectUri: string, sectorIdentifierUri: string) =>
      oidcCli('add-client', '--id', 'site-x', '--redirect-uri', redirectUri, '--sector-identifier-uri', sectorIdentifierUri).then(
        () => 'accepted',
        (error: { stderr: string }) => error.stderr,
      );

    it('refuses a client whose sector document does not list its redirect URIs, is not a JSON array, is missing or is not https', async () => {
      expect(await refusal(REDIRECT_D, `${sectorBase}/missing-one.json`)).toContain(`does not list "${REDIRECT_D}"`);
      expect(await refusal(REDIRECT_C, `${sectorBase}/not-an-array.json`)).toContain('must be a JSON array');
      expect(await refusal(REDIRECT_C, `${sectorBase}/nothing.json`)).toContain('answered 404');
      expect(await refusal(REDIRECT_C, 'http://localhost:1/sector.json')).toContain('must be https');
      expect(JSON.stringify(await oidcCli('list-client'))).not.toContain('site-x');
    });

    it('gives two clients of one sector document the same sub for the same person, and another one to a client of another document on the same host', async () => {
      const subs: string[] = [];
      for (const [id, redirect, document] of [
        ['site-c', REDIRECT_C, '/sector.json'],
        ['site-d', REDIRECT_D, '/sector.json'],
        ['site-e', REDIRECT_E, '/~another/sector.json'],
      ] as const) {
        const added = await oidcCli(
          'add-client',
          '--id',
          id,
          '--redirect-uri',
          redirect,
          '--public',
          '--sector-identifier-uri',
          `${sectorBase}${document}`,
          // The document's first client holds its sector; another joins only when named (decision 049).
          ...(id === 'site-d' ? ['--join-sector-of', 'site-c'] : []),
        );
        expect(added.sector_identifier_uri).toBe(`${sectorBase}${document}`);
        const config = await client.discovery(new URL(a.url), id, undefined, client.None(), { execute: [client.allowInsecureRequests] });
        client.enableNonRepudiationChecks(config);
        const login = await startLogin(config, redirect, id === 'site-c' ? a : b);
        expect(login.details.scope).toBe(signInSectorUriScope(`${sectorBase}${document}`));
        subs.push((await client.authorizationCodeGrant(config, await provedLogin(login), login.checks)).claims()!.sub);
      }
      expect(subs[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(subs[1]).toBe(subs[0]);
      // Same host, another document: another sector (decision 038; under decision 029 it was the same).
      expect(subs[2]).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(subs[2]).not.toBe(subs[0]);
      expect(subs[0]).not.toBe(subAtA);

      // Whoever controls the document later (or once its clients are removed) cannot hand the sector to a
      // newcomer: a client not naming the holder is refused, and a query cannot make another sector of it.
      expect(await refusal(REDIRECT_D, `${sectorBase}/sector.json`)).toContain('belongs to the client "site-c"');
      expect(await refusal(REDIRECT_C, `${sectorBase}/sector.json?again`)).toContain('must not have a query');
      expect(JSON.stringify(await oidcCli('list-client'))).not.toContain('site-x');
    }, 90_000);
  });
});
