import type { Identity } from '@semaphore-protocol/identity';
import { generateProof, packGroth16Proof, type SemaphoreProof } from '@semaphore-protocol/proof';
import { groth16 } from 'snarkjs';
import {
  blindOprfInput,
  deriveDidKey,
  deriveIdTag,
  deriveIdentity,
  memberBucket,
  normaliseInput,
  sessionMessage,
  type OprfDomain,
} from '@zeroid/protocol';
import {
  SUITE_ID,
  blindQuery,
  decodeEvaluation,
  decodePoint,
  deriveRegistration,
  registrationStatement,
  encodePoint,
  registrationProofInput,
  registrationPublicSignals,
  unblindEvaluation,
  v3RegistrationMessage,
  verifyDleq,
  type BlindedQuery,
  type Point,
  type RegistrationV3,
  type ZkRegisterV3Body,
  signWithDid,
} from '@zeroid/protocol/v3';
import type { FastifyInstance } from 'fastify';
import { signV2Registration } from '../../../packages/protocol/test/v2-registration.ts';

/** What the client needs of a server: one request, one reply. */
export interface Reply {
  statusCode: number;
  body: string;
  json<T = any>(): T; // eslint-disable-line @typescript-eslint/no-explicit-any
}
export type Send = (request: { method: 'GET' | 'POST'; url: string; payload?: object }) => Promise<Reply>;

/** In-process, through Fastify's inject(). */
export const viaInject =
  (app: FastifyInstance): Send =>
  (request) =>
    app.inject(request);

/** Over real HTTP, to a server process. */
export const viaHttp =
  (baseUrl: string): Send =>
  async ({ method, url, payload }) => {
    const response = await fetch(baseUrl + url, {
      method,
      headers: payload ? { 'content-type': 'application/json' } : {},
      body: payload ? JSON.stringify(payload) : undefined,
    });
    const body = await response.text();
    return { statusCode: response.status, body, json: <T>() => JSON.parse(body) as T };
  };
import type { Artifacts } from '../src/proofs/artifacts.ts';

type MerklePath = { merkleProof: { root: bigint; leaf: bigint; index: number; siblings: bigint[] }; depth: number };

/**
 * One v3 OPRF round as the client keeps it: the blinded query (with its secrets), Z, the output y,
 * and in threshold mode the node answers it combined, which the registration body carries.
 */
export interface V3Round {
  query: BlindedQuery;
  evaluated: Point;
  output: bigint;
  /** Threshold mode: the node answers combined into `evaluated`, sent with the registration. */
  answers?: NonNullable<ZkRegisterV3Body['bio']['answers']>;
}

/** A proven v3 registration: the body to POST, and what the client derived and kept to make it. */
export interface ProvenRegistration {
  body: ZkRegisterV3Body;
  registration: RegistrationV3;
  bio: V3Round;
  id: V3Round;
  groupKey: Point;
}

/** What `generateProof` reads of an identity: a v3 identity has no EdDSA key, only its secret and commitment. */
export type ProvingIdentity = Pick<Identity, 'secretScalar' | 'commitment'>;
const proving = ({ secretScalar, commitment }: RegistrationV3): ProvingIdentity => ({ secretScalar, commitment: BigInt(commitment) });

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, 'base64url'));

/**
 * The browser's zero-knowledge flow, driven in Node through `inject()` or HTTP with the same protocol
 * code: protocol v3 rounds with their DLEQ check, derivation, the registration proof (snarkjs, the
 * served circuit), the DID's signature, then bucket lookup, membership proof, verification. `oprf`
 * and `derive` are the v2 round and derivation, for identities made before v3 (decision 056).
 */
export class ZkTestClient {
  private readonly send: Send;

  constructor(
    server: FastifyInstance | Send,
    private readonly artifacts: Artifacts,
  ) {
    this.send = typeof server === 'function' ? server : viaInject(server);
  }

  async oprf(domain: OprfDomain, raw: string): Promise<Uint8Array> {
    const keyReply = await this.send({ method: 'GET', url: '/oprf/public-key' });
    const publicKey = new Uint8Array(Buffer.from(keyReply.json<{ publicKey: string }>().publicKey, 'base64url'));
    const { request, finalize } = await blindOprfInput(publicKey, domain, normaliseInput(raw));
    const reply = await this.post('/oprf', { element: Buffer.from(request).toString('base64url') });
    if (reply.statusCode !== 200) throw new Error(`OPRF failed: ${reply.body}`);
    return finalize(new Uint8Array(Buffer.from(reply.json<{ evaluation: string }>().evaluation, 'base64url')));
  }

