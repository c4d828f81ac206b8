import { generateOprfKeyPair } from '@zeroid/protocol';
import { credentialLeaf, issueCredential, issuerPublicKey, issuerTree, parseIssuerKey } from '@zeroid/protocol/credential';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { usePostgres } from './support/use-postgres.ts';
import { findForms } from './scan-bytes.ts';
import { checkpointPostgres, credentialForms } from './support/credential-forms.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { postJson } from './support/post.ts';
import { recordRegistrations } from './support/record-registrations.ts';
import { stopProcesses } from './support/stop-processes.ts';
import { tempDir } from './support/temp-dir.ts';
import { startTestApp } from './test-app.ts';
import { viaHttp, viaInject, ZkTestClient } from './zk-client.ts';

/**
 * Registration with an issued credential on the raw path (decision 079), on real server processes:
 * SQLite and PostgreSQL trusting two issuers, one requiring a credential, and the SQLite one started
 * again after its operator stopped trusting an issuer.
 */
const university = new Uint8Array(32).fill(1);
const employer = new Uint8Array(32).fill(2);
const stranger = new Uint8Array(32).fill(3);
const ID = 'Student 0042 Jane Example';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const swap = (line: string, index: number, value: string) =>
  line
    .split('.')
    .map((field, i) => (i === index ? value : field))
    .join('.');
const b64 = (text: string) => Buffer.from(text).toString('base64url');

const postgres = usePostgres();
let postgresUrl: string;
let sqliteDir: string;
let artifacts: Artifacts;
let env: Record<string, string>;
const servers: Record<string, ServerProcess> = {};
/** Every credential and ID the tests send: none may reach a database file or a log. */
const secrets = new Set<string>();

/**
 * Credentials are signed before the servers start (zk-kit's signing is slow BigInt arithmetic):
 * issued between two requests, they left a kept-alive connection idle for as long as the server's
 * keep-alive timeout, and a request sent as the server closed it failed.
 */
const signed = new Map<string, string>();
const issued = (key: Uint8Array, id: string, expires?: string) => {
  const name = `${key[0]} ${id} ${expires ?? ''}`;
  if (!signed.has(name)) signed.set(name, issueCredential(key, id, expires ? { expires } : {}));
  return signed.get(name)!;
};
function signAhead() {
  for (const database of ['SQLite', 'PostgreSQL']) {
    const at = (id: string) => `${database} ${id}`;
    issued(university, at(ID), day(30));
    issued(university, at(ID), day(400));
    issued(employer, at(ID));
    issued(university, at('last day'), day(0));
    issued(university, at('refused'), day(30));
    issued(stranger, at('refused'), day(30));
    issued(university, at('refused'), day(-1));
    issued(university, at('erased'), day(30));
  }
  issued(university, 'required 7');
  issued(university, 'leaf 1', day(30));
  issued(employer, 'leaf 1', day(30));
  issued(employer, 'removed 9');
  issued(employer, 'removed 10');
}

const trusted = `Example University=${issuerPublicKey(university)}, ${issuerPublicKey(employer)}`;

beforeAll(async () => {
  signAhead();
  const { privateKey } = await generateOprfKeyPair();
  sqliteDir = tempDir('zeroid-credentials-');
  env = {
    OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url'),
    DERIVATION_THREADS: '1',
    PROOF_VERIFIER_THREADS: '1',
    LOG_LEVEL: 'trace',
    TRUSTED_ISSUERS: trusted,
  };
  [servers.SQLite, servers.PostgreSQL, servers.required, artifacts] = await Promise.all([
    startServerProcess({ ...env, DATA_DIR: sqliteDir }, { readyTimeoutMs: 120_000 }),
    startServerProcess(
      { ...env, DATABASE_URL: (postgresUrl = await postgres.createDatabase()), DATA_DIR: tempDir('zeroid-credentials-pg-') },
      { readyTimeoutMs: 120_000 },
    ),
    startServerProcess(
      { ...env, REQUIRE_CREDENTIAL: 'true', DATA_DIR: tempDir('zeroid-credentials-required-') },
      { readyTimeoutMs: 120_000 },
    ),
    Artifacts.load(),
  ]);
}, 240_000);

