import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { generateOprfKeyPair, nullifierSubject, signInScope, signInSubject } from '@zeroid/protocol';
import * as client from 'openid-client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { purgeExpired } from '../src/jobs/purge-expired.ts';
import { openStorage } from '../src/storage/open-storage.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { addClient, addPublicClient, Browser, discoverSite, oidcCli, signInJourney, type SignInJourney } from './sign-in-journey.ts';
import { FLOODED_CLIENT, floodFromOneAddress } from './authorization-flood.ts';
import { everyRow, type DatabaseAt } from './every-row.ts';
import { viaHttp, ZkTestClient, type ProvingIdentity } from './zk-client.ts';
import { v3ErasureBody } from './identity-v3.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';
import { usePostgres } from './support/use-postgres.ts';
import { terminateCurve } from './support/terminate-curve.ts';

/**
 * Sign in with ZeroID at many sites from one browser, with nothing linkable at rest (decision
 * 036), driven by openid-client against real server processes: two on one PostgreSQL (a
 * request may reach either), and one on SQLite. After each sequence every row of every table is read.
 */
const REDIRECT_A = 'http://localhost:3021/callback';
const LOGGED_OUT_A = 'http://localhost:3021/signed-out';
const REDIRECT_B = 'http://localhost:3022/callback';
const PEOPLE = {
  first: { id: 'MANY-SITES-1', bio: 'many sites: the first thumb' },
  second: { id: 'MANY-SITES-2', bio: 'many sites: the second thumb' },
  third: { id: 'MANY-SITES-3', bio: 'many sites: the third thumb' },
};

/** Every spelling of a pseudonym a row could hold: the sub, the nullifier in decimal and in hex. */
const spellings = (sub: string) => {
  const hex = Buffer.from(sub, 'base64url').toString('hex');
  return [sub, hex, BigInt(`0x${hex}`).toString()];
};
const names = (row: string, sub: string) => spellings(sub).some((spelling) => row.includes(spelling));

