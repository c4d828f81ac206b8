import { ed25519 } from '@noble/curves/ed25519.js';
import {
  deriveAll,
  didKeyFromPublicKey,
  generateOprfKeyPair,
  normaliseInput,
  OprfEvaluator,
  REPLACED_DID,
  signErasure,
} from '@zeroid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { openStorage, type StorageOptions } from '../src/storage/open-storage.ts';
import { usePostgres } from './support/use-postgres.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { postJson } from './support/post.ts';
import { rawApi } from './support/raw-api.ts';
import { stopProcesses } from './support/stop-processes.ts';
import { tempDir } from './support/temp-dir.ts';
import { v3ErasureBody, v3Identity } from './identity-v3.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';

/**
 * A v2 holder's move to v3, a DID that binds nothing, and erasure of every version (decision 073),
 * on real server processes over SQLite and PostgreSQL. Each database starts as an attack on protocol
 * v3 left it: v2 identities made by the v2 code under the server's key, and beside them the rows the
 * zero-knowledge path accepted (each a valid v3 registration, shown by `zk-registration-binding.test.ts`):
 * a stranger's registration of Bob's ID with the stranger's biometric, a new ID with Carol's
 * biometric, a person who holds v2 and v3, and people's texts registered under a random key's DID.
 */
type Person = { id_info: string; bio_info: string };
const BOB: Person = { id_info: 'MOVE-BOB 1001', bio_info: "Bob's biometric, registered under protocol v2" };
const CAROL: Person = { id_info: 'MOVE-CAROL 1002', bio_info: "Carol's biometric, registered under protocol v2" };
const STRANGER_ON_BOB: Person = { id_info: BOB.id_info, bio_info: "a stranger's own biometric" };
const NEW_ID_ON_CAROL: Person = { id_info: 'MOVE-NEW-ID 1003', bio_info: CAROL.bio_info };
/** Holds a v2 and a v3 identity of the same texts (the zero-knowledge window of decision 056). */
const PAT: Person = { id_info: 'MOVE-PAT 1004', bio_info: "Pat's biometric, in both versions" };
/** Their v3 values registered under a random key's DID: raw erasure, then zero-knowledge erasure. */
const DANA: Person = { id_info: 'MOVE-DANA 1005', bio_info: "Dana's biometric, squatted under another DID" };
const ERIN: Person = { id_info: 'MOVE-ERIN 1006', bio_info: "Erin's biometric, squatted under another DID" };
/** Moves five times at once. */
const FRANK: Person = { id_info: 'MOVE-FRANK 1007', bio_info: "Frank's biometric, registered under protocol v2" };
/** A v2 holder with a v3 squat under their ID, for the zero-knowledge move. */
const GUS: Person = { id_info: 'MOVE-GUS 1008', bio_info: "Gus's biometric, registered under protocol v2" };
/** A v2 holder who moves in the web app's way. */
const HAL: Person = { id_info: 'MOVE-HAL 1009', bio_info: "Hal's biometric, registered under protocol v2" };
/** Holds v2 and v3, and erases both with one zero-knowledge body. */
const IVY: Person = { id_info: 'MOVE-IVY 1010', bio_info: "Ivy's biometric, in both versions" };

let privateKey: Uint8Array;
let artifacts: Artifacts;
const postgres = usePostgres();
const servers: Record<string, ServerProcess> = {};

/** The three values the v2 code stored for a person, under the server's key. */
async function v2Identity(person: Person) {
  const { commitment, idTag, did } = await v2Derivation(person);
  return { commitment, idTag, did };
}

async function v2Derivation(person: Person) {
  const oprf = new OprfEvaluator(privateKey);
  const [bio, id] = await Promise.all([
    oprf.evaluate('bio', normaliseInput(person.bio_info)),
    oprf.evaluate('id', normaliseInput(person.id_info)),
  ]);
  return { ...deriveAll(bio, id), oprfId: id };
}

/** What the web app proves of a person's v2 identity to move or erase it (`V2Holding`): v2 erasure signatures over `challenge`. */
async function v2Holding(person: Person, challenge: string) {
  const v2 = await v2Derivation(person);
  const { fields, signatures } = signErasure(v2.identity, v2.didKey.secretKey, v2.oprfId, {
    commitment: v2.commitment,
    did: v2.did,
    challenge,
  });
  return { commitment: fields.commitment, did: fields.did, idProof: fields.idProof, signatures };
}

/** The three values a v3 registration of the person stores. */
async function v3Row(person: Person) {
  const { commitment, idTag, didKey } = await v3Identity(privateKey, person);
  return { commitment, idTag, did: didKey.did };
}

const randomDid = () => didKeyFromPublicKey(ed25519.getPublicKey(ed25519.utils.randomSecretKey()));

