import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLite } from '../storage/sqlite/sqlite-driver.ts';
import pg from 'pg';
import { Identity } from '@semaphore-protocol/identity';
import { generateOprfKeyPair } from '@zeroid/protocol';
import {
  blindQuery,
  deriveRegistration,
  encodePoint,
  signWithDid,
  v3RegistrationMessage,
  type ZkRegisterV3Body,
} from '@zeroid/protocol/v3';
import { usePostgres } from '../../test/support/use-postgres.ts';
import { startServerProcess, type ServerProcess } from '../../test/server-process.ts';
import { postJson } from '../../test/support/post.ts';
import { removeTempDirs, tempDir } from '../../test/support/temp-dir.ts';
import { viaHttp, ZkTestClient, type ProvenRegistration } from '../../test/zk-client.ts';
import { Artifacts } from '../proofs/artifacts.ts';
import { terminateCurve } from '../../test/support/terminate-curve.ts';

/**
 * Every zero-knowledge registration is proven (decision 056, closing decision 016's hole): the
 * commitment and ID tag are the v3 derivations of OPRF evaluations the server computed itself, for
 * blinded points it has never registered, bound to a one-time challenge and to a DID whose key
 * signed. Against real server processes, on SQLite and on PostgreSQL, with real proofs: four
 * registration proofs and one Semaphore proof a database, every refusal made by changing a body.
 *
 * A refusal must come from the value changed and nothing else, yet the challenge is consumed before
 * the proof is checked (a dead challenge costs no pairing). So between refused attempts the test
 * gives the challenge back in the database (`unconsume`): each attempt then differs from an
 * acceptable one by exactly one value.
 */
interface Backend {
  name: string;
  server: ServerProcess;
  unconsume(challenge: string): Promise<void>;
}

const postgres = usePostgres();
let artifacts: Artifacts;
const backends: Backend[] = [];

beforeAll(async () => {
  const { privateKey } = await generateOprfKeyPair();
  const env = { OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url'), DERIVATION_THREADS: '1', PROOF_VERIFIER_THREADS: '1' };
  const sqliteDir = tempDir('zeroid-binding-');
  const databaseUrl = await postgres.createDatabase();
  const [sqlite, postgresServer] = await Promise.all([
    startServerProcess({ ...env, DATA_DIR: sqliteDir }, { readyTimeoutMs: 120_000 }),
    startServerProcess({ ...env, DATA_DIR: tempDir('zeroid-binding-'), DATABASE_URL: databaseUrl }, { readyTimeoutMs: 120_000 }),
  ]);
  artifacts = await Artifacts.load();
  backends.push(
    {
      name: 'SQLite',
      server: sqlite,
      async unconsume(challenge) {
        const db = new SQLite(path.join(sqliteDir, 'zeroid.sqlite'), { timeout: 5000 });
        try {
          db.prepare('UPDATE challenges SET consumed_at = NULL WHERE nonce = ?').run(challenge);
        } finally {
          db.close();
        }
      },
    },
    {
      name: 'PostgreSQL',
      server: postgresServer,
      async unconsume(challenge) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          await client.query('UPDATE challenges SET consumed_at = NULL WHERE nonce = $1', [challenge]);
        } finally {
          await client.end();
        }
      },
    },
  );
}, 240_000);

afterAll(async () => {
  await Promise.all(backends.map(({ server }) => server.stop()));
  removeTempDirs();
  await terminateCurve();
});

const ERIN = { id: 'NP-404 Erin', bio: 'iris crypts 5 furrows 9 collarette 2' };