  async derive(idInfo: string, bioInfo: string) {
    const [oprfBio, oprfId] = await Promise.all([this.oprf('bio', bioInfo), this.oprf('id', idInfo)]);
    const identity = deriveIdentity(oprfBio);
    const didKey = deriveDidKey(oprfBio);
    return { identity, didKey, idTag: deriveIdTag(oprfId) };
  }

  async challenge(): Promise<string> {
    return (await this.send({ method: 'POST', url: '/challenge' })).json<{ challenge: string }>().challenge;
  }

  /** The v2 registration body (signatures of possession), which the server refuses since decision 056. */
  async v2RegistrationBody(idInfo: string, bioInfo: string) {
    const { identity, didKey, idTag } = await this.derive(idInfo, bioInfo);
    const fields = { commitment: identity.commitment.toString(), idTag, did: didKey.did, challenge: await this.challenge() };
    return { ...fields, signatures: signV2Registration(identity, didKey.secretKey, fields) };
  }

  /** The single key's v3 public key K, from GET /oprf/public-key. */
  async v3Key(): Promise<Point> {
    const reply = (await this.send({ method: 'GET', url: '/oprf/public-key' })).json<{ v3?: { publicKey: string } }>();
    const key = reply.v3 && decodePoint(bytesOf(reply.v3.publicKey));
    if (!key) throw new Error('The server publishes no v3 key');
    return key;
  }

  /**
   * One v3 OPRF round with the single key (POST /oprf, suite v3): one guess, the DLEQ proof checked,
   * unblinded. A threshold client overrides this (and `v3Key`) with the nodes' round, returning their answers.
   */
  async v3Oprf(domain: OprfDomain, raw: string, groupKey?: Point): Promise<V3Round> {
    const key = groupKey ?? (await this.v3Key());
    const query = blindQuery(domain, normaliseInput(raw));
    const reply = await this.post('/oprf', { element: base64url(encodePoint(query.blinded)), suite: SUITE_ID });
    if (reply.statusCode !== 200) throw new Error(`OPRF failed: ${reply.body}`);
    const answer = decodeEvaluation(bytesOf(reply.json<{ evaluation: string }>().evaluation));
    if (!answer || !verifyDleq(key, query.blinded, answer.evaluated, answer.proof))
      throw new Error('The v3 evaluation’s proof does not hold');
    return { query, evaluated: answer.evaluated, output: unblindEvaluation(query, key, answer.evaluated).output };
  }

  /** Both v3 rounds (or `rounds`, already made) and what they derive: the identity, its ID tag and DID. */
  async deriveV3(idInfo: string, bioInfo: string, rounds?: { bio: V3Round; id: V3Round }) {
    const groupKey = await this.v3Key();
    const [bio, id] = rounds
      ? [rounds.bio, rounds.id]
      : await Promise.all([this.v3Oprf('bio', bioInfo, groupKey), this.v3Oprf('id', idInfo, groupKey)]);
    return { bio, id, groupKey, registration: deriveRegistration(bio.output, id.output) };
  }

  /**
   * A proven v3 registration body, as the browser makes it: both rounds, the derivation, a fresh
   * challenge (or `challenge`), the Groth16 proof of the served circuit and the DID's signature.
   * `rounds` reuses earlier evaluations (a test of their reuse).
   */
  async proveRegistration(
    idInfo: string,
    bioInfo: string,
    options: { challenge?: string; rounds?: { bio: V3Round; id: V3Round } } = {},
  ): Promise<ProvenRegistration> {
    const { bio, id, registration, groupKey } = await this.deriveV3(idInfo, bioInfo, options.rounds);
    const challenge = options.challenge ?? (await this.challenge());
    const statement = registrationStatement({ bio, id }, groupKey, challenge, registration.didKey.did);
    const { proof, publicSignals } = await groth16.fullProve(
      registrationProofInput(bio.query, id.query, statement),
      this.artifacts.get('registration-v3.wasm')!.path,
      this.artifacts.get('registration-v3.zkey')!.path,
    );
    // The server builds these itself; a client that disagrees has a bug worth failing on here.
    const expected = registrationPublicSignals(registration.commitment, registration.idTagField, statement);
    if (publicSignals.join() !== expected.join()) throw new Error('The circuit’s public signals are not the statement');
    const fields = { commitment: registration.commitment, idTag: registration.idTag, did: registration.didKey.did, challenge };
    const body: ZkRegisterV3Body = {
      ...fields,
      bio: { blinded: base64url(encodePoint(bio.query.blinded)), ...(bio.answers ? { answers: bio.answers } : {}) },
      id: { blinded: base64url(encodePoint(id.query.blinded)), ...(id.answers ? { answers: id.answers } : {}) },
      proof: packGroth16Proof(proof).map(String),
      didSignature: signWithDid(v3RegistrationMessage(fields), registration.didKey.secretKey),
    };
    return { body, registration, bio, id, groupKey };
  }