beforeAll(async () => {
  ({ privateKey } = await generateOprfKeyPair());
  artifacts = await Artifacts.load();
  const databases: Record<string, StorageOptions> = {
    SQLite: { dataDir: tempDir('zeroid-move-') },
    PostgreSQL: { databaseUrl: await postgres.createDatabase(), dataDir: '' },
  };
  const env = {
    OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url'),
    DERIVATION_THREADS: '1',
    PROOF_VERIFIER_THREADS: '1',
    GUESSES_BEFORE_DELAY: '1000',
  };
  await Promise.all(
    Object.entries(databases).map(async ([name, options]) => {
      const rows = [
        ...(await Promise.all([BOB, CAROL, PAT, FRANK, GUS, HAL, IVY].map(v2Identity))),
        ...(await Promise.all(
          [STRANGER_ON_BOB, NEW_ID_ON_CAROL, PAT, IVY, { id_info: GUS.id_info, bio_info: 'another stranger' }].map(v3Row),
        )),
        ...(await Promise.all([DANA, ERIN].map(async (person) => ({ ...(await v3Row(person)), did: randomDid() })))),
      ];
      const storage = await openStorage(options);
      await storage.identities.importBatch(rows);
      await storage.close();
      servers[name] = await startServerProcess(
        options.databaseUrl
          ? { ...env, DATABASE_URL: options.databaseUrl, DATA_DIR: tempDir('zeroid-move-pg-') }
          : { ...env, DATA_DIR: options.dataDir },
        { readyTimeoutMs: 120_000 },
      );
    }),
  );
}, 240_000);

afterAll(() => stopProcesses(Object.values(servers)));

