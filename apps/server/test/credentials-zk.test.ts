import { generateOprfKeyPair, SNARK_SCALAR_FIELD } from '@zeroid/protocol';
import { credentialLeaf, dayNumber, dayOf, issueCredential, issuerPublicKey, readCredential } from '@zeroid/protocol/credential';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { usePostgres } from './support/use-postgres.ts';
import { findForms } from './scan-bytes.ts';
import { checkpointPostgres, credentialForms } from './support/credential-forms.ts';
import { recordRegistrations } from './support/record-registrations.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { postJson } from './support/post.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';
import { startTestApp } from './test-app.ts';
import { viaHttp, viaInject, ZkTestClient, type Send } from './zk-client.ts';
import { proveCredentialRegistration } from './zk-credential-client.ts';

/**
 * Registration with an issued credential on the zero-knowledge path (decision 085), on real server
 * processes: one on SQLite trusting two issuers (started again without one of them), one on
 * PostgreSQL, one requiring a credential.
 * Every request the clients send is recorded, and with the database files and the logs scanned for
 * the credentials, their IDs and their hashes (P1 and P2 with credentials).
 */
const university = new Uint8Array(32).fill(1);
const employer = new Uint8Array(32).fill(2);
const stranger = new Uint8Array(32).fill(3);
const [UNIVERSITY, EMPLOYER, STRANGER] = [university, employer, stranger].map(issuerPublicKey) as [string, string, string];
const TRUSTED = [UNIVERSITY, EMPLOYER];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const swap = (line: string, index: number, value: string) =>
  line
    .split('.')
    .map((field, i) => (i === index ? value : field))
    .join('.');

let sqliteDir: string;
const postgres = usePostgres();
let postgresUrl: string;
let artifacts: Artifacts;
let env: Record<string, string>;
const servers: Record<string, ServerProcess> = {};
/** Every credential and ID the tests use: none may be in a request, a database file or a log. */
const secrets = new Set<string>();
/** Every request body the zero-knowledge clients sent, as sent. */
const sent: string[] = [];

/** Credentials signed before the servers start (zk-kit's signing is slow). */
const signed = new Map<string, string>();
const issued = (key: Uint8Array, id: string, expires?: string) => {
  const name = `${key[0]} ${id} ${expires ?? ''}`;
  if (!signed.has(name)) signed.set(name, issueCredential(key, id, expires ? { expires } : {}));
  const line = signed.get(name)!;
  secrets.add(line).add(readCredential(line).id);
  return line;
};

/** A zero-knowledge client of `server` whose every request body is recorded. */
function clientOf(server: () => ServerProcess): ZkTestClient {
  const send: Send = (request) => {
    if (request.payload) sent.push(JSON.stringify(request.payload));
    return viaHttp(server().url)(request);
  };
  return new ZkTestClient(send, artifacts);
}
const register = (server: ServerProcess, body: object) => {
  sent.push(JSON.stringify(body));
  return postJson(server, '/register', body);
};

beforeAll(async () => {
  for (const id of [
    'Student 0042 Jane Example',
    'expired 1',
    'untrusted 1',
    'required 1',
    'removed 1',
    'removed 2',
    'bound 1',
    'postgres 1',
    'leaf 1',
  ])
    issued(university, id, day(30));
  issued(university, 'expired 1', day(-1));
  issued(stranger, 'untrusted 1', day(30));
  issued(employer, 'removed 1');
  issued(employer, 'removed 2');
  const { privateKey } = await generateOprfKeyPair();
  sqliteDir = tempDir('zeroid-credentials-zk-');
  postgresUrl = await postgres.createDatabase();
  env = {
    OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url'),
    DERIVATION_THREADS: '1',
    PROOF_VERIFIER_THREADS: '1',
    LOG_LEVEL: 'trace',
    TRUSTED_ISSUERS: `Example University=${UNIVERSITY},${EMPLOYER}`,
  };
  [servers.SQLite, servers.PostgreSQL, servers.required, artifacts] = await Promise.all([
    startServerProcess({ ...env, DATA_DIR: sqliteDir }, { readyTimeoutMs: 120_000 }),
    startServerProcess({ ...env, DATABASE_URL: postgresUrl, DATA_DIR: tempDir('zeroid-credentials-zk-pg-') }, { readyTimeoutMs: 120_000 }),
    startServerProcess(
      // A challenge may live a whole day here: the longest the settings allow, where a day's slack matters most.
      { ...env, REQUIRE_CREDENTIAL: 'true', CHALLENGE_TTL_SECONDS: '86400', DATA_DIR: tempDir('zeroid-credentials-zk-required-') },
      { readyTimeoutMs: 120_000 },
    ),
    Artifacts.load(),
  ]);
}, 240_000);

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
  removeTempDirs();
  await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
});

