import { deriveAll, generateOprfKeyPair, normaliseInput, OprfEvaluator, signErasure } from '@zeroid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClientMetadata } from '../src/openid/client-metadata.ts';
import { openStorage, type StorageOptions } from '../src/storage/open-storage.ts';
import { usePostgres } from './support/use-postgres.ts';
import { findBytes } from './scan-bytes.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { rawApi } from './support/raw-api.ts';
import { stopProcesses } from './support/stop-processes.ts';
import { tempDir } from './support/temp-dir.ts';
import { ownGroupProof, signInProofs, v3ErasureBody, v3Identity, type V3Identity } from './identity-v3.ts';

/**
 * The raw path and erasure under protocol v3 (decision 056), on real server processes, one on SQLite
 * and one on PostgreSQL, each started on a database that already holds a v2 identity: made before
 * the change, by the v2 protocol functions under the server's key, as the server registered them.
 */
const OLD = { id_info: 'V3-OLD 1001', bio_info: 'a biometric registered under protocol v2' };
const NEW = { id_info: 'V3-NEW 2002', bio_info: 'a biometric registered raw under protocol v3' };
const ZK = { id_info: 'V3-ZK 3003', bio_info: 'a v3 biometric erased with the zero-knowledge body' };
const OTHER = { id_info: 'V3-OTHER 4004', bio_info: 'another v3 biometric, never erased' };
/** A second v2 identity, erased with the v2 zero-knowledge body. */
const OLD_ZK = { id_info: 'V3-OLD 1002', bio_info: 'another biometric registered under protocol v2' };

let privateKey: Uint8Array;
const postgres = usePostgres();
let sqliteDir: string;
const servers: Record<string, ServerProcess> = {};

/** What the v2 code derived for a person: `deriveAll` of the OPRF outputs under the server's key. */
async function v2Derivation(person: { id_info: string; bio_info: string }) {
  const oprf = new OprfEvaluator(privateKey);
  const oprfId = await oprf.evaluate('id', normaliseInput(person.id_info));
  return { ...deriveAll(await oprf.evaluate('bio', normaliseInput(person.bio_info)), oprfId), oprfId };
}

/** The three values a v2 identity's row holds. */
async function v2Identity(person: { id_info: string; bio_info: string }) {
  const { commitment, idTag, did } = await v2Derivation(person);
  return { commitment, idTag, did };
}

