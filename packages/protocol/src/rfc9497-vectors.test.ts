import { afterEach, describe, expect, it, vi } from 'vitest';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import {
  DLEQProver,
  OPRFClient,
  OPRFServer,
  Oprf,
  VOPRFClient,
  VOPRFServer,
  derivePrivateKey,
  generatePublicKey,
  type ModeID,
} from '@cloudflare/voprf-ts';
import { OPRF_CRYPTO, OPRF_SUITE, oprfPublicKey } from './oprf-suite.ts';
import { OprfEvaluator } from './oprf-evaluator.ts';
import { voprfEvaluate } from './voprf-evaluate.ts';
import oprfVectors from './vectors/rfc9497-ristretto255-sha512-oprf.json' with { type: 'json' };
import voprfVectors from './vectors/rfc9497-ristretto255-sha512-voprf.json' with { type: 'json' };

// The RFC fixes the blinds and the DLEQ proof's random scalar; the library draws them at random.
// Like voprf-ts's own vector tests, we replace the two random draws with the vectors' values.
const group = Oprf.getGroup(OPRF_SUITE, OPRF_CRYPTO);
const fixBlinds = (client: OPRFClient | VOPRFClient, blinds: string[]) => {
  const spy = vi.spyOn(client, 'randomBlinder');
  for (const blind of blinds) spy.mockResolvedValueOnce(group.desScalar(hexToBytes(blind)));
};
const fixProofRandomness = (scalar: string) =>
  vi.spyOn(DLEQProver.prototype, 'randomScalar').mockResolvedValueOnce(group.desScalar(hexToBytes(scalar)));
const hexList = (items: Array<{ serialize(): Uint8Array }>) => items.map((item) => bytesToHex(item.serialize()));
const u16 = (n: number) => new Uint8Array([n >> 8, n & 0xff]);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('RFC 9497 A.1.1, ristretto255-SHA512, mode OPRF, with our crypto provider', () => {
  it('derives skSm from seed and key info', async () => {
    const skSm = await derivePrivateKey(
      Oprf.Mode.OPRF,
      OPRF_SUITE,
      hexToBytes(oprfVectors.seed),
      hexToBytes(oprfVectors.keyInfo),
      OPRF_CRYPTO,
    );
    expect(bytesToHex(skSm)).toBe(oprfVectors.skSm);
  });

  it.each(oprfVectors.vectors)('input $input: blinded element, evaluation and output match', async (vector) => {
    const client = new OPRFClient(OPRF_SUITE, OPRF_CRYPTO);
    const server = new OPRFServer(OPRF_SUITE, hexToBytes(oprfVectors.skSm), OPRF_CRYPTO);
    fixBlinds(client, [vector.blind]);
    const [finalizeData, request] = await client.blind([hexToBytes(vector.input)]);
    expect(hexList(request.blinded)).toEqual([vector.blindedElement]);
    const evaluation = await server.blindEvaluate(request);
    expect(hexList(evaluation.evaluated)).toEqual([vector.evaluationElement]);
    expect((await client.finalize(finalizeData, evaluation)).map(bytesToHex)).toEqual([vector.output]);
    expect(bytesToHex(await server.evaluate(hexToBytes(vector.input)))).toBe(vector.output);
  });
});

describe('RFC 9497 A.1.2, ristretto255-SHA512, mode VOPRF (the mode we run)', () => {
  const skSm = hexToBytes(voprfVectors.skSm);

  it('derives skSm and pkSm from seed and key info', async () => {
    const mode: ModeID = Oprf.Mode.VOPRF;
    const derived = await derivePrivateKey(mode, OPRF_SUITE, hexToBytes(voprfVectors.seed), hexToBytes(voprfVectors.keyInfo), OPRF_CRYPTO);
    expect(bytesToHex(derived)).toBe(voprfVectors.skSm);
    expect(bytesToHex(generatePublicKey(OPRF_SUITE, derived, OPRF_CRYPTO))).toBe(voprfVectors.pkSm);
    expect(bytesToHex(oprfPublicKey(derived))).toBe(voprfVectors.pkSm);
  });

  it.each(voprfVectors.vectors)('vector %#, a batch of $batch: elements, DLEQ proof and outputs match', async (vector) => {
    const client = new VOPRFClient(OPRF_SUITE, hexToBytes(voprfVectors.pkSm), OPRF_CRYPTO);
    const server = new VOPRFServer(OPRF_SUITE, skSm, OPRF_CRYPTO);
    fixBlinds(client, vector.blind);
    fixProofRandomness(vector.proofRandomScalar);
    const [finalizeData, request] = await client.blind(vector.input.map((input) => hexToBytes(input)));
    expect(hexList(request.blinded)).toEqual(vector.blindedElement);
    const evaluation = await server.blindEvaluate(request);
    expect(hexList(evaluation.evaluated)).toEqual(vector.evaluationElement);
    expect(bytesToHex(evaluation.proof!.serialize())).toBe(vector.proof);
    expect((await client.finalize(finalizeData, evaluation)).map(bytesToHex)).toEqual(vector.output);
    for (const [i, input] of vector.input.entries()) {
      expect(bytesToHex(await server.evaluate(hexToBytes(input)))).toBe(vector.output[i]);
      expect(bytesToHex(voprfEvaluate(hexToBytes(voprfVectors.skSm), hexToBytes(input)))).toBe(vector.output[i]);
    }
  });

  it('our OprfEvaluator answers the RFC request with the RFC evaluation and proof, byte for byte on the wire', async () => {
    const evaluator = new OprfEvaluator(skSm);
    expect(bytesToHex(evaluator.publicKey)).toBe(voprfVectors.pkSm);
    for (const vector of voprfVectors.vectors.filter((v) => v.batch === 1)) {
      fixProofRandomness(vector.proofRandomScalar);
      // Wire layout (voprf-ts serialize): u16 count ‖ elements, and for the reply ‖ mode byte ‖ proof (c ‖ s).
      const request = concatBytes(u16(1), hexToBytes(vector.blindedElement[0]!));
      const reply = await evaluator.blindEvaluate(request);
      expect(bytesToHex(reply)).toBe(
        bytesToHex(
          concatBytes(u16(1), hexToBytes(vector.evaluationElement[0]!), new Uint8Array([Oprf.Mode.VOPRF]), hexToBytes(vector.proof)),
        ),
      );
    }
  });
});

describe('the direct VOPRF evaluation', () => {
  it('equals voprf-ts for random keys and inputs', async () => {
    for (let i = 0; i < 40; i++) {
      const privateKey = derivePrivateKeyFromRandom();
      const input = crypto.getRandomValues(new Uint8Array(1 + ((i * 7) % 300)));
      const server = new VOPRFServer(OPRF_SUITE, await privateKey, OPRF_CRYPTO);
      expect(bytesToHex(voprfEvaluate(await privateKey, input))).toBe(bytesToHex(await server.evaluate(input)));
    }
  });
});

const derivePrivateKeyFromRandom = () =>
  derivePrivateKey(Oprf.Mode.VOPRF, OPRF_SUITE, crypto.getRandomValues(new Uint8Array(32)), new Uint8Array(0), OPRF_CRYPTO);