describe('a credential on the zero-knowledge path', () => {
  const server = () => servers.SQLite!;
  const bio = (name: string) => `zk ${name}: ridge loop whorl delta arch`;

  it('GET /issuers gives the root of the trusted issuers’ tree the proofs are made for', async () => {
    const { issuersRoot } = (await (await fetch(`${server().url}/issuers`)).json()) as { issuersRoot: string };
    const client = clientOf(server);
    const { body } = await proveCredentialRegistration(client, artifacts, issued(university, 'bound 1', day(30)), bio('bound'), {
      trustedKeys: TRUSTED,
    });
    expect(body.credential.issuersRoot).toBe(issuersRoot);
    // The proof is of the credential circuit: sent as a plain registration, it is verified under
    // registration-v3's key and refused; a plain registration's proof claiming a credential likewise.
    const plainBody: Partial<typeof body> = { ...body };
    delete plainBody.credential;
    const asPlain = await register(server(), plainBody);
    expect([asPlain.status, asPlain.body.error?.code]).toEqual([400, 'INVALID_PROOF']);
    const plain = await client.proveRegistration('zk a plain ID', bio('plain claiming a credential'));
    const claiming = await register(server(), { ...plain.body, credential: body.credential });
    expect([claiming.status, claiming.body.error?.code]).toEqual([400, 'INVALID_PROOF']);
  }, 300_000);

  it('registers a credential once: the same one with another biometric is already registered; a plain ID of its text never blocks it', async () => {
    const client = clientOf(server);
    const line = issued(university, 'Student 0042 Jane Example', day(30));
    // The same ID text registered first as a plain ID, proven: another ID-tag space.
    expect((await client.register(readCredential(line).id, bio('squatter'))).json()).toMatchObject({ 'DID already generated': false });
    const first = await proveCredentialRegistration(client, artifacts, line, bio('holder'), { trustedKeys: TRUSTED });
    expect((await register(server(), first.body)).body).toEqual({ 'DID already generated': false, DID: first.did });
    const second = await proveCredentialRegistration(client, artifacts, line, bio('someone else'), { trustedKeys: TRUSTED });
    expect((await register(server(), second.body)).body).toEqual({ 'DID already generated': true });
    // The holder is a member: a membership proof with the biometric alone verifies.
    const proof = await client.prove(bio('holder'));
    expect((await client.verify(proof)).json()).toEqual({ 'Verification Result': 'Success' });
  }, 300_000);

  it('refuses on the device, before any proof, a forged, changed, expired, untrusted or malformed credential', async () => {
    const client = clientOf(server);
    const line = issued(university, 'untrusted 1', day(30));
    const cases: [string, string, string][] = [
      ['forged signature', swap(issued(stranger, 'untrusted 1', day(30)), 1, UNIVERSITY), 'CREDENTIAL_SIGNATURE_INVALID'],
      ['ID changed', swap(line, 3, Buffer.from('untrusted 2').toString('base64url')), 'CREDENTIAL_SIGNATURE_INVALID'],
      ['expiry changed', swap(line, 2, day(3000)), 'CREDENTIAL_SIGNATURE_INVALID'],
      ['issuer key changed', swap(line, 1, EMPLOYER), 'CREDENTIAL_SIGNATURE_INVALID'],
      ['expired', issued(university, 'expired 1', day(-1)), 'CREDENTIAL_EXPIRED'],
      ['issuer not trusted', issued(stranger, 'untrusted 1', day(30)), 'ISSUER_NOT_TRUSTED'],
      ['malformed', line.slice(0, -3), 'MALFORMED_CREDENTIAL'],
    ];
    const before = sent.length;
    for (const [what, text, code] of cases) {
      secrets.add(text);
      const refused = proveCredentialRegistration(client, artifacts, text, bio(what), { trustedKeys: TRUSTED });
      await expect(refused, what).rejects.toMatchObject({ code });
      await expect(refused, what).rejects.not.toThrow(/untrusted/);
    }
    expect(sent.length).toBe(before);
  });

  it('has no proof for a changed credential even past the device’s checks', async () => {
    const client = clientOf(server);
    const line = issued(university, 'untrusted 1', day(30));
    for (const [what, text] of [
      ['ID changed', swap(line, 3, Buffer.from('untrusted 2').toString('base64url'))],
      ['expiry changed', swap(line, 2, day(3000))],
      ['forged signature', swap(issued(stranger, 'untrusted 1', day(30)), 1, UNIVERSITY)],
    ] as const) {
      secrets.add(text);
      const proving = proveCredentialRegistration(client, artifacts, text, bio(what), { trustedKeys: TRUSTED, unchecked: true });
      await expect(proving, what).rejects.toThrow(/Assert Failed/);
    }
  }, 300_000);

  it('refuses a proof made for issuers the server does not trust, and one for a day that is not the challenge’s', async () => {
    const client = clientOf(server);
    // The stranger's own credential, proven in a tree holding the stranger: the root is not the server's.
    const untrusted = await proveCredentialRegistration(client, artifacts, issued(stranger, 'untrusted 1', day(30)), bio('untrusted'), {
      trustedKeys: [STRANGER, ...TRUSTED],
    });
    const refused = await register(server(), untrusted.body);
    expect([refused.status, refused.body.error?.code]).toEqual([400, 'ISSUER_NOT_TRUSTED']);
    // An expired credential proven on a day it was valid (yesterday): the day is not the challenge's.
    const yesterday = new Date(Date.now() - 86_400_000);
    const expired = await proveCredentialRegistration(client, artifacts, issued(university, 'expired 1', day(-1)), bio('expired'), {
      trustedKeys: TRUSTED,
      now: yesterday,
      today: dayOf(yesterday),
    });
    const late = await register(server(), expired.body);
    expect([late.status, late.body.error?.code]).toEqual([400, 'CREDENTIAL_DAY_INVALID']);
    expect(late.body.error?.message).toContain('day');
    // Proven for today, it has no witness: the circuit holds today ≤ expiry.
    const now = proveCredentialRegistration(client, artifacts, issued(university, 'expired 1', day(-1)), bio('expired'), {
      trustedKeys: TRUSTED,
      unchecked: true,
    });
    await expect(now).rejects.toThrow(/Assert Failed/);
    // Nothing refused was registered.
    const member = await client.prove(bio('untrusted'));
    expect(member).toBeUndefined();
    expect(dayNumber(day(0))).toBe(dayOf(new Date()));
  }, 300_000);
});