describe.each(['SQLite', 'PostgreSQL'])('zero-knowledge registration under protocol v3 on %s (decision 056)', (name) => {
  let backend: Backend;
  let client: ZkTestClient;
  let honest: ProvenRegistration;
  const register = (body: object) => postJson(backend.server, '/register', body);
  const refusal = async (body: object) => {
    const { status, body: reply } = await register(body);
    return { status, code: reply.error?.code };
  };
  /** `body` re-signed by the registrant's DID key, as an attacker holding it would. */
  const resigned = async (body: ZkRegisterV3Body, registration = honest.registration) => ({
    ...body,
    didSignature: signWithDid(v3RegistrationMessage(body), registration.didKey.secretKey),
  });
  /** A refused attempt on the honest body's challenge, which is then given back for the next one. */
  const refusedOnChallenge = async (body: object) => {
    const outcome = await refusal(body);
    await backend.unconsume(honest.body.challenge);
    return outcome;
  };

  beforeAll(async () => {
    backend = backends.find((b) => b.name === name)!;
    client = new ZkTestClient(viaHttp(backend.server.url), artifacts);
    honest = await client.proveRegistration(ERIN.id, ERIN.bio);
  }, 120_000);

  it('refuses the v2 body, whose values nothing proved, with a code that tells the client to reload', async () => {
    const { status, body } = await register(await client.v2RegistrationBody('v2 ID', 'v2 biometric'));
    expect({ status, code: body.error?.code }).toEqual({ status: 400, code: 'PROTOCOL_V2_REGISTRATION_CLOSED' });
    expect(body.error?.message).toMatch(/reload/i);
  });

  it('refuses the honest proof with any public input changed, each alone', async () => {
    const other = blindQuery('bio', 'another biometric').blinded;
    const otherPoint = Buffer.from(encodePoint(other)).toString('base64url');
    // A random Semaphore identity's commitment, re-signed: the proof names another commitment.
    const randomCommitment = new Identity().commitment.toString();
    expect(await refusedOnChallenge(await resigned({ ...honest.body, commitment: randomCommitment }))).toEqual({
      status: 400,
      code: 'INVALID_PROOF',
    });
    // A made-up ID tag (one of a taken ID, say), re-signed.
    expect(await refusedOnChallenge(await resigned({ ...honest.body, idTag: '12'.repeat(32) }))).toEqual({
      status: 400,
      code: 'INVALID_PROOF',
    });
    // Another DID, signed by its own key: the proof is bound to the DID's hash.
    const stranger = deriveRegistration(123n, 456n);
    expect(await refusedOnChallenge(await resigned({ ...honest.body, did: stranger.didKey.did }, stranger))).toEqual({
      status: 400,
      code: 'INVALID_PROOF',
    });
    // Either blinded point replaced: the server computes another Z, which the proof does not name.
    expect(await refusedOnChallenge({ ...honest.body, bio: { blinded: otherPoint } })).toEqual({ status: 400, code: 'INVALID_PROOF' });
    expect(await refusedOnChallenge({ ...honest.body, id: { blinded: otherPoint } })).toEqual({ status: 400, code: 'INVALID_PROOF' });
    // The DID signature of the honest values no longer matches a changed one.
    expect(await refusal({ ...honest.body, commitment: randomCommitment })).toEqual({ status: 400, code: 'INVALID_SIGNATURE' });
  });

  it('refuses a proof for another challenge, and a challenge used already', async () => {
    const fresh = await client.challenge();
    expect(await refusal(await resigned({ ...honest.body, challenge: fresh }))).toEqual({ status: 400, code: 'INVALID_PROOF' });
    expect(await refusal(await resigned({ ...honest.body, challenge: fresh }))).toEqual({ status: 400, code: 'CHALLENGE_UNUSABLE' });
  });

  it('registers the honest body once; the identity then proves membership with a real Semaphore proof', async () => {
    expect((await register(honest.body)).body).toEqual({ 'DID already generated': false, DID: honest.registration.didKey.did });
    expect(await refusal(honest.body)).toEqual({ status: 400, code: 'CHALLENGE_UNUSABLE' });
    const proof = await client.prove(ERIN.bio);
    expect(proof).toBeDefined();
    expect((await client.verify(proof)).json()).toEqual({ 'Verification Result': 'Success' });
  }, 60_000);

  it('refuses a reused evaluation, even under a fresh challenge with a fresh proof', async () => {
    const again = await client.proveRegistration(ERIN.id, ERIN.bio, { rounds: { bio: honest.bio, id: honest.id } });
    expect(await refusal(again.body)).toEqual({ status: 400, code: 'EVALUATION_REUSED' });
  }, 60_000);

  it('answers "already registered" for a taken ID or a taken biometric, as the raw path does', async () => {
    expect((await client.register(ERIN.id, 'another biometric entirely')).json()).toEqual({ 'DID already generated': true });
    expect((await client.register('NP-405 Not Erin', ERIN.bio)).json()).toEqual({ 'DID already generated': true });
  }, 60_000);
});
