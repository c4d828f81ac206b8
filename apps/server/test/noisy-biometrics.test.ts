import { base64 } from '@scure/base';
import { generateOprfKeyPair } from '@zeroid/protocol';
import {
  deriveNoisyIdentity,
  irisCodeText,
  lockerInputs,
  lockerKeyPair,
  lockerOutputsWithKey,
  lockerPad,
  lockerTag,
  parseNoisyTemplate,
  templateBits,
  xorBytes,
  projectEmbedding,
  seededStream,
  syntheticFace,
  syntheticFaceReading,
  syntheticIrisCode,
  syntheticIrisReading,
  cosine,
  type IrisCode,
} from '@zeroid/protocol/noisy';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockerKey } from '../src/noisy/noisy-derivation.ts';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { openStorage } from '../src/storage/open-storage.ts';
import { usePostgres } from './support/use-postgres.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { distinctWindows, findByteWindows, type ByteForm } from './support/find-byte-windows.ts';
import { post, postJson, type Answer } from './support/post.ts';
import { removeTempDirs, tempDir } from './support/temp-dir.ts';
import { v3Identity } from './identity-v3.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';

/**
 * Noisy biometrics on the raw path (decision 084), on real server processes with
 * EXPERIMENTAL_NOISY_BIOMETRICS=true, one on SQLite and one on PostgreSQL, and one more on SQLite
 * with the flag off. The templates are the seeded synthetic ones of decision 077: an iris code of
 * 2,048 bits with its mask, and a 512-dimensional face embedding; the server's layouts are the
 * product's (20,000 lockers), so each noisy request evaluates 20,000 of them.
 */

const stream = seededStream('noisy biometrics on the server');
const EYE = syntheticIrisCode(stream);
const OTHER_EYE = syntheticIrisCode(stream);
/** Readings of EYE: two within the genuine distance (bit error rate 0.10), one far beyond it (0.35). */
const NEAR = syntheticIrisReading(EYE, 0.1, stream);
const NEAR_AGAIN = syntheticIrisReading(EYE, 0.1, stream);
const FAR = syntheticIrisReading(EYE, 0.35, stream);
const FACE = syntheticFace(stream);
const FACE_AGAIN = syntheticFaceReading(FACE, stream);
const STRANGER = syntheticFace(stream);

const vectorText = (v: Float64Array) => JSON.stringify(Array.from(v, (x) => Number(x.toFixed(6))));
const pack = (bits: Uint8Array) =>
  Buffer.from(Uint8Array.from({ length: bits.length / 8 }, (_, i) => bits.slice(i * 8, i * 8 + 8).reduce((a, b) => (a << 1) | b, 0)));
/** The fraction of bits two codes differ in where both were seen. */
function distance(a: IrisCode, b: IrisCode): number {
  let seen = 0;
  let differ = 0;
  a.bits.forEach((bit, i) => {
    if (a.valid[i] && b.valid[i]) {
      seen++;
      differ += bit ^ b.bits[i]!;
    }
  });
  return differ / seen;
}

const IRIS_PERSON = { id_info: 'NOISY-IRIS 4242', bio_info: irisCodeText(EYE) };
/** The same kind of person in base64 with no mask: the other text shape of an iris code. */
const BASE64_PERSON = { id_info: 'NOISY-B64 5151', bio_info: base64.encode(pack(OTHER_EYE.bits)) };
const FACE_PERSON = { id_info: 'NOISY-FACE 6363', bio_info: vectorText(FACE) };
const PEOPLE = [IRIS_PERSON, BASE64_PERSON, FACE_PERSON];

let privateKey: Uint8Array;
let artifacts: Artifacts;
const postgres = usePostgres();
const dirs: Record<string, string> = {};
const servers: Record<string, ServerProcess> = {};