describe('the credential leaf on the zero-knowledge path (decision 086)', () => {
  it('reaches storage as the proof’s third signal; a body with another leaf, or one that is no field element, is refused', async () => {
    const testApp = await startTestApp({ env: { TRUSTED_ISSUERS: env.TRUSTED_ISSUERS! } });
    try {
      const recorded = recordRegistrations(testApp.storage);
      const send: Send = (request) => {
        if (request.payload) sent.push(JSON.stringify(request.payload));
        return viaInject(testApp.app)(request);
      };
      const client = new ZkTestClient(send, artifacts);
      const post = async (body: object) => {
        sent.push(JSON.stringify(body));
        const reply = await testApp.app.inject({ method: 'POST', url: '/register', payload: body });
        return { status: reply.statusCode, body: reply.json<{ error?: { code: string; message: string } }>() };
      };
      const line = issued(university, 'leaf 1', day(30));
      const holder = 'zk leaf: the holder’s biometric';
      const tried = await proveCredentialRegistration(client, artifacts, line, holder, { trustedKeys: TRUSTED });
      const leaf = credentialLeaf(UNIVERSITY, tried.secret);
      expect(tried.body.credential.leaf).toBe(leaf);
      const withLeaf = (value: string) => ({ ...tried.body, credential: { ...tried.body.credential, leaf: value } });
      // Not a field element: refused before the challenge is spent, with a message that says why.
      for (const [value, code] of [
        ['0x1f', 'INVALID_REQUEST'],
        ['-1', 'INVALID_REQUEST'],
        [SNARK_SCALAR_FIELD.toString(), 'INVALID_FIELD_ELEMENT'],
        [(SNARK_SCALAR_FIELD + BigInt(leaf)).toString(), 'INVALID_FIELD_ELEMENT'],
      ]) {
        const refused = await post(withLeaf(value!));
        expect({ value, status: refused.status, code: refused.body.error?.code }).toEqual({ value, status: 400, code });
        expect(refused.body.error?.message).toMatch(/leaf/);
      }
      // Another issuer's leaf for the same secret, or any other value: the proof does not hold.
      const another = await post(withLeaf(credentialLeaf(EMPLOYER, tried.secret)));
      expect([another.status, another.body.error?.code]).toEqual([400, 'INVALID_PROOF']);
      expect(recorded).toEqual([]);

      const { body, did, secret } = await proveCredentialRegistration(client, artifacts, line, holder, { trustedKeys: TRUSTED });
      expect(secret).toBe(tried.secret);
      expect((await post(body)).body).toEqual({ 'DID already generated': false, DID: did });
      expect(recorded).toEqual([expect.objectContaining({ did, credentialLeaf: leaf })]);
      // A plain ID's identity has no leaf.
      const plain = await client.proveRegistration('zk leaf: a plain ID', 'zk leaf: a plain ID’s biometric');
      expect((await post(plain.body)).body).toMatchObject({ 'DID already generated': false });
      expect(recorded).toHaveLength(2);
      expect(recorded[1]).not.toHaveProperty('credentialLeaf');
    } finally {
      await testApp.destroy();
    }
  }, 300_000);
});