describe.each(['postgres', 'sqlite'] as const)('Sign in with ZeroID at many sites, on %s', (dialect) => {
  // Only the PostgreSQL pass starts one; the SQLite pass has none.
  const postgres = dialect === 'postgres' ? usePostgres() : undefined;
  let dataDir: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let env: Record<string, string>;
  let database: DatabaseAt;
  let artifacts: Artifacts;
  let journey: SignInJourney;
  let siteA: client.Configuration;
  let siteB: client.Configuration;
  const identities = new Map<string, ProvingIdentity>();
  const subject = (person: keyof typeof PEOPLE, clientId: string) =>
    signInSubject(signInScope(clientId), identities.get(person)!.secretScalar);
  const rows = () => everyRow(database);
  /** Which files of the SQLite database hold which of these pseudonyms, in any byte (decision 049). */
  const filesNaming = (subs: string[]) =>
    readdirSync(dataDir)
      .filter((name) => name.startsWith('zeroid.sqlite'))
      .flatMap((name) => subs.filter((sub) => readFileSync(path.join(dataDir, name)).includes(sub)).map((sub) => `${name}: ${sub}`));
  /** When PostgreSQL last vacuumed a table by request (epoch ms; 0 if never). */
  const lastVacuumed = async (table: string) => {
    const pgClient = new pg.Client({ connectionString: postgres!.url });
    await pgClient.connect();
    try {
      const { rows: found } = await pgClient.query<{ at: Date | null }>(
        'SELECT last_vacuum AS at FROM pg_stat_user_tables WHERE relname = $1',
        [table],
      );
      return found[0]?.at?.getTime() ?? 0;
    } finally {
      await pgClient.end();
    }
  };

  beforeAll(async () => {
    dataDir = tempDir(`zeroid-many-sites-${dialect}-`);
    if (postgres) {
      const { privateKey } = await generateOprfKeyPair();
      env = { DATABASE_URL: postgres.url, OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url'), DATA_DIR: dataDir };
      database = { databaseUrl: postgres.url };
      a = await startServerProcess(env, { readyTimeoutMs: 120_000 });
      // One issuer for both processes, as behind a load balancer: PUBLIC_URL, here A's address.
      env.PUBLIC_URL = a.url;
      // B takes the default per-client limit and the client's address from a proxy (the flood test);
      // the journeys reach it from 127.0.0.1, a client of their own, well within the limit.
      b = await startServerProcess({ ...env, RATE_LIMIT_PER_MINUTE: '60', TRUST_PROXY: 'true' }, { readyTimeoutMs: 120_000 });
    } else {
      env = { DATA_DIR: dataDir };
      database = { dataDir };
      a = b = await startServerProcess(env);
    }
    artifacts = await Artifacts.load();
    journey = signInJourney(a.url, artifacts);
    const storage = { dataDir, databaseUrl: postgres?.url };
    const { client_secret: secret } = await addClient(storage, {
      id: 'site-a',
      redirectUris: [REDIRECT_A],
      postLogoutRedirectUris: [LOGGED_OUT_A],
      public: false,
    });
    await addPublicClient(storage, 'site-b', REDIRECT_B);
    siteA = await discoverSite(a.url, 'site-a', secret);
    siteB = await discoverSite(a.url, 'site-b');
    const zk = new ZkTestClient(viaHttp(a.url), artifacts);
    for (const [person, { id, bio }] of Object.entries(PEOPLE)) {
      expect((await zk.register(id, bio)).json()).toMatchObject({ 'DID already generated': false });
      identities.set(person, await zk.identityOf(bio));
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b === a ? undefined : b?.stop()]);
    removeTempDirs();
    await terminateCurve();
  });

  /** Tokens of the sequence, for userinfo and logout later. */
  type Tokens = Awaited<ReturnType<SignInJourney['signIn']>>;
  const tokens: Record<string, Tokens> = {};

  it("signs one browser in at A, then B, then A again, each with that site's own sub and no logout step; a second person at A gets their own", async () => {
    const browser = new Browser();
    // Every authorization request reaches ZeroID's sign-in screen (the journey checks the 303 to
    // /signin/:uid), never a logout page, whichever process serves it.
    tokens.firstAtA = await journey.signIn(siteA, REDIRECT_A, PEOPLE.first.bio, { browser, server: a.url });
    tokens.firstAtB = await journey.signIn(siteB, REDIRECT_B, PEOPLE.first.bio, { browser, server: b.url });
    tokens.firstAtAAgain = await journey.signIn(siteA, REDIRECT_A, PEOPLE.first.bio, { browser, server: b.url });
    tokens.secondAtA = await journey.signIn(siteA, REDIRECT_A, PEOPLE.second.bio, { browser, server: a.url });
    expect(tokens.firstAtA.claims()!.sub).toBe(subject('first', 'site-a'));
    expect(tokens.firstAtB.claims()!.sub).toBe(subject('first', 'site-b'));
    expect(tokens.firstAtAAgain.claims()!.sub).toBe(subject('first', 'site-a'));
    expect(tokens.secondAtA.claims()!.sub).toBe(subject('second', 'site-a'));
    expect(new Set([subject('first', 'site-a'), subject('first', 'site-b'), subject('second', 'site-a')]).size).toBe(3);
    // The browser keeps no login at ZeroID between sign-ins.
    expect(browser.cookies.map((c) => c.name)).not.toContain('zeroid_oidc_session');
  }, 90_000);

  it('answers prompt=none with login_required, and prompt=login with max_age with a fresh proof and its auth_time', async () => {
    const browser = new Browser();
    const silent = client.buildAuthorizationUrl(siteA, {
      redirect_uri: REDIRECT_A,
      scope: 'openid',
      prompt: 'none',
      state: 'silent',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    await journey.signIn(siteA, REDIRECT_A, PEOPLE.first.bio, { browser });
    const answer = new URL((await browser.fetch(silent.href)).headers.get('location')!);
    expect(answer.origin + answer.pathname).toBe(REDIRECT_A);
    expect(Object.fromEntries(answer.searchParams)).toMatchObject({ error: 'login_required', state: 'silent' });

    const before = Math.floor(Date.now() / 1000);
    const login = await journey.startLogin(siteA, REDIRECT_A, { browser, server: b.url, extra: { prompt: 'login', max_age: '60' } });
    const fresh = await client.authorizationCodeGrant(siteA, await journey.provedLogin(login, PEOPLE.first.bio), {
      ...login.checks,
      maxAge: 60,
    });
    expect(fresh.claims()!.auth_time).toBeGreaterThanOrEqual(before - 1);
    expect(fresh.claims()!.auth_time).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  }, 60_000);

  it("logs out at A as RP-Initiated Logout 1.0 says: back to A's registered URI with its state, A's tokens for that person revoked, B's kept", async () => {
    const userinfo = (config: client.Configuration, token: Tokens) =>
      client.fetchUserInfo(config, token.access_token, token.claims()!.sub).then(
        (info) => info.sub,
        (error: { status?: number; cause?: unknown }) =>
          `refused ${String((error.cause as { status?: number } | undefined)?.status ?? error.status)}`,
      );
    expect(await userinfo(siteA, tokens.firstAtAAgain!)).toBe(subject('first', 'site-a'));
    const browser = new Browser();
    const logout = client.buildEndSessionUrl(siteA, {
      id_token_hint: tokens.firstAtA!.id_token!,
      post_logout_redirect_uri: LOGGED_OUT_A,
      state: 'bye',
    });
    // ZeroID holds no login to end, so it asks nothing: its page posts the confirmation by itself.
    const page = await browser.fetch(logout.href.replace(a.url, b.url));
    expect(page.status).toBe(200);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
    // Its form posts to ZeroID, whose answer redirects to A: browsers apply form-action to that redirect.
    expect(
      policy
        .split(';')
        .find((directive) => directive.trim().startsWith('form-action'))
        ?.trim(),
    ).toBe("form-action 'self' http://localhost:3021");
    const html = await page.text();
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    // The request alone revokes nothing (decision 047): a link preview or an <img> sends it too.
    expect(await userinfo(siteA, tokens.firstAtAAgain!)).toBe(subject('first', 'site-a'));
    expect(/<form method="post" action="([^"]+)">/.exec(html)?.[1]).toBe(`${a.url}/oidc/session/end/confirm`);
    const confirmed = await browser.fetch(`${a.url}/oidc/session/end/confirm`, { method: 'POST', form: { xsrf: xsrf!, logout: 'yes' } });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${LOGGED_OUT_A}?state=bye`);
    expect(await userinfo(siteA, tokens.firstAtAAgain!)).toBe('refused 401');
    expect(await userinfo(siteB, tokens.firstAtB!)).toBe(subject('first', 'site-b'));
    expect(await userinfo(siteA, tokens.secondAtA!)).toBe(subject('second', 'site-a'));
    // The confirmation is accepted once: a replay of its form ends nowhere else.
    const replayed = await browser.fetch(`${a.url}/oidc/session/end/confirm`, { method: 'POST', form: { xsrf: xsrf!, logout: 'yes' } });
    expect(replayed.status).toBe(400);

    // The same request POSTed as a form (RP-Initiated Logout 1.0 §2): the same page, revoking nothing until confirmed.
    const thirdAtA = await journey.signIn(siteA, REDIRECT_A, PEOPLE.third.bio);
    const postedBrowser = new Browser();
    const postedPage = await postedBrowser.fetch(`${b.url}/oidc/session/end`, {
      method: 'POST',
      form: { id_token_hint: thirdAtA.id_token!, post_logout_redirect_uri: LOGGED_OUT_A, state: 'posted' },
    });
    expect(postedPage.status).toBe(200);
    const postedXsrf = /name="xsrf" value="([^"]+)"/.exec(await postedPage.text())?.[1];
    expect(await userinfo(siteA, thirdAtA)).toBe(subject('third', 'site-a'));
    const postedConfirm = await postedBrowser.fetch(`${a.url}/oidc/session/end/confirm`, {
      method: 'POST',
      form: { xsrf: postedXsrf!, logout: 'yes' },
    });
    expect(postedConfirm.headers.get('location')).toBe(`${LOGGED_OUT_A}?state=posted`);
    expect(await userinfo(siteA, thirdAtA)).toBe('refused 401');
    expect(await userinfo(siteA, tokens.secondAtA!)).toBe(subject('second', 'site-a'));

    // A post_logout_redirect_uri A did not register is refused on ZeroID's page, never followed.
    const elsewhere = client.buildEndSessionUrl(siteA, {
      id_token_hint: tokens.firstAtA!.id_token!,
      post_logout_redirect_uri: 'http://localhost:3666/x',
    });
    const refused = await new Browser().fetch(elsewhere.href);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    expect(await refused.text()).toContain('post_logout_redirect_uri not registered');
  }, 60_000);

  it('publishes exactly what it does, cacheable, with keys a copy of the database cannot sign with', async () => {
    const discovery = await fetch(`${b.url}/.well-known/openid-configuration`);
    expect(discovery.headers.get('cache-control')).toBe('public, max-age=300');
    const metadata = (await discovery.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: a.url,
      claims_supported: ['sub', 'iss', 'auth_time', 'credential_issuer', 'credential_issuer_name'],
      // Every sub is per sector, never one identifier for all sites (decision 049).
      subject_types_supported: ['pairwise'],
      // `credential`: which organisation vouches for the person, told only when proved (decision 088).
      scopes_supported: ['openid', 'credential'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      id_token_signing_alg_values_supported: ['ES256'],
      end_session_endpoint: `${a.url}/oidc/session/end`,
      claims_parameter_supported: false,
      request_uri_parameter_supported: false,
    });
    for (const absent of [
      'registration_endpoint',
      'revocation_endpoint',
      'introspection_endpoint',
      'token_endpoint_auth_signing_alg_values_supported',
    ]) {
      expect(metadata).not.toHaveProperty(absent);
    }
    // The authorization endpoint takes POST too (OpenID Connect Core §3.1.2.1, decision 047), read as its GET,
    // within the same limits; a body that is not a form is refused.
    const postedAuth = await fetch(`${a.url}/oidc/auth`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({
        client_id: 'site-b',
        redirect_uri: REDIRECT_B,
        response_type: 'code',
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }),
    });
    expect(postedAuth.status).toBe(303);
    expect(postedAuth.headers.get('location')).toMatch(/\/signin\/[A-Za-z0-9_-]+$/);
    expect((await fetch(`${a.url}/oidc/auth`, { method: 'POST', body: 'x'.repeat(5000) })).status).toBe(415);
    const hugePost = await fetch(`${a.url}/oidc/auth`, { method: 'POST', body: new URLSearchParams({ state: 'x'.repeat(5000) }) });
    expect(hugePost.status).toBe(413);

    const jwks = await fetch(`${b.url}/oidc/jwks`);
    expect(jwks.headers.get('cache-control')).toBe('public, max-age=60');
    const { keys } = (await jwks.json()) as { keys: Array<Record<string, string>> };
    expect(keys.every((key) => key.d === undefined)).toBe(true);
    // At rest every key is sealed: no row of the database holds a JWK, or a key in clear.
    const keyRows = (await rows()).filter((row) => row.table === 'oidc_keys');
    expect(keyRows.length).toBeGreaterThanOrEqual(2);
    for (const row of keyRows) expect(JSON.parse(row.text).secret).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect((await rows()).filter((row) => row.text.includes('"kty'))).toEqual([]);
  }, 90_000);

  // The command line writes the same repositories on either database (storage.contract.test.ts covers
  // removed clients on both); run once, on PostgreSQL, it is the operator's own path.
  if (dialect === 'postgres') {
    it("rotates twice in a minute without dropping the key that signs, and keeps a removed client's id, through the command line", async () => {
      // Two rotations within a minute: every key stays published, and the first still signs.
      const first = (await oidcCli(env, 'rotate-keys')).published as unknown as string[];
      const second = (await oidcCli(env, 'rotate-keys')).published as unknown as string[];
      expect(second).toHaveLength(3);
      expect(second).toEqual(expect.arrayContaining([...first, 'zeroid-oidc-1']));
      const signed = await journey.signIn(siteB, REDIRECT_B, PEOPLE.third.bio, { server: b.url });
      expect(JSON.parse(Buffer.from(signed.id_token!.split('.')[0]!, 'base64url').toString()).kid).toBe('zeroid-oidc-1');
      // A removed client's tokens stop working, and its id is not given to another site by accident.
      await oidcCli(env, 'add-client', '--id', 'site-gone', '--redirect-uri', 'http://localhost:3023/callback', '--public');
      const gone = await discoverSite(a.url, 'site-gone');
      const token = await journey.signIn(gone, 'http://localhost:3023/callback', PEOPLE.third.bio);
      await oidcCli(env, 'remove-client', '--id', 'site-gone');
      await expect(client.fetchUserInfo(gone, token.access_token, token.claims()!.sub)).rejects.toBeDefined();
      const readded = await oidcCli(env, 'add-client', '--id', 'site-gone', '--redirect-uri', 'http://localhost:3024/callback').then(
        () => 'accepted',
        (error: { stderr: string }) => error.stderr,
      );
      expect(readded).toContain('A client "site-gone" was removed on');
      expect(readded).toContain('would receive its pseudonyms');
      const reused = await oidcCli(
        env,
        'add-client',
        '--id',
        'site-gone',
        '--redirect-uri',
        'http://localhost:3024/callback',
        '--public',
        '--reuse-removed-id',
      );
      expect(reused.client_id).toBe('site-gone');
    }, 90_000);
  }

  if (dialect === 'postgres') {
    // The same flood as sign-in-flood.test.ts, which runs it on SQLite (decision 037).
    it('stores at most the per-client limit of interactions for one address flooding one process, and serves every other address', async () => {
      await addPublicClient({ dataDir, databaseUrl: postgres!.url }, FLOODED_CLIENT.id, FLOODED_CLIENT.redirectUri);
      await floodFromOneAddress(b.url, database, '198.51.100');
    }, 60_000);
  }

  it("keeps no row naming two of a person's pseudonyms, nor one site's pseudonym beside another site's client", async () => {
    const all = await rows();
    const first = { a: subject('first', 'site-a'), b: subject('first', 'site-b') };
    const second = subject('second', 'site-a');
    // The sign-ins above are still live (their grants and tokens): the scan reads them.
    expect(all.filter((row) => names(row.text, first.b)).length).toBeGreaterThan(0);
    const linking = all.filter(
      (row) =>
        [first.a, first.b, second].filter((sub) => names(row.text, sub)).length > 1 ||
        ((names(row.text, first.a) || names(row.text, second)) && row.text.includes('site-b')) ||
        (names(row.text, first.b) && row.text.includes('site-a')),
    );
    expect(linking.map((row) => `${row.table}: ${row.text.slice(0, 200)}`)).toEqual([]);
  });

  it("erases a person's every sign-in record and revokes their tokens at every site, by either kind of erasure", async () => {
    const zk = new ZkTestClient(viaHttp(b.url), artifacts);
    const firstAtA = await journey.signIn(siteA, REDIRECT_A, PEOPLE.first.bio);
    const firstAtB = await journey.signIn(siteB, REDIRECT_B, PEOPLE.first.bio);
    const thirdAtA = await journey.signIn(siteA, REDIRECT_A, PEOPLE.third.bio);
    const works = async (config: client.Configuration, token: typeof firstAtA) =>
      client.fetchUserInfo(config, token.access_token, token.claims()!.sub).then(
        () => true,
        () => false,
      );
    expect(await Promise.all([works(siteA, firstAtA), works(siteB, firstAtB), works(siteA, tokens.secondAtA!)])).toEqual([
      true,
      true,
      true,
    ]);

    // The zero-knowledge erasure of this v3 identity, as the web app sends it (decisions 048 and 059):
    // y_id, its own proof, the DID's signature, and a proof per sector in the group of its own
    // commitment, bound to its challenge. The secret is never sent.
    const { bio, id, registration } = await zk.deriveV3(PEOPLE.first.id, PEOPLE.first.bio);
    const challenge = await zk.challenge();
    const erase = (body: object) =>
      fetch(`${b.url}/erase`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
        async (r) => `${r.status} ${JSON.stringify(await r.json())}`,
      );
    const signInProofs = await zk.erasureProofs(identities.get('first')!, challenge);
    expect(signInProofs.map((proof) => nullifierSubject(proof.nullifier))).toEqual(
      expect.arrayContaining([subject('first', 'site-a'), subject('first', 'site-b')]),
    );
    const body = await v3ErasureBody({ ...registration, outputBio: bio.output, outputId: id.output }, challenge, [], { signInProofs });
    // The secret is refused outright; a sector left out, another person's proofs, or proofs of another
    // challenge are refused before anything is spent.
    expect(await erase({ ...body, secretScalar: registration.secretScalar.toString() })).toMatch(/^400 /);
    expect(await erase({ ...body, signInProofs: signInProofs.slice(1) })).toMatch(/^400 .*SIGN_IN_PROOFS_MISMATCH/);
    const thirds = await zk.erasureProofs(identities.get('third')!, challenge);
    expect(await erase({ ...body, signInProofs: thirds })).toMatch(/^400 .*SIGN_IN_PROOFS_MISMATCH/);
    const forged = signInProofs.map((proof) => ({ ...proof, nullifier: thirds[0]!.nullifier }));
    expect(await erase({ ...body, signInProofs: forged })).toMatch(/^400 .*INVALID_PROOF/);
    expect(await erase(body)).toBe('200 {"Erasure Result":"Success"}');
    expect(await Promise.all([works(siteA, firstAtA), works(siteB, firstAtB), works(siteA, thirdAtA)])).toEqual([false, false, true]);

    // The raw erasure (the specification's body): the server derives the secret itself.
    expect(await erase({ id_info: PEOPLE.second.id, bio_info: PEOPLE.second.bio })).toBe('200 {"Erasure Result":"Success"}');
    expect(await works(siteA, tokens.secondAtA!)).toBe(false);

    const erased = [subject('first', 'site-a'), subject('first', 'site-b'), subject('second', 'site-a')];
    const left = (await rows()).filter((row) => erased.some((sub) => names(row.text, sub)));
    expect(left.map((row) => `${row.table}: ${row.text.slice(0, 200)}`)).toEqual([]);
    if (dialect === 'sqlite') expect(filesNaming(erased)).toEqual([]);
    expect((await rows()).some((row) => names(row.text, subject('third', 'site-a')))).toBe(true);
  }, 150_000);

  it('keeps the sign-in history no longer than its lifetimes: the scheduled purge leaves no pseudonym behind', async () => {
    await journey.signIn(siteB, REDIRECT_B, PEOPLE.third.bio);
    const third = [subject('third', 'site-a'), subject('third', 'site-b')];
    const storage = await openStorage({ dataDir, ...database, poolSize: 1 });
    let purgedAt = 0;
    try {
      // Within their lifetimes the records stay (the site may still exchange or use them)…
      await purgeExpired(storage, { guessForgetMs: 86_400_000 });
      expect((await rows()).filter((row) => third.some((sub) => names(row.text, sub))).length).toBeGreaterThan(0);
      // …and once the longest of them (ten minutes) has passed, none is left.
      purgedAt = Date.now();
      await purgeExpired(storage, { guessForgetMs: 86_400_000 }, Date.now() + 11 * 60_000);
      // PostgreSQL's VACUUM runs a second after the purge, in the background of the storage that purged.
      if (dialect === 'postgres') await setTimeout(1_500);
    } finally {
      await storage.close();
    }
    expect((await rows()).filter((row) => third.some((sub) => names(row.text, sub))).map((row) => row.table)).toEqual([]);
    // Nor do their bytes (decision 049): on SQLite no file holds them (secure_delete, truncated WAL);
    // on PostgreSQL the purge's VACUUM ran.
    if (dialect === 'sqlite') expect(filesNaming(third)).toEqual([]);
    else expect(await lastVacuumed('oidc_models')).toBeGreaterThan(purgedAt);
  }, 60_000);
});