beforeAll(async () => {
  ({ privateKey } = await generateOprfKeyPair());
  artifacts = await Artifacts.load();
  const env = {
    OPRF_PRIVATE_KEY: Buffer.from(privateKey).toString('base64url'),
    DERIVATION_THREADS: '1',
    PROOF_VERIFIER_THREADS: '1',
    // Each test's requests name their own client, so one test's failed guesses never throttle another's.
    TRUST_PROXY: 'true',
  };
  dirs.SQLite = tempDir('zeroid-noisy-');
  dirs.off = tempDir('zeroid-noisy-off-');
  // The attempt limits on (the test servers' default turns them off), with two failed verifications
  // before an hour's wait: the budget tests below, whatever the machine's load.
  const noisy = {
    ...env,
    EXPERIMENTAL_NOISY_BIOMETRICS: 'true',
    RATE_LIMIT_PER_MINUTE: '600',
    FAILED_VERIFICATIONS_BEFORE_DELAY: '2',
    GUESS_DELAY_SECONDS: '3600',
  };
  const [sqlite, pg, off] = await Promise.all([
    startServerProcess({ ...noisy, DATA_DIR: dirs.SQLite }, { readyTimeoutMs: 120_000 }),
    startServerProcess({ ...noisy, DATABASE_URL: postgres.url, DATA_DIR: tempDir('zeroid-noisy-pg-') }, { readyTimeoutMs: 120_000 }),
    startServerProcess({ ...env, DATA_DIR: dirs.off }, { readyTimeoutMs: 120_000 }),
  ]);
  Object.assign(servers, { SQLite: sqlite, PostgreSQL: pg, off });
}, 240_000);

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
  removeTempDirs();
  await (globalThis as { curve_bn128?: { terminate(): Promise<void> } }).curve_bn128?.terminate();
});

let clients = 0;
/** A POST from a client of its own (X-Forwarded-For behind the trusted proxy). */
const send = (server: ServerProcess, route: string, body: object, client = `198.51.100.${++clients}`) =>
  postJson(server, route, body, { 'x-forwarded-for': client });
/** A verification's verdict, or the refusal's status and code. */
const verdictOf = ({ status, body }: { status: number; body: Answer }) =>
  status === 200 ? String(body['Verification Result']) : `${status} ${body.error?.code}`;

it('uses readings at the distances it says', () => {
  expect(distance(EYE, NEAR)).toBeGreaterThan(0.08);
  expect(distance(EYE, NEAR)).toBeLessThan(0.12);
  expect(distance(EYE, FAR)).toBeGreaterThan(0.3);
  expect(distance(EYE, OTHER_EYE)).toBeGreaterThan(0.4);
  expect(cosine(FACE, FACE_AGAIN)).toBeGreaterThan(0.55);
  expect(Math.abs(cosine(FACE, STRANGER))).toBeLessThan(0.2);
});

