import type { SemaphoreProof } from '@semaphore-protocol/proof';
import {
  generateOprfKeyPair,
  memberBucket,
  proveSignInCredential,
  signInCredentialInput,
  signInMessage,
  type WireCredentialSignInProof,
} from '@zeroid/protocol';
import { credentialLeaf, issueCredential, issuerPublicKey } from '@zeroid/protocol/credential';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { everyRow } from './every-row.ts';
import { freePort, startServerProcess, type ServerProcess } from './server-process.ts';
import { addClient, discoverSite, signInJourney, type Login, type SignInJourney } from './sign-in-journey.ts';
import { postJson } from './support/post.ts';
import { stopProcesses } from './support/stop-processes.ts';
import { tempDir } from './support/temp-dir.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';

/**
 * Sign in with ZeroID tells a site which organisation vouches for the person (decision 088), end to
 * end on a real server process (SQLite) with real proofs, driven by openid-client with every check on:
 * credentials registered on the raw path (the server files their leaves), the credential proof made
 * with the protocol's own prover from the person's bucket of GET /credential-members.
 */
const REDIRECT = 'http://localhost:3003/callback';
const PLAIN_BIO = 'credential sign-in: a plain identity';
const university = new Uint8Array(32).fill(1);
const stranger = new Uint8Array(32).fill(3);
const employer = new Uint8Array(32).fill(2);
const UNIVERSITY = 'Example University';
/** Short, so a test can see a credential root leave the window. */
const ROOT_WINDOW_SECONDS = 3;

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
    TRUSTED_ISSUERS: `${UNIVERSITY}=${issuerPublicKey(university)}, ${issuerPublicKey(employer)}`,
    ROOT_WINDOW_SECONDS: String(ROOT_WINDOW_SECONDS),
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

const CRED_BIO = 'credential sign-in: the university student';
const OTHER_BIO = 'credential sign-in: another student';
const EMPLOYEE_BIO = 'credential sign-in: an employee';
const ERASED_BIO = 'credential sign-in: a student who leaves';
const credentials = {
  student: issueCredential(university, 'Student 0042 Jane Example'),
  other: issueCredential(university, 'Student 0043 John Example'),
  employee: issueCredential(employer, 'Employee 7'),
  leaving: issueCredential(university, 'Student 0044 Ann Example'),
};

/** The device's side: its credential leaf for `issuer`, found in its bucket, proven for this login. */
async function credentialProofFor(login: Login, bio: string, issuer: Uint8Array, path?: Awaited<ReturnType<typeof credentialPath>>) {
  const zk = new ZkTestClient(viaHttp(server.url), artifacts);
  const { secretScalar } = await zk.identityOf(bio);
  const found = path ?? (await credentialPath(bio, issuer));
  if (!found) throw new Error('the credential leaf is not in its bucket');
  const input = signInCredentialInput({
    secret: secretScalar,
    issuerPublicKey: issuerPublicKey(issuer),
    proofIndex: found.proofIndex,
    siblings: found.siblings,
    scope: login.details.scope,
    message: signInMessage(login.details.challenge, login.uid),
  });
  return proveSignInCredential(input, {
    wasm: artifacts.get('sign-in-credential.wasm')!.path,
    zkey: artifacts.get('sign-in-credential.zkey')!.path,
  });
}

/** The leaf of `bio`'s identity for `issuer` and its Merkle path, from GET /credential-members, or undefined. */
async function credentialPath(bio: string, issuer: Uint8Array) {
  const zk = new ZkTestClient(viaHttp(server.url), artifacts);
  const { secretScalar, commitment } = await zk.identityOf(bio);
  const leaf = credentialLeaf(issuerPublicKey(issuer), secretScalar);
  // The bucket is the commitment's, as GET /members is asked for: one request whatever the issuer.
  const { bucketHexChars } = (await (await fetch(`${server.url}/credential-members`)).json()) as { bucketHexChars: number };
  const bucket = memberBucket(commitment.toString(), bucketHexChars);
  const reply = (await (await fetch(`${server.url}/credential-members?bucket=${bucket}`)).json()) as {
    root: string;
    members: Array<{ leaf: string; proofIndex: number; siblings: string[] }>;
  };
  const member = reply.members.find((m) => m.leaf === leaf);
  return member && { ...member, root: reply.root };
}