describe.each(['SQLite', 'PostgreSQL'])('moving from v2, a bound DID and erasure of every version, on %s', (database) => {
  const server = () => servers[database]!;
  const { register, verify, erase, resolves, challenge } = rawApi(server);

  it('moves a v2 holder to v3 with their own texts on the raw path, evicting the v3 registrations made under their ID or biometric', async () => {
    const [bobV2, bobV3, squatOnBob] = await Promise.all([v2Identity(BOB), v3Row(BOB), v3Row(STRANGER_ON_BOB)]);
    expect(await verify(STRANGER_ON_BOB)).toBe('Success');
    // Someone else's v2 identity holds one of the texts: "already registered", no move.
    expect(await register({ id_info: 'MOVE-BOB another ID', bio_info: BOB.bio_info })).toEqual({ 'DID already generated': true });
    expect(await verify(BOB)).toBe('Success');

    expect(await register(BOB)).toEqual({ 'DID already generated': false, DID: bobV3.did, [REPLACED_DID]: bobV2.did });
    expect(await verify(BOB)).toBe('Success');
    expect(await resolves(bobV3.did)).toBe(200);
    expect(await resolves(bobV2.did)).toBe(410);
    // The stranger's registration under Bob's ID gave way.
    expect(await verify(STRANGER_ON_BOB)).toBe('Failure');
    expect(await resolves(squatOnBob.did)).toBe(410);
    // Moved once: Bob is now a v3 identity like any other.
    expect(await register(BOB)).toEqual({ 'DID already generated': true });
    expect(await register(STRANGER_ON_BOB)).toEqual({ 'DID already generated': true });

    // Carol: a new ID had been registered with her biometric; it gives way too.
    // (Its commitment and DID are Carol's v3 ones: her biometric's.)
    const [carolV2, carolV3] = await Promise.all([v2Identity(CAROL), v3Row(CAROL)]);
    expect(await register(CAROL)).toEqual({ 'DID already generated': false, DID: carolV3.did, [REPLACED_DID]: carolV2.did });
    expect(await verify(CAROL)).toBe('Success');
    expect(await erase(NEW_ID_ON_CAROL)).toBe('Failure');
    // The new ID is free again: its row went.
    const fresh = { id_info: NEW_ID_ON_CAROL.id_info, bio_info: 'a biometric nobody registered' };
    expect(await register(fresh)).toEqual({ 'DID already generated': false, DID: (await v3Row(fresh)).did });
    expect(await erase(CAROL)).toBe('Success');
    expect(await verify(CAROL)).toBe('Failure');
  });

  it('moves once when the same person moves five times at once: one new DID, four "already registered", and the person verifies throughout', async () => {
    const [frankV2, frankV3] = await Promise.all([v2Identity(FRANK), v3Row(FRANK)]);
    const [registrations, verifications] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => register(FRANK))),
      Promise.all(Array.from({ length: 3 }, () => verify(FRANK))),
    ]);
    expect(registrations.filter((reply) => reply['DID already generated'] === false)).toEqual([
      { 'DID already generated': false, DID: frankV3.did, [REPLACED_DID]: frankV2.did },
    ]);
    expect(registrations.filter((reply) => reply['DID already generated'] === true)).toHaveLength(4);
    // No moment with neither version: every verification made during the moves succeeded.
    expect(verifications).toEqual(['Success', 'Success', 'Success']);
    expect(await resolves(frankV2.did)).toBe(410);
    expect(await resolves(frankV3.did)).toBe(200);
  });

  it('erases every version the texts name in one erasure, and then neither verifies nor resolves', async () => {
    const [patV2, patV3] = await Promise.all([v2Identity(PAT), v3Row(PAT)]);
    expect(await verify(PAT)).toBe('Success');
    expect(await erase(PAT)).toBe('Success');
    expect(await verify(PAT)).toBe('Failure');
    expect(await resolves(patV2.did)).toBe(410);
    expect(await resolves(patV3.did)).toBe(410);
    expect(await erase(PAT)).toBe('Failure');
    // Nothing is left to block a new registration: a fresh v3 identity, no v2 to replace.
    expect(await register(PAT)).toEqual({ 'DID already generated': false, DID: patV3.did });
  });

  it('erases a registration of the texts made under another DID, raw and zero-knowledge, and the person registers again', async () => {
    const dana = await v3Row(DANA);
    expect(await register(DANA)).toEqual({ 'DID already generated': true });
    expect(await erase(DANA)).toBe('Success');
    expect(await verify(DANA)).toBe('Failure');
    expect(await register(DANA)).toEqual({ 'DID already generated': false, DID: dana.did });
    expect(await resolves(dana.did)).toBe(200);

    // The web app's body: its own proof, y_id and its DID's signature; the row was stored under another DID.
    const erin = await v3Identity(privateKey, ERIN);
    const { scopes } = (await (await fetch(`${server().url}/erase/sign-in-scopes`)).json()) as { scopes: string[] };
    expect(await register(ERIN)).toEqual({ 'DID already generated': true });
    expect(await erase(await v3ErasureBody(erin, await challenge(), scopes))).toBe('Success');
    expect(await verify(ERIN)).toBe('Failure');
    expect(await register(ERIN)).toEqual({ 'DID already generated': false, DID: erin.didKey.did });
  });

  it("moves a v2 holder in the web app's way: the v3 registration with the v2 identity proven, one transaction; refused when it would evict, and then the raw move works", async () => {
    const client = new ZkTestClient(viaHttp(server().url), artifacts);
    const [halV2, halV3] = await Promise.all([v2Identity(HAL), v3Row(HAL)]);
    const hal = await client.proveRegistration(HAL.id_info, HAL.bio_info);
    const moveHal = { ...hal.body, moveFromV2: await v2Holding(HAL, hal.body.challenge) };
    // The v2 identity's signatures are over this body's challenge: another challenge's are a 400.
    const otherChallenge = { ...hal.body, moveFromV2: await v2Holding(HAL, await challenge()) };
    expect((await postJson(server(), '/register', otherChallenge)).body.error?.code).toBe('INVALID_SIGNATURE');
    expect((await postJson(server(), '/register', moveHal)).body).toEqual({
      'DID already generated': false,
      DID: halV3.did,
      [REPLACED_DID]: halV2.did,
    });
    expect(await verify(HAL)).toBe('Success');
    expect(await resolves(halV2.did)).toBe(410);
    expect(await resolves(halV3.did)).toBe(200);
    expect(await register(HAL)).toEqual({ 'DID already generated': true });

    // Gus's ID was registered under v3 by a stranger: a move from this device cannot show that the
    // v3 values come from Gus's own texts, so it evicts no one; Gus keeps his v2 identity.
    const [gusV2, gusV3] = await Promise.all([v2Identity(GUS), v3Row(GUS)]);
    const gus = await client.proveRegistration(GUS.id_info, GUS.bio_info);
    const moveGus = await postJson(server(), '/register', { ...gus.body, moveFromV2: await v2Holding(GUS, gus.body.challenge) });
    expect([moveGus.status, moveGus.body.error?.code]).toEqual([400, 'MOVE_WOULD_EVICT']);
    expect(await verify(GUS)).toBe('Success');
    expect(await resolves(gusV2.did)).toBe(200);
    // The raw move, which sees both texts, evicts the stranger.
    expect(await register(GUS)).toEqual({ 'DID already generated': false, DID: gusV3.did, [REPLACED_DID]: gusV2.did });
    expect(await verify({ bio_info: 'another stranger' })).toBe('Failure');
  });

  it('erases a v3 and a v2 identity with one zero-knowledge body, both or neither', async () => {
    const [ivyV2, ivyV3, ivy] = await Promise.all([v2Identity(IVY), v3Row(IVY), v3Identity(privateKey, IVY)]);
    const erasure = async (holder: Person) => {
      const body = await v3ErasureBody(ivy, await challenge(), []);
      return { ...body, v2: { ...(await v2Holding(holder, body.challenge)), signInProofs: [] } };
    };
    // The v2 part names Hal's (moved, so erased) v2 identity: no row holds it, and Ivy's v3 identity stays too.
    expect(await erase(await erasure(HAL))).toBe('Failure');
    expect(await resolves(ivyV3.did)).toBe(200);
    expect(await erase(await erasure(IVY))).toBe('Success');
    expect(await verify(IVY)).toBe('Failure');
    expect(await resolves(ivyV2.did)).toBe(410);
    expect(await resolves(ivyV3.did)).toBe(410);
  });
});