describe.each(['SQLite', 'PostgreSQL'])('with EXPERIMENTAL_NOISY_BIOMETRICS on %s', (database) => {
  const server = () => servers[database]!;
  const register = async (person: object) => (await send(server(), '/register', person)).body;
  const verify = async (bio_info: string) => (await send(server(), '/verify', { bio_info })).body['Verification Result'];

  it(
    'registers an iris code, and a reading within the genuine distance verifies while one beyond it does not',
    { timeout: 240_000 },
    async () => {
      const registered = await register(IRIS_PERSON);
      expect(registered).toMatchObject({ 'DID already generated': false, DID: expect.stringMatching(/^did:key:z6Mk/) });
      // Not the DID the exact text would give: the identity is the lockers' seed's.
      expect(registered.DID).not.toBe((await v3Identity(privateKey, IRIS_PERSON)).didKey.did);
      expect(await verify(irisCodeText(NEAR))).toBe('Success');
      // Sent at once, beyond what the process holds (two noisy requests a derivation thread, one
      // thread here): the third is refused at once with a 503 and Retry-After, and the two it holds
      // are answered, with their verdicts.
      const answers = await Promise.all(
        [FAR, OTHER_EYE, syntheticIrisCode(stream)].map((code) =>
          post(server(), '/verify', { bio_info: irisCodeText(code) }, { 'x-forwarded-for': `198.51.100.${++clients}` }),
        ),
      );
      const verdicts = await Promise.all(
        answers.map(async (answer) => verdictOf({ status: answer.status, body: (await answer.json()) as Answer })),
      );
      expect(verdicts.sort()).toEqual(['503 NOISY_BUSY', 'Failure', 'Failure']);
      expect(Number(answers.find((answer) => answer.status === 503)!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    },
  );

  it('opens an identity that the unchanged zero-knowledge membership proof proves', { timeout: 240_000 }, async () => {
    // This test holds the server's key, as only the server does: it opens the lockers a new reading
    // repeats, as a raw verification does, and proves the seed's identity the way the web app proves any.
    const template = parseNoisyTemplate(irisCodeText(NEAR))!;
    const outputs = lockerOutputsWithKey(lockerInputs(templateBits(template)), lockerKeyPair(privateKey).secretKey);
    const pads = new Map(
      outputs.flatMap((output, j) => (output ? [[Buffer.from(lockerKey(j, lockerTag(output))).toString('hex'), lockerPad(output)]] : [])),
    );
    const storage = await openStorage(database === 'SQLite' ? { dataDir: dirs.SQLite! } : { databaseUrl: postgres.url, dataDir: '' });
    const stored = await storage.noisyLockers.find([...pads.keys()].map((key) => Buffer.from(key, 'hex')));
    await storage.close();
    const seeds = new Set(
      stored.map(({ key, seal }) => Buffer.from(xorBytes(seal, pads.get(Buffer.from(key).toString('hex'))!)).toString('hex')),
    );
    expect(seeds.size).toBe(1);
    const identity = deriveNoisyIdentity(Buffer.from([...seeds][0]!, 'hex'));
    const zk = new ZkTestClient(viaHttp(server().url), artifacts);
    const proof = await zk.proveIdentity({ secretScalar: identity.secretScalar, commitment: BigInt(identity.commitment) });
    expect(proof).toBeDefined();
    expect((await zk.verify(proof)).json()).toEqual({ 'Verification Result': 'Success' });
  });

  it('refuses a second registration of the same eye from a new reading, under another ID', { timeout: 240_000 }, async () => {
    // One client: each noisy registration is one failure under the throttle, which allows two here.
    const prober = `192.0.2.${++clients}`;
    expect(
      (await send(server(), '/register', { id_info: 'NOISY-IRIS another ID', bio_info: irisCodeText(NEAR_AGAIN) }, prober)).body,
    ).toEqual({
      'DID already generated': true,
    });
    // The same ID with another eye is refused too, by its tag, as on the exact path.
    const anotherEye = { id_info: IRIS_PERSON.id_info, bio_info: irisCodeText(syntheticIrisCode(stream)) };
    expect((await send(server(), '/register', anotherEye, prober)).body).toEqual({ 'DID already generated': true });
    // "Is this eye anyone's?" is bounded as verification is: the third registration waits.
    const third = await send(
      server(),
      '/register',
      { id_info: 'NOISY-IRIS third', bio_info: irisCodeText(syntheticIrisCode(stream)) },
      prober,
    );
    expect([third.status, third.body.error?.code]).toEqual([429, 'TOO_MANY_FAILURES']);
    // Nothing of either was written: another eye registers under that other ID.
    expect(
      await register({ id_info: 'NOISY-IRIS another ID', bio_info: base64.encode(pack(syntheticIrisCode(stream).bits)) }),
    ).toMatchObject({
      'DID already generated': false,
    });
  });

  it(
    'reads a base64 code without a mask, and refuses with a 400 a face embedding and a code of another length',
    { timeout: 240_000 },
    async () => {
      expect(await register(BASE64_PERSON)).toMatchObject({ 'DID already generated': false });
      expect(await verify(base64.encode(pack(syntheticIrisReading(OTHER_EYE, 0.1, stream).bits)))).toBe('Success');
      // A random face would verify as someone (decision 077's far_1_to_n = 1): refused, never run.
      for (const answer of [
        await send(server(), '/register', FACE_PERSON),
        await send(server(), '/verify', { bio_info: vectorText(FACE_AGAIN) }),
      ]) {
        expect(answer.status).toBe(400);
        expect(answer.body.error).toMatchObject({
          code: 'NOISY_TEMPLATE_UNSUPPORTED',
          message: expect.stringMatching(/^Face embeddings do not verify reliably enough.*decision 084/),
        });
      }
      // A registered eye padded to another length is still a template, with lockers at other places:
      // refused, not registered again. So is a mask that hides every bit.
      const [code, mask] = IRIS_PERSON.bio_info.split(':');
      for (const [bio_info, refusal] of [
        [`${code}00:${mask}ff`, 'NOISY_TEMPLATE_UNSUPPORTED'],
        [`${code}:${'0'.repeat(mask!.length)}`, 'NOISY_MASK_TOO_SPARSE'],
      ] as const) {
        const answer = await send(server(), '/register', { id_info: 'NOISY-IRIS padded', bio_info });
        expect([answer.status, answer.body.error?.code]).toEqual([400, refusal]);
        expect((await send(server(), '/verify', { bio_info })).status).toBe(400);
      }
    },
  );
});

describe('the guess budget', () => {
  it(
    'counts a noisy verification as one attempt whatever it evaluates: two failures, then the client waits',
    { timeout: 300_000 },
    async () => {
      const client = '203.0.113.84';
      const verdicts: string[] = [];
      for (let i = 0; i < 3; i++) {
        const { status, body } = await send(servers.SQLite!, '/verify', { bio_info: irisCodeText(syntheticIrisCode(stream)) }, client);
        verdicts.push(status === 200 ? String(body['Verification Result']) : `${status} ${body.error?.code}`);
      }
      // FAILED_VERIFICATIONS_BEFORE_DELAY is 2 here: each reading of 20,000 lockers was one failed attempt.
      expect(verdicts).toEqual(['Failure', 'Failure', '429 TOO_MANY_FAILURES']);
    },
  );
});

describe('a person registered from a template-shaped text before the flag was on', () => {
  it('still verifies with that text, and that text registers no noisy identity', { timeout: 240_000 }, async () => {
    const person = { id_info: 'EXACT-BEFORE 9090', bio_info: irisCodeText(syntheticIrisCode(stream)) };
    const exact = await v3Identity(privateKey, person);
    // Registered as exact text, as a server with the flag off did.
    const storage = await openStorage({ dataDir: dirs.SQLite! });
    expect((await storage.identities.register({ commitment: exact.commitment, idTag: exact.idTag, did: exact.didKey.did })).inserted).toBe(
      true,
    );
    await storage.close();
    expect(verdictOf(await send(servers.SQLite!, '/verify', { bio_info: person.bio_info }))).toBe('Success');
    expect((await send(servers.SQLite!, '/register', { id_info: 'EXACT-BEFORE another ID', bio_info: person.bio_info })).body).toEqual({
      'DID already generated': true,
    });
  });
});

describe('with the flag off', () => {
  const off = () => servers.off!;
  it(
    'reads a template as exact text, as before: the identity any text gives, and another reading fails',
    { timeout: 120_000 },
    async () => {
      for (const person of [
        { id_info: 'EXACT-IRIS 7070', bio_info: irisCodeText(EYE), reading: irisCodeText(NEAR) },
        { id_info: 'EXACT-FACE 8080', bio_info: vectorText(FACE), reading: vectorText(FACE_AGAIN) },
      ]) {
        const expected = await v3Identity(privateKey, person);
        expect((await send(off(), '/register', { id_info: person.id_info, bio_info: person.bio_info })).body).toEqual({
          'DID already generated': false,
          DID: expected.didKey.did,
        });
        expect((await send(off(), '/verify', { bio_info: person.bio_info })).body).toEqual({ 'Verification Result': 'Success' });
        expect((await send(off(), '/verify', { bio_info: person.reading })).body).toEqual({ 'Verification Result': 'Failure' });
      }
    },
  );
});

/**
 * Windows of a bit string held one bit a byte, as bytes 0/1 and as ASCII '0'/'1': 256 bits with at
 * least 10 changes of value, some 60 bits of the eye each. A shorter window of an iris code's long
 * runs turns up by chance (PostgreSQL's free-space maps are runs of small bytes).
 */
function bitWindows(name: string, bits: Uint8Array): ByteForm[] {
  const forms: ByteForm[] = [];
  for (let at = 0; at + 256 <= bits.length; at += 64) {
    const slice = bits.subarray(at, at + 256);
    if (slice.filter((bit, i) => i > 0 && bit !== slice[i - 1]).length < 10) continue;
    forms.push({ form: `${name} bits [${at}, ${at + 256})`, bytes: Buffer.from(slice) });
    forms.push({ form: `${name} bits as text [${at}, ${at + 256})`, bytes: Buffer.from(slice.join('')) });
  }
  return forms;
}

function codeForms(name: string, code: IrisCode): ByteForm[] {
  const packed = pack(code.bits);
  return [
    ...distinctWindows(`${name} code`, packed, 8),
    ...distinctWindows(`${name} mask`, pack(code.valid), 8),
    ...distinctWindows(`${name} code in hex`, Buffer.from(packed.toString('hex')), 16, 2),
    ...distinctWindows(`${name} code in HEX`, Buffer.from(packed.toString('hex').toUpperCase()), 16, 2),
    ...distinctWindows(`${name} code in base64`, Buffer.from(packed.toString('base64')), 12, 4),
    ...bitWindows(name, code.bits),
  ];
}

function vectorForms(name: string, vector: Float64Array): ByteForm[] {
  return [
    ...distinctWindows(`${name} as JSON`, Buffer.from(vectorText(vector)), 16, 4),
    ...distinctWindows(`${name} as float64`, Buffer.from(vector.buffer), 8, 8),
    ...distinctWindows(`${name} as float32`, Buffer.from(Float32Array.from(vector).buffer), 8, 4),
    ...distinctWindows(`${name} projected`, pack(projectEmbedding(vector)), 8),
    ...bitWindows(`${name} projected`, projectEmbedding(vector)),
  ];
}

describe('the stored bytes', () => {
  it(
    'hold no template, no bits of one in any encoding and no raw ID: SQLite file and WAL, PostgreSQL heap, indexes and WAL',
    { timeout: 300_000 },
    async () => {
      const forms = [
        ...codeForms('registered iris', EYE),
        ...codeForms('verified iris', NEAR),
        ...codeForms('second registration iris', NEAR_AGAIN),
        ...codeForms('base64 iris', OTHER_EYE),
        ...vectorForms('registered face', FACE),
        ...vectorForms('verified face', FACE_AGAIN),
        ...[...PEOPLE.map((p) => p.id_info), 'NOISY-IRIS another ID'].map((id) => ({ form: `ID ${id}`, bytes: Buffer.from(id) })),
      ];
      // The scan finds what it looks for: the forms are in the texts the clients sent.
      expect(forms.length).toBeGreaterThan(2000);
      expect(forms.filter(({ bytes }) => Buffer.from(IRIS_PERSON.bio_info).includes(bytes)).length).toBeGreaterThan(150);
      expect(forms.filter(({ bytes }) => Buffer.from(FACE_PERSON.bio_info).includes(bytes)).length).toBeGreaterThan(150);
      expect(findByteWindows(dirs.SQLite!, forms)).toEqual([]);
      // Every row in the data files too, not only in the WAL.
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      await client.query('CHECKPOINT');
      await client.end();
      expect(findByteWindows(postgres.dataDir, forms)).toEqual([]);
    },
  );
});
