import type { SemaphoreProof } from '@semaphore-protocol/proof';
import { generateOprfKeyPair, signInMessage, type WireCredentialSignInProof } from '@zeroid/protocol';
import { issuerPublicKey } from '@zeroid/protocol/credential';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { everyRow } from './every-row.ts';
import { freePort, startServerProcess, type ServerProcess } from './server-process.ts';
import { addClient, discoverSite, signInJourney, type Login, type SignInJourney } from './sign-in-journey.ts';
import { stopProcesses } from './support/stop-processes.ts';
import { tempDir } from './support/temp-dir.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';

/**
 * Sign in with ZeroID tells a site which organisation vouches for the person (decision 088), end to
 * end on a real server process (SQLite) with real proofs, driven by openid-client with every check on.
 */
const REDIRECT = 'http://localhost:3003/callback';
const PLAIN_BIO = 'credential sign-in: a plain identity';
const university = new Uint8Array(32).fill(1);
const stranger = new Uint8Array(32).fill(3);
const UNIVERSITY = 'Example University';

let server: ServerProcess;
let dataDir: string;
let env: Record<string, string>;
let site: client.Configuration;
let journey: SignInJourney;
let artifacts: Artifacts;
/** The server's port: it is started again at the same address, its issuer (PUBLIC_URL). */
let port: number;

beforeAll(async () => {
  const { privateKey } = await generateOprfKeyPair();
  dataDir = tempDir('zeroid-credential-sign-in-');
  env = {
    OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url'),
    DATA_DIR: dataDir,
    DERIVATION_THREADS: '1',
    PROOF_VERIFIER_THREADS: '1',
    LOG_LEVEL: 'trace',
    TRUSTED_ISSUERS: `${UNIVERSITY}=${issuerPublicKey(university)}`,
  };
  port = await freePort();
  env.PUBLIC_URL = `http://127.0.0.1:${port}`;
  server = await startServerProcess(env, { port });
  const metadata = await addClient({ dataDir }, { id: 'site-c', redirectUris: [REDIRECT], name: 'Site C', public: false });
  site = await discoverSite(server.url, 'site-c', metadata.client_secret);
  artifacts = await Artifacts.load();
  journey = signInJourney(server.url, artifacts);
  const zk = new ZkTestClient(viaHttp(server.url), artifacts);
  expect((await zk.register('PLAIN-1', PLAIN_BIO)).json()).toMatchObject({ 'DID already generated': false });
}, 180_000);

afterAll(async () => {
  await stopProcesses([server]);
});

const asking = { scope: 'openid credential' };

/** Posts the sign-in proof with a credential proof beside it; the raw reply. */
const postBoth = (login: Login, proof: SemaphoreProof, credentialProof: unknown) =>
  login.browser.fetch(`${login.server}/signin/${login.uid}/proof`, {
    method: 'POST',
    body: { proof, challenge: login.details.challenge, credentialProof },
  });

const proofFor = (login: Login, bio: string) => journey.prove(bio, login.details.scope, signInMessage(login.details.challenge, login.uid));

/** A well-formed credential proof that proves nothing: the shape a forger can always send. */
const forged = (overrides: Partial<WireCredentialSignInProof>): WireCredentialSignInProof => ({
  issuer: issuerPublicKey(university),
  merkleTreeRoot: '1',
  merkleTreeDepth: 1,
  nullifier: '1',
  points: ['1', '2', '3', '4', '5', '6', '7', '8'],
  ...overrides,
});

const credentialClaimsOf = (claims: Record<string, unknown>) => Object.keys(claims).filter((claim) => claim.startsWith('credential'));

describe('Sign in with ZeroID and a credential', () => {
  it('says in discovery that it supports the scope credential and its two claims', async () => {
    const metadata = site.serverMetadata();
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'credential']));
    expect(metadata.claims_supported).toEqual(expect.arrayContaining(['credential_issuer', 'credential_issuer_name']));
  });

  it('tells the sign-in screen whether the site asked for the credential', async () => {
    expect((await journey.startLogin(site, REDIRECT)).details).toMatchObject({ asksCredential: false });
    expect((await journey.startLogin(site, REDIRECT, { extra: asking })).details).toMatchObject({ asksCredential: true });
  });

  it('signs a person in without the claims when the site asked but no credential proof came', async () => {
    const login = await journey.startLogin(site, REDIRECT, { extra: asking });
    const tokens = await client.authorizationCodeGrant(site, await journey.provedLogin(login, PLAIN_BIO), login.checks);
    expect(credentialClaimsOf(tokens.claims()!)).toEqual([]);
    expect(tokens.scope ?? '').not.toContain('credential');
    const userinfo = await client.fetchUserInfo(site, tokens.access_token, tokens.claims()!.sub);
    expect(credentialClaimsOf(userinfo)).toEqual([]);
  }, 60_000);

  it('refuses with INVALID_CREDENTIAL_PROOF a credential proof of an untrusted issuer, of another person or against a foreign root, consuming nothing; the same proof then signs in without the claims', async () => {
    const login = await journey.startLogin(site, REDIRECT, { extra: asking });
    const proof = await proofFor(login, PLAIN_BIO);
    const rows = await everyRow({ dataDir });
    for (const credentialProof of [
      forged({ issuer: issuerPublicKey(stranger), nullifier: proof.nullifier }),
      forged({ nullifier: String(BigInt(proof.nullifier) + 1n) }),
      forged({ nullifier: proof.nullifier, merkleTreeRoot: '12345' }),
      forged({ nullifier: proof.nullifier, merkleTreeRoot: '0' }),
    ]) {
      const refused = await postBoth(login, proof, credentialProof);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('INVALID_CREDENTIAL_PROOF');
    }
    // Nothing was granted or consumed: the challenge still takes the sign-in proof.
    expect(await everyRow({ dataDir })).toEqual(rows);
    const tokens = await client.authorizationCodeGrant(site, await journey.finish(login, proof), login.checks);
    expect(credentialClaimsOf(tokens.claims()!)).toEqual([]);
  }, 60_000);

  it('ignores a credential proof the site did not ask for', async () => {
    const login = await journey.startLogin(site, REDIRECT);
    const proof = await proofFor(login, PLAIN_BIO);
    const reply = await postBoth(login, proof, forged({ issuer: issuerPublicKey(stranger) }));
    expect(reply.status).toBe(200);
    const { redirectTo } = (await reply.json()) as { redirectTo: string };
    const back = await login.browser.fetch(redirectTo);
    const tokens = await client.authorizationCodeGrant(site, new URL(back.headers.get('location')!), login.checks);
    expect(credentialClaimsOf(tokens.claims()!)).toEqual([]);
  }, 60_000);
});