describe('a credential on the zero-knowledge path, on PostgreSQL', () => {
  it('registers once: the same credential with another biometric is already registered', async () => {
    const client = clientOf(() => servers.PostgreSQL!);
    const line = issued(university, 'postgres 1', day(30));
    const first = await proveCredentialRegistration(client, artifacts, line, 'zk postgres: the holder', { trustedKeys: TRUSTED });
    expect((await register(servers.PostgreSQL!, first.body)).body).toEqual({ 'DID already generated': false, DID: first.did });
    const second = await proveCredentialRegistration(client, artifacts, line, 'zk postgres: someone else', { trustedKeys: TRUSTED });
    expect((await register(servers.PostgreSQL!, second.body)).body).toEqual({ 'DID already generated': true });
  }, 300_000);
});

describe('REQUIRE_CREDENTIAL=true on the zero-knowledge path', () => {
  const server = () => servers.required!;

  it('refuses a plain ID, saying to paste a credential, and registers a credential', async () => {
    const client = clientOf(server);
    const plain = await client.proveRegistration('zk plain required', 'zk required: a plain biometric');
    const refused = await register(server(), plain.body);
    expect([refused.status, refused.body.error?.code]).toEqual([400, 'CREDENTIAL_REQUIRED']);
    expect(refused.body.error?.message).toContain('credential your issuer gave you');
    const { body, did } = await proveCredentialRegistration(
      client,
      artifacts,
      issued(university, 'required 1', day(30)),
      'zk required: a biometric',
      {
        trustedKeys: TRUSTED,
      },
    );
    expect((await register(server(), body)).body).toEqual({ 'DID already generated': false, DID: did });
  }, 300_000);

  it('refuses a credential that expired before its challenge was issued, proven for a day it was valid, though challenges live a day', async () => {
    const client = clientOf(server);
    const yesterday = new Date(Date.now() - 86_400_000);
    // The challenge is today's; yesterday lies within its time to live, but before it was issued.
    const { body } = await proveCredentialRegistration(
      client,
      artifacts,
      issued(university, 'expired 1', day(-1)),
      'zk required: expired',
      {
        trustedKeys: TRUSTED,
        now: yesterday,
        today: dayOf(yesterday),
      },
    );
    const refused = await register(server(), body);
    expect([refused.status, refused.body.error?.code]).toEqual([400, 'CREDENTIAL_DAY_INVALID']);
    expect(await client.prove('zk required: expired')).toBeUndefined();
  }, 300_000);

  it('answers a 400, not a 500, for an issuer key whose last character carries padding bits', async () => {
    const line = issued(university, 'required 1', day(30));
    const key = line.split('.')[1]!;
    // 43 base64url characters hold 258 bits: the last character's low two bits must be zero.
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(key.at(-1)!);
    const padded = swap(line, 1, key.slice(0, -1) + 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[last ^ 1]);
    const reply = await postJson(server(), '/register', { id_info: padded, bio_info: 'zk required: padded key' });
    expect([reply.status, reply.body.error?.code]).toEqual([400, 'MALFORMED_CREDENTIAL']);
  });
});