const registerRaw = async (idInfo: string, bio: string) => {
  const reply = await postJson(server, '/register', { id_info: idInfo, bio_info: bio });
  expect(reply.body).toMatchObject({ 'DID already generated': false });
};

/** A whole sign-in asking for the credential, with `credentialProof` made by `make` once the login has started. */
async function signInProving(bio: string, make: (login: Login) => Promise<unknown>) {
  const login = await journey.startLogin(site, REDIRECT, { extra: asking });
  const proof = await proofFor(login, bio);
  const credentialProof = await make(login);
  const reply = await postBoth(login, proof, credentialProof);
  return { login, proof, credentialProof, reply };
}

async function tokensOf(login: Login, reply: Response) {
  expect(reply.status).toBe(200);
  const { redirectTo } = (await reply.json()) as { redirectTo: string };
  const back = await login.browser.fetch(redirectTo);
  return client.authorizationCodeGrant(site, new URL(back.headers.get('location')!), login.checks);
}

const refusal = async (reply: Response) => [reply.status, ((await reply.json()) as { error?: { code: string } }).error?.code];

describe('with credentials registered on the raw path', () => {
  let proven: { leaf: string; sub: string; credentialProof: unknown } | undefined;

  beforeAll(async () => {
    await registerRaw(credentials.student, CRED_BIO);
    await registerRaw(credentials.employee, EMPLOYEE_BIO);
    await registerRaw(credentials.leaving, ERASED_BIO);
  }, 120_000);

  it('tells the site the issuer, in the ID token and at userinfo, when the person proves their credential; the sub is the one it gets without asking', async () => {
    const { login, reply, credentialProof, proof } = await signInProving(CRED_BIO, (l) => credentialProofFor(l, CRED_BIO, university));
    const tokens = await tokensOf(login, reply);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ credential_issuer: issuerPublicKey(university), credential_issuer_name: UNIVERSITY });
    const userinfo = await client.fetchUserInfo(site, tokens.access_token, claims.sub);
    expect(userinfo).toMatchObject({ credential_issuer: issuerPublicKey(university), credential_issuer_name: UNIVERSITY });
    const plainLogin = await journey.startLogin(site, REDIRECT);
    const plain = await client.authorizationCodeGrant(site, await journey.provedLogin(plainLogin, CRED_BIO), plainLogin.checks);
    expect(plain.claims()!.sub).toBe(claims.sub);
    expect(credentialClaimsOf(plain.claims()!)).toEqual([]);
    proven = {
      leaf: credentialLeaf(
        issuerPublicKey(university),
        (await new ZkTestClient(viaHttp(server.url), artifacts).identityOf(CRED_BIO)).secretScalar,
      ),
      sub: claims.sub,
      credentialProof,
    };
    expect(proof.nullifier).toBe((credentialProof as { nullifier: string }).nullifier);
  }, 120_000);

  it('finds no leaf for a plain identity: it can prove no credential, and asking tells the site nothing', async () => {
    expect(await credentialPath(PLAIN_BIO, university)).toBeUndefined();
  }, 60_000);

  it('refuses a replayed credential proof, and one tied to another person’s sign-in proof, granting nothing', async () => {
    expect(proven).toBeDefined();
    const replayed = await signInProving(CRED_BIO, async () => proven!.credentialProof);
    expect(await refusal(replayed.reply)).toEqual([400, 'INVALID_CREDENTIAL_PROOF']);
    // A valid credential proof of the student, sent with the plain person's sign-in proof.
    const login = await journey.startLogin(site, REDIRECT, { extra: asking });
    const theirs = await credentialProofFor(login, CRED_BIO, university);
    const mine = await proofFor(login, PLAIN_BIO);
    expect(await refusal(await postBoth(login, mine, theirs))).toEqual([400, 'INVALID_CREDENTIAL_PROOF']);
    // A proof under another issuer's key than the leaf's has no witness; claimed for the student's nullifier with
    // the employer's key it does not verify.
    const forgedIssuer = { ...theirs, issuer: issuerPublicKey(employer) };
    const own = await proofFor(login, CRED_BIO);
    expect(await refusal(await postBoth(login, own, forgedIssuer))).toEqual([400, 'INVALID_CREDENTIAL_PROOF']);
    // Nothing was consumed: the student's own pair still signs in, with the claim.
    const tokens = await tokensOf(login, await postBoth(login, own, theirs));
    expect(tokens.claims()!.credential_issuer_name).toBe(UNIVERSITY);
  }, 180_000);

  it('tells the site through a sign-in proved on a phone', async () => {
    const login = await journey.startLogin(site, REDIRECT, { extra: asking });
    const created = await login.browser.fetch(`${server.url}/signin/${login.uid}/sessions`, { method: 'POST' });
    const { session, secret } = (await created.json()) as { session: string; secret: string };
    const details = (await (await fetch(`${server.url}/sessions/${session}/sign-in`)).json()) as Login['details'] & {
      uid: string;
      asksCredential: boolean;
    };
    expect(details.asksCredential).toBe(true);
    const onPhone = { ...login, details };
    const proof = await proofFor(onPhone, CRED_BIO);
    const credentialProof = await credentialProofFor(onPhone, CRED_BIO, university);
    const sent = await fetch(`${server.url}/sessions/${session}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ proof, challenge: details.challenge, credentialProof }),
    });
    const { confirmationCode } = (await sent.json()) as { confirmationCode: string };
    const finished = await fetch(`${server.url}/signin/${login.uid}/sessions/${session}/finish`, {
      method: 'POST',
      headers: {
        cookie: login.browser.cookieFor(`${server.url}/signin/${login.uid}/sessions`),
        'session-secret': secret,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ code: confirmationCode }),
    });
    const tokens = await tokensOf(login, finished);
    expect(tokens.claims()).toMatchObject({ credential_issuer: issuerPublicKey(university), credential_issuer_name: UNIVERSITY });
  }, 120_000);

  it('refuses a proof against a credential root that left the window', async () => {
    const old = await credentialPath(CRED_BIO, university);
    await registerRaw(credentials.other, OTHER_BIO);
    await new Promise((resolve) => setTimeout(resolve, (ROOT_WINDOW_SECONDS + 1) * 1000));
    const stale = await signInProving(CRED_BIO, (login) => credentialProofFor(login, CRED_BIO, university, old));
    expect(await refusal(stale.reply)).toEqual([400, 'INVALID_CREDENTIAL_PROOF']);
    expect((await credentialPath(CRED_BIO, university))!.root).not.toBe(old!.root);
  }, 120_000);

  it('no longer proves an erased identity’s credential', async () => {
    const before = await credentialPath(ERASED_BIO, university);
    expect(before).toBeDefined();
    expect((await postJson(server, '/erase', { id_info: credentials.leaving, bio_info: ERASED_BIO })).body).toEqual({
      'Erasure Result': 'Success',
    });
    expect(await credentialPath(ERASED_BIO, university)).toBeUndefined();
    // The leaf is gone from every row: its own is '0', the checkpoints and a root holding it deleted.
    const { secretScalar } = await new ZkTestClient(viaHttp(server.url), artifacts).identityOf(ERASED_BIO);
    const erasedLeaf = credentialLeaf(issuerPublicKey(university), secretScalar);
    const erasedForms = [erasedLeaf, BigInt(erasedLeaf).toString(16).padStart(64, '0')];
    expect((await everyRow({ dataDir })).filter((row) => erasedForms.some((form) => row.text.includes(form)))).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, (ROOT_WINDOW_SECONDS + 1) * 1000));
    // Its secret still makes a proof, but only against a root from before the erasure, now out of the window.
    const login = await journey.startLogin(site, REDIRECT, { extra: asking });
    const credentialProof = await credentialProofFor(login, ERASED_BIO, university, before);
    const zk = new ZkTestClient(viaHttp(server.url), artifacts);
    // The member tree no longer holds the person either: no sign-in proof can be made at all.
    await expect(
      zk.proveAt(await zk.identityOf(ERASED_BIO), login.details.scope, signInMessage(login.details.challenge, login.uid)),
    ).rejects.toThrow();
    expect(credentialProof.merkleTreeRoot).toBe(before!.root);
    // Sent even so (the credential proof is checked first, so the sign-in proof beside it need only carry its
    // nullifier): refused, its root out of the window.
    const carrier = { ...(await proofFor(login, PLAIN_BIO)), nullifier: credentialProof.nullifier };
    expect(await refusal(await postBoth(login, carrier, credentialProof))).toEqual([400, 'INVALID_CREDENTIAL_PROOF']);
  }, 120_000);

  it('keeps nothing that links a sign-in to the leaf: no row but the leaf’s own and no log line holds it', async () => {
    expect(proven).toBeDefined();
    const leafForms = [proven!.leaf, BigInt(proven!.leaf).toString(16).padStart(64, '0'), BigInt(proven!.leaf).toString(16)];
    const rows = await everyRow({ dataDir });
    const holding = rows.filter((row) => leafForms.some((form) => row.text.includes(form)));
    // The leaf's own row, and the root of the credential tree while the leaf was its only one (a LeanIMT of
    // one leaf has that leaf as its root, as the member tree's does): nothing a sign-in wrote.
    // The tree's own checkpoint pages may hold it too (the leaf as 32 bytes): they are the tree, not a sign-in.
    expect(
      holding.filter((row) => !['credential_roots', 'credential_tree_checkpoint_pages'].includes(row.table)).map((row) => row.table),
    ).toEqual(['credential_leaves']);
    for (const row of holding.filter((r) => r.table === 'credential_roots')) expect(JSON.parse(row.text)).toMatchObject({ size: 1 });
    // The sign-in's own records (its grant's claim, its tokens) name the issuer and the pseudonym, never the leaf or its place.
    const signInRows = rows.filter((row) => row.text.includes(proven!.sub));
    expect(signInRows.length).toBeGreaterThan(0);
    for (const row of signInRows) expect(row.table).toMatch(/^(oidc_models|verification_sessions)$/);
    const output = server.output.join('');
    for (const form of leafForms) expect(output).not.toContain(form);
    // The credential table has no column a sign-in could write.
    expect(
      new Set(rows.filter((row) => row.table === 'credential_leaves').flatMap((row) => Object.keys(JSON.parse(row.text) as object))),
    ).toEqual(new Set(['position', 'leaf', 'leaf_index']));
  }, 60_000);

  it('no longer tells of an issuer the operator removed, once the server starts without it', async () => {
    const before = await signInProving(EMPLOYEE_BIO, (login) => credentialProofFor(login, EMPLOYEE_BIO, employer));
    const tokensBefore = await tokensOf(before.login, before.reply);
    expect(tokensBefore.claims()!.credential_issuer_name).toBe(`issuer ${issuerPublicKey(employer).slice(0, 8)}`);
    await server.stop();
    server = await startServerProcess({ ...env, TRUSTED_ISSUERS: `${UNIVERSITY}=${issuerPublicKey(university)}` }, { port });
    // A token issued before the restart still names the person, never the issuer removed since.
    const sub = tokensBefore.claims()!.sub;
    expect(await client.fetchUserInfo(site, tokensBefore.access_token, sub)).toEqual({ sub });
    const after = await signInProving(EMPLOYEE_BIO, (login) => credentialProofFor(login, EMPLOYEE_BIO, employer));
    expect(await refusal(after.reply)).toEqual([400, 'INVALID_CREDENTIAL_PROOF']);
    // The university's people still prove theirs.
    const student = await signInProving(CRED_BIO, (login) => credentialProofFor(login, CRED_BIO, university));
    expect((await tokensOf(student.login, student.reply)).claims()!.credential_issuer_name).toBe(UNIVERSITY);
  }, 180_000);
});