beforeAll(async () => {
  ({ privateKey } = await generateOprfKeyPair());
  sqliteDir = tempDir('zeroid-v3-raw-');
  const databases: Record<string, StorageOptions> = {
    SQLite: { dataDir: sqliteDir },
    PostgreSQL: { databaseUrl: await postgres.createDatabase(), dataDir: '' },
  };
  const old = await Promise.all([v2Identity(OLD), v2Identity(OLD_ZK)]);
  const env = { OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url'), DERIVATION_THREADS: '1', PROOF_VERIFIER_THREADS: '1' };
  await Promise.all(
    Object.entries(databases).map(async ([name, options]) => {
      const storage = await openStorage(options);
      await storage.identities.importBatch(old);
      // One Sign in with ZeroID site: an erasure proves the person's pseudonym there (decision 048).
      const site = newClientMetadata({ id: 'v3-site', redirectUris: ['http://localhost:18790/cb'], public: true });
      expect(await storage.oidc.addClient('v3-site', JSON.stringify(site))).toBe(true);
      await storage.close();
      servers[name] = await startServerProcess(
        options.databaseUrl
          ? { ...env, DATABASE_URL: options.databaseUrl, DATA_DIR: tempDir('zeroid-v3-raw-pg-') }
          : { ...env, DATA_DIR: sqliteDir },
        { readyTimeoutMs: 120_000 },
      );
    }),
  );
}, 240_000);

afterAll(() => stopProcesses(Object.values(servers)));

describe.each(['SQLite', 'PostgreSQL'])('protocol v3 on the raw path and in erasure, on %s', (database) => {
  const server = () => servers[database]!;
  const { register, verify, erase, resolves, challenge } = rawApi(server);

  it('keeps a v2 identity made before the change: it verifies raw, its texts cannot register beside it, and it erases raw', async () => {
    const old = await v2Identity(OLD);
    expect(await verify(OLD)).toBe('Success');
    expect(await resolves(old.did)).toBe(200);
    // Uniqueness across versions: the person's v2 commitment or v2 ID tag is enough. (Both texts
    // together move the person to v3, decision 073: move-from-v2.test.ts.)
    expect(await register({ id_info: 'V3-OLD another ID', bio_info: OLD.bio_info })).toEqual({ 'DID already generated': true });
    expect(await register({ id_info: OLD.id_info, bio_info: 'V3-OLD another biometric' })).toEqual({ 'DID already generated': true });
    expect(await verify({ bio_info: 'V3-OLD another biometric' })).toBe('Failure');

    expect(await erase({ ...OLD, bio_info: 'V3-OLD another biometric' })).toBe('Failure');
    expect(await erase(OLD)).toBe('Success');
    expect(await verify(OLD)).toBe('Failure');
    expect(await resolves(old.did)).toBe(410);
    expect(await erase(OLD)).toBe('Failure');
    // Erased, the person registers again, under v3: a new DID (decision 056), which verifies.
    const { didKey } = await v3Identity(privateKey, OLD);
    expect(await register(OLD)).toEqual({ 'DID already generated': false, DID: didKey.did });
    expect(didKey.did).not.toBe(old.did);
    expect(await verify(OLD)).toBe('Success');

    // A v2 identity still erases with the v2 zero-knowledge body (decision 022), as the web app sends it.
    const v2 = await v2Derivation(OLD_ZK);
    expect(await verify(OLD_ZK)).toBe('Success');
    const { fields, signatures } = signErasure(v2.identity, v2.didKey.secretKey, v2.oprfId, {
      commitment: v2.commitment,
      did: v2.did,
      challenge: await challenge(),
    });
    const { scopes } = (await (await fetch(`${server().url}/erase/sign-in-scopes`)).json()) as { scopes: string[] };
    expect(await erase({ ...fields, signatures, signInProofs: [] })).toBe('400 SIGN_IN_PROOFS_MISMATCH');
    expect(await erase({ ...fields, signatures, signInProofs: await signInProofs(v2.identity, fields.challenge, scopes) })).toBe('Success');
    expect(await verify(OLD_ZK)).toBe('Failure');
  });

  it('registers raw under v3, verifies, erases raw, and then fails to verify', async () => {
    const { didKey } = await v3Identity(privateKey, NEW);
    expect(await register(NEW)).toEqual({ 'DID already generated': false, DID: didKey.did });
    expect(await register({ ...NEW, id_info: 'V3-NEW another ID' })).toEqual({ 'DID already generated': true });
    expect(await register({ ...NEW, bio_info: 'V3-NEW another biometric' })).toEqual({ 'DID already generated': true });
    expect(await verify(NEW)).toBe('Success');
    expect(await erase({ ...NEW, id_info: 'V3-NEW another ID' })).toBe('Failure');
    expect(await erase(NEW)).toBe('Success');
    expect(await verify(NEW)).toBe('Failure');
    expect(await resolves(didKey.did)).toBe(410);
  });

  it("erases a v3 identity with the zero-knowledge v3 body, after refusing a wrong y_id, a proof for another challenge and another DID's signature", async () => {
    const [zk, other] = await Promise.all([v3Identity(privateKey, ZK), v3Identity(privateKey, OTHER)]);
    expect(await register(ZK)).toEqual({ 'DID already generated': false, DID: zk.didKey.did });
    expect(await register(OTHER)).toEqual({ 'DID already generated': false, DID: other.didKey.did });
    const { scopes } = (await (await fetch(`${server().url}/erase/sign-in-scopes`)).json()) as { scopes: string[] };
    expect(scopes).toHaveLength(1);

    // Well formed and well signed, but y_id is not the ID's: no row holds that tag, a Failure (its challenge spent).
    expect(await erase(await v3ErasureBody(zk, await challenge(), scopes, { idOutput: String(zk.outputId + 1n) }))).toBe('Failure');

    // A proof for another challenge, as it was made, then with its message and scope rewritten: 400s.
    const first = await challenge();
    const honest = await v3ErasureBody(zk, first, scopes);
    const second = await challenge();
    // The second challenge's proofs, made once; as in v2, a body without its sign-in proofs goes no further.
    const [proven, ownSecond] = [await signInProofs(zk, second, scopes), await ownGroupProof(zk, second, second)];
    const forSecond = (forged: Parameters<typeof v3ErasureBody>[3]) =>
      v3ErasureBody(zk, second, scopes, { signInProofs: proven, ownProof: ownSecond, ...forged });
    expect(await erase(await forSecond({ ownProof: honest.ownProof }))).toBe('400 ERASURE_PROOF_MISMATCH');
    const rewritten = { ...honest.ownProof, message: second, scope: second };
    expect(await erase(await forSecond({ ownProof: rewritten, signInProofs: [] }))).toBe('400 SIGN_IN_PROOFS_MISMATCH');
    expect(await erase(await forSecond({ ownProof: rewritten }))).toBe('400 INVALID_PROOF');
    // Every other field of the own proof is checked too: the root (another identity's proof, in its
    // own group), the scope (a proof for this message at another scope) and the depth.
    const [othersProof, otherScope] = [await ownGroupProof(other, second, second), await ownGroupProof(zk, second, '4242')];
    for (const ownProof of [othersProof, otherScope, { ...rewritten, merkleTreeDepth: 2 }]) {
      expect(await erase(await forSecond({ ownProof }))).toBe('400 ERASURE_PROOF_MISMATCH');
    }

    // Another DID's signature under the named DID's key: a 400.
    expect(await erase(await forSecond({ signer: other.didKey.secretKey }))).toBe('400 INVALID_SIGNATURE');
    expect(await verify(ZK)).toBe('Success');
    expect(await verify(OTHER)).toBe('Success');

    // The first challenge is still unspent (every refusal above used the second): the honest body erases.
    expect(await erase(honest)).toBe('Success');
    expect(await erase(honest)).toBe('400 CHALLENGE_UNUSABLE');
    expect(await verify(ZK)).toBe('Failure');
    expect(await resolves(zk.didKey.did)).toBe(410);
    expect(await verify(OTHER)).toBe('Success');

    if (database === 'SQLite') {
      // Decision 034 holds under v3: once the erasures are answered, no file under DATA_DIR holds any
      // form of an erased value, of either version; a member not erased is found, so the scan sees.
      const values = ({ commitment, idTag, didKey }: V3Identity) => ({ commitment, idTag, did: didKey.did });
      const erased = [await v2Identity(OLD), await v2Identity(OLD_ZK), values(await v3Identity(privateKey, NEW)), values(zk)];
      expect(findBytes(sqliteDir, erased)).toEqual([]);
      expect(findBytes(sqliteDir, [values(other)]).length).toBeGreaterThan(0);
    }
  });
});