describe('an issuer the operator no longer trusts, on the zero-knowledge path', () => {
  it('keeps its identities (they verify) and registers no new one', async () => {
    const client = clientOf(() => servers.SQLite!);
    const bio = 'zk removed: a biometric registered before the issuer was removed';
    const before = await proveCredentialRegistration(client, artifacts, issued(employer, 'removed 1'), bio, { trustedKeys: TRUSTED });
    expect((await register(servers.SQLite!, before.body)).body).toMatchObject({ 'DID already generated': false });
    // A proof made before the restart, for the old list.
    const pending = await proveCredentialRegistration(client, artifacts, issued(employer, 'removed 2'), 'zk removed: another', {
      trustedKeys: TRUSTED,
    });
    await servers.SQLite!.stop();
    servers.SQLite = await startServerProcess(
      { ...env, TRUSTED_ISSUERS: `Example University=${UNIVERSITY}`, DATA_DIR: sqliteDir },
      { readyTimeoutMs: 120_000 },
    );
    const proof = await client.prove(bio);
    expect((await client.verify(proof)).json()).toEqual({ 'Verification Result': 'Success' });
    const stale = await register(servers.SQLite, pending.body);
    expect([stale.status, stale.body.error?.code]).toEqual([400, 'ISSUER_NOT_TRUSTED']);
    // Made again for the list the server now trusts: the employer is in no leaf, so the device refuses.
    await expect(
      proveCredentialRegistration(client, artifacts, issued(employer, 'removed 2'), 'zk removed: another', { trustedKeys: [UNIVERSITY] }),
    ).rejects.toMatchObject({ code: 'ISSUER_NOT_TRUSTED' });
  }, 300_000);
});

describe('P1 and P2 with credentials on the zero-knowledge path', () => {
  it('no request, database file or log holds a credential, its ID, or their hashes', async () => {
    await checkpointPostgres(postgresUrl);
    const forms = credentialForms(secrets);
    expect(secrets.size).toBeGreaterThan(10);
    expect(sent.length).toBeGreaterThan(20);
    const requests = Buffer.from(sent.join('\n'));
    expect(forms.filter(({ bytes }) => requests.includes(bytes)).map(({ form }) => form)).toEqual([]);
    const logs = Buffer.from(
      Object.values(servers)
        .flatMap((server) => server.output)
        .join(''),
    );
    expect(logs.length).toBeGreaterThan(1000);
    expect(forms.filter(({ bytes }) => logs.includes(bytes)).map(({ form }) => form)).toEqual([]);
    expect(findForms(sqliteDir, forms)).toEqual([]);
    expect(findForms(postgres.dataDir, forms)).toEqual([]);
  });
});