afterAll(() => stopProcesses(Object.values(servers)));

describe('GET /issuers', () => {
  it('lists the trusted issuers by name and key, and whether a credential is required', async () => {
    const body = await (await fetch(`${servers.SQLite!.url}/issuers`)).json();
    expect(body).toEqual({
      issuers: [
        { name: 'Example University', publicKey: issuerPublicKey(university) },
        { name: `issuer ${issuerPublicKey(employer).slice(0, 8)}`, publicKey: issuerPublicKey(employer) },
      ],
      credentialRequired: false,
      issuersRoot: issuerTree([university, employer].map((key) => parseIssuerKey(issuerPublicKey(key))!)).root.toString(),
    });
    expect(await (await fetch(`${servers.required!.url}/issuers`)).json()).toMatchObject({ credentialRequired: true });
  });
});

describe.each(['SQLite', 'PostgreSQL'])('a credential on the raw path, on %s', (database) => {
  const server = () => servers[database]!;
  const send = (route: string, body: { id_info?: string; bio_info: string }) => {
    if (body.id_info) secrets.add(body.id_info);
    return postJson(server(), route, body);
  };
  const credential = (key: Uint8Array, id: string, expires?: string) => {
    const line = issued(key, `${database} ${id}`, expires);
    secrets.add(line);
    secrets.add(`${database} ${id}`);
    return line;
  };
  const bio = (name: string) => `${database} ${name}: ridge loop whorl delta arch`;

  it('registers a credential once: the same one with another biometric is already registered', async () => {
    // The same ID text typed as a plain ID first: it must never block the credential's holder.
    expect((await send('/register', { id_info: `${database} ${ID}`, bio_info: bio('squatter') })).body).toMatchObject({
      'DID already generated': false,
    });
    const line = credential(university, ID, day(30));
    const first = await send('/register', { id_info: line, bio_info: bio('holder') });
    expect(first).toMatchObject({ status: 200, body: { 'DID already generated': false, DID: expect.stringMatching(/^did:key:z6Mk/) } });
    expect((await send('/register', { id_info: line, bio_info: bio('someone else') })).body).toEqual({ 'DID already generated': true });
    // A renewed credential (another expiry) is the same ID of the same issuer: still one identity.
    expect((await send('/register', { id_info: credential(university, ID, day(400)), bio_info: bio('renewed') })).body).toEqual({
      'DID already generated': true,
    });
    // Another trusted issuer's credential for the same ID text is another ID space.
    expect((await send('/register', { id_info: credential(employer, ID), bio_info: bio('employee') })).body).toMatchObject({
      'DID already generated': false,
    });
    // The holder verifies with the biometric alone.
    expect((await send('/verify', { bio_info: bio('holder') })).body).toEqual({ 'Verification Result': 'Success' });
  });

  it('accepts a credential on its last day, by the server clock', async () => {
    const line = credential(university, 'last day', day(0));
    expect((await send('/register', { id_info: line, bio_info: bio('last day') })).body).toMatchObject({ 'DID already generated': false });
  });

  it('refuses a forged, changed, expired, untrusted or malformed credential with a 400 and its code', async () => {
    const line = credential(university, 'refused', day(30));
    const cases: [string, string, string][] = [
      ['forged signature', swap(credential(stranger, 'refused', day(30)), 1, issuerPublicKey(university)), 'CREDENTIAL_SIGNATURE_INVALID'],
      ['ID changed', swap(line, 3, b64(`${database} refused too`)), 'CREDENTIAL_SIGNATURE_INVALID'],
      ['expiry changed', swap(line, 2, day(3000)), 'CREDENTIAL_SIGNATURE_INVALID'],
      ['issuer key changed', swap(line, 1, issuerPublicKey(employer)), 'CREDENTIAL_SIGNATURE_INVALID'],
      ['expired', credential(university, 'refused', day(-1)), 'CREDENTIAL_EXPIRED'],
      ['issuer not trusted', credential(stranger, 'refused', day(30)), 'ISSUER_NOT_TRUSTED'],
      ['malformed', line.slice(0, -3), 'MALFORMED_CREDENTIAL'],
    ];
    for (const [what, idInfo, code] of cases) {
      const reply = await send('/register', { id_info: idInfo, bio_info: bio(`refused ${what}`) });
      expect([what, reply.status, reply.body.error?.code]).toEqual([what, 400, code]);
      expect(reply.body.error?.message).not.toContain('refused');
    }
    // Nothing refused was registered: the refused biometrics are not members.
    expect((await send('/verify', { bio_info: bio('refused expired') })).body).toEqual({ 'Verification Result': 'Failure' });
  });

  it('erases the identity a credential registered, with the credential and the biometric', async () => {
    const line = credential(university, 'erased', day(30));
    expect((await send('/register', { id_info: line, bio_info: bio('erased') })).body).toMatchObject({ 'DID already generated': false });
    // A plain ID of the same text does not name it.
    expect((await send('/erase', { id_info: `${database} erased`, bio_info: bio('erased') })).body).toEqual({
      'Erasure Result': 'Failure',
    });
    const forged = swap(line, 3, b64(`${database} erased!`));
    expect((await send('/erase', { id_info: forged, bio_info: bio('erased') })).body.error?.code).toBe('CREDENTIAL_SIGNATURE_INVALID');
    expect((await send('/erase', { id_info: line, bio_info: bio('erased') })).body).toEqual({ 'Erasure Result': 'Success' });
    expect((await send('/verify', { bio_info: bio('erased') })).body).toEqual({ 'Verification Result': 'Failure' });
    expect((await send('/register', { id_info: line, bio_info: bio('erased') })).body).toMatchObject({ 'DID already generated': false });
  });
});

