import type { Identity } from '@semaphore-protocol/identity';
import { generateProof, type SemaphoreProof } from '@semaphore-protocol/proof';
import {
  blindOprfInput,
  deriveDidKey,
  deriveIdTag,
  deriveIdentity,
  memberBucket,
  normaliseInput,
  sessionMessage,
  signRegistration,
  type OprfDomain,
} from '@zeroid/protocol';
import type { FastifyInstance } from 'fastify';

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

/**
 * The browser's zero-knowledge flow, driven in Node through `inject()` with the same protocol code:
 * OPRF round with DLEQ check, derivation, signed registration, bucket lookup, proof, verification.
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

  async register(idInfo: string, bioInfo: string) {
    const { identity, didKey, idTag } = await this.derive(idInfo, bioInfo);
    const fields = { commitment: identity.commitment.toString(), idTag, did: didKey.did, challenge: await this.challenge() };
    const signatures = signRegistration(identity, didKey.secretKey, fields);
    return this.post('/register', { ...fields, signatures });
  }

  /** Makes a proof for the biometric, or undefined when its commitment is not in its bucket. */
  async prove(bioInfo: string, challenge?: string, session?: string): Promise<SemaphoreProof | undefined> {
    return this.proveIdentity(deriveIdentity(await this.oprf('bio', bioInfo)), challenge, session);
  }

  /** Makes a proof for any Semaphore identity, derived from a biometric or not. */
  async proveIdentity(identity: Identity, challenge?: string, session?: string): Promise<SemaphoreProof | undefined> {
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
    const nonce = challenge ?? (await this.challenge());
    const merkleProof = { root: BigInt(root), leaf: identity.commitment, index: member.proofIndex, siblings: member.siblings.map(BigInt) };
    const message = session === undefined ? nonce : sessionMessage(nonce, session);
    return generateProof(identity, merkleProof, message, nonce, depth, {
      wasm: this.artifacts.get(`semaphore-${depth}.wasm`)!.path,
      zkey: this.artifacts.get(`semaphore-${depth}.zkey`)!.path,
    });
  }

  /**
   * An erasure's sign-in proofs (decision 048), as the web app makes them: one per sector of
   * GET /erase/sign-in-scopes, in the group of the identity alone (depth 1), bound to the challenge.
   */
  async erasureProofs(identity: Identity, challenge: string): Promise<SemaphoreProof[]> {
    const { scopes } = (await this.send({ method: 'GET', url: '/erase/sign-in-scopes' })).json<{ scopes: string[] }>();
    const proofs: SemaphoreProof[] = [];
    for (const scope of scopes) {
      // A fresh group each time: generateProof pads `siblings` in place.
      const ownGroup = { root: identity.commitment, leaf: identity.commitment, index: 0, siblings: [] };
      proofs.push(
        await generateProof(identity, ownGroup, challenge, scope, 1, {
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