  /** Registers under protocol v3 (the only zero-knowledge registration since decision 056). */
  async register(idInfo: string, bioInfo: string) {
    return this.post('/register', (await this.proveRegistration(idInfo, bioInfo)).body);
  }

  /** The v3 proving identity of a biometric (one bio round): its secret depends on y_bio alone. */
  async identityOf(bioInfo: string): Promise<ProvingIdentity> {
    // deriveRegistration wants y_id too, for the ID tag, which proving does not use.
    return proving(deriveRegistration((await this.v3Oprf('bio', bioInfo)).output, 0n));
  }

  /** Makes a proof for the biometric (its v3 identity), or undefined when its commitment is not in its bucket. */
  async prove(bioInfo: string, challenge?: string, session?: string): Promise<SemaphoreProof | undefined> {
    return this.proveIdentity(await this.identityOf(bioInfo), challenge, session);
  }

  /** Makes a proof for any Semaphore identity, derived from a biometric or not. */
  async proveIdentity(identity: ProvingIdentity, challenge?: string, session?: string): Promise<SemaphoreProof | undefined> {
    const path = await this.merklePathOf(identity);
    if (!path) return undefined;
    const nonce = challenge ?? (await this.challenge());
    return this.proveWith(identity, path, session === undefined ? nonce : sessionMessage(nonce, session), nonce);
  }

  /** A membership proof for any scope and message (a site's sign-in, as its screen makes it). */
  async proveAt(identity: ProvingIdentity, scope: string, message: string): Promise<SemaphoreProof> {
    const path = await this.merklePathOf(identity);
    if (!path) throw new Error('the commitment is not in its bucket');
    return this.proveWith(identity, path, message, scope);
  }

  /** The identity's Merkle proof from its `/members` bucket, and the depth to prove at; undefined when it is not there. */
  private async merklePathOf(identity: ProvingIdentity): Promise<MerklePath | undefined> {
    const commitment = identity.commitment.toString();
    const params = (await this.send({ method: 'GET', url: '/members' })).json<{ bucketHexChars: number; depth: number }>();
    const bucket = memberBucket(commitment, params.bucketHexChars);
    const reply = await this.send({ method: 'GET', url: `/members?bucket=${bucket}` });
    const { members, root, depth } = reply.json<{
      root: string;
      depth: number;
      members: Array<{ commitment: string; proofIndex: number; siblings: string[] }>;
    }>();
    const member = members.find((m) => m.commitment === commitment);
    if (!member) return undefined;
    const merkleProof = { root: BigInt(root), leaf: identity.commitment, index: member.proofIndex, siblings: member.siblings.map(BigInt) };
    return { merkleProof, depth };
  }

  private proveWith(identity: ProvingIdentity, { merkleProof, depth }: MerklePath, message: string, scope: string) {
    return generateProof(identity as Identity, merkleProof, message, scope, depth, {
      wasm: this.artifacts.get(`semaphore-${depth}.wasm`)!.path,
      zkey: this.artifacts.get(`semaphore-${depth}.zkey`)!.path,
    });
  }

  /**
   * An erasure's sign-in proofs (decision 048), as the web app makes them: one per sector of
   * GET /erase/sign-in-scopes, in the group of the identity alone (depth 1), bound to the challenge.
   */
  async erasureProofs(identity: ProvingIdentity, challenge: string): Promise<SemaphoreProof[]> {
    const { scopes } = (await this.send({ method: 'GET', url: '/erase/sign-in-scopes' })).json<{ scopes: string[] }>();
    const proofs: SemaphoreProof[] = [];
    for (const scope of scopes) {
      // A fresh group each time: generateProof pads `siblings` in place.
      const ownGroup = { root: identity.commitment, leaf: identity.commitment, index: 0, siblings: [] };
      proofs.push(
        await generateProof(identity as Identity, ownGroup, challenge, scope, 1, {
          wasm: this.artifacts.get('semaphore-1.wasm')!.path,
          zkey: this.artifacts.get('semaphore-1.zkey')!.path,
        }),
      );
    }
    return proofs;
  }

  verify(proof: unknown, session?: string) {
    return this.post('/verify', session === undefined ? { proof } : { proof, session });
  }

  private post(url: string, payload: object) {
    return this.send({ method: 'POST', url, payload });
  }
}