describe('the credential leaf on the raw path (decision 086)', () => {
  it('is computed by the server from the issuer and the derived secret, and handed to storage with the identity', async () => {
    // A derivation thread, as in production: the leaf crosses back from it with the identity.
    const testApp = await startTestApp({ env: { TRUSTED_ISSUERS: trusted, DERIVATION_THREADS: '1' } });
    try {
      const recorded = recordRegistrations(testApp.storage);
      const register = async (id_info: string, bio_info: string) => {
        secrets.add(id_info);
        const reply = await testApp.app.inject({ method: 'POST', url: '/register', payload: { id_info, bio_info } });
        return reply.json<Record<string, unknown>>();
      };
      // The secret a device holding the biometric derives (one OPRF round of its own).
      const secretOf = async (bio: string) => (await new ZkTestClient(viaInject(testApp.app), artifacts).identityOf(bio)).secretScalar;
      expect(await register('leaf plain', 'raw leaf: a plain ID’s biometric')).toMatchObject({ 'DID already generated': false });
      expect(await register(issued(university, 'leaf 1', day(30)), 'raw leaf: the student')).toMatchObject({
        'DID already generated': false,
      });
      expect(await register(issued(employer, 'leaf 1', day(30)), 'raw leaf: the employee')).toMatchObject({
        'DID already generated': false,
      });
      expect(recorded).toHaveLength(3);
      expect(recorded[0]).not.toHaveProperty('credentialLeaf');
      expect(recorded[1]!.credentialLeaf).toBe(credentialLeaf(issuerPublicKey(university), await secretOf('raw leaf: the student')));
      expect(recorded[2]!.credentialLeaf).toBe(credentialLeaf(issuerPublicKey(employer), await secretOf('raw leaf: the employee')));
      // Already registered: nothing new is written, whatever was handed over.
      expect(await register(issued(university, 'leaf 1', day(30)), 'raw leaf: someone else')).toEqual({ 'DID already generated': true });
    } finally {
      await testApp.destroy();
    }
  }, 240_000);
});

describe('REQUIRE_CREDENTIAL=true', () => {
  const server = () => servers.required!;

  it('refuses a plain ID on the raw path, and registers a credential', async () => {
    const plain = await postJson(server(), '/register', { id_info: 'plain 7', bio_info: 'required: a plain biometric' });
    expect([plain.status, plain.body.error?.code]).toEqual([400, 'CREDENTIAL_REQUIRED']);
    expect(plain.body.error?.message).toContain('trusted issuer');
    const line = issued(university, 'required 7');
    secrets.add(line);
    expect((await postJson(server(), '/register', { id_info: line, bio_info: 'required: a biometric' })).body).toMatchObject({
      'DID already generated': false,
    });
  });

  it('refuses a zero-knowledge registration of a plain ID, even a valid one, saying why', async () => {
    const client = new ZkTestClient(viaHttp(server().url), artifacts);
    const { body } = await client.proveRegistration('zk 7', 'required: a proven biometric');
    const reply = await postJson(server(), '/register', body);
    expect([reply.status, reply.body.error?.code]).toEqual([400, 'CREDENTIAL_REQUIRED']);
    expect(reply.body.error?.message).toContain('paste the credential your issuer gave you');
    // The same proven registration is accepted where no credential is required: the refusal is the setting's.
    const accepted = new ZkTestClient(viaHttp(servers.SQLite!.url), artifacts);
    expect((await accepted.register('zk 7', 'required: a proven biometric')).json()).toMatchObject({ 'DID already generated': false });
  }, 120_000);
});

describe('an issuer the operator no longer trusts', () => {
  it('keeps its identities (they verify and erase) and registers no new one', async () => {
    const line = issued(employer, 'removed 9');
    const later = issued(employer, 'removed 10');
    secrets.add(line).add(later);
    const bio = 'removed: a biometric registered before the issuer was removed';
    expect((await postJson(servers.SQLite!, '/register', { id_info: line, bio_info: bio })).body).toMatchObject({
      'DID already generated': false,
    });
    await servers.SQLite!.stop();
    servers.SQLite = await startServerProcess(
      { ...env, TRUSTED_ISSUERS: `Example University=${issuerPublicKey(university)}`, DATA_DIR: sqliteDir },
      { readyTimeoutMs: 120_000 },
    );
    const server = servers.SQLite;
    expect((await postJson(server, '/verify', { bio_info: bio })).body).toEqual({ 'Verification Result': 'Success' });
    const refused = await postJson(server, '/register', { id_info: later, bio_info: 'removed: a new biometric' });
    expect([refused.status, refused.body.error?.code]).toEqual([400, 'ISSUER_NOT_TRUSTED']);
    expect((await postJson(server, '/erase', { id_info: line, bio_info: bio })).body).toEqual({ 'Erasure Result': 'Success' });
  }, 180_000);
});

describe('P2 with credentials', () => {
  it('no database file and no log holds a credential, its ID, or their hashes', async () => {
    await checkpointPostgres(postgresUrl);
    const forms = credentialForms(secrets);
    // The IDs inside credentials, as they were signed: every secret above with a database prefix is one.
    expect(secrets.size).toBeGreaterThan(20);
    const logs = Object.values(servers)
      .flatMap((server) => server.output)
      .join('');
    expect(logs.length).toBeGreaterThan(1000);
    const inLogs = forms.filter(({ bytes }) => Buffer.from(logs).includes(bytes)).map(({ form }) => form);
    expect(inLogs).toEqual([]);
    expect(findForms(sqliteDir, forms)).toEqual([]);
    expect(findForms(postgres.dataDir, forms)).toEqual([]);
  });
});
