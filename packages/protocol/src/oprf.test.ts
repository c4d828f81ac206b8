import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { OPRFClient, OPRFServer, Oprf, derivePrivateKey, type Scalar } from '@cloudflare/voprf-ts';
import { OPRF_CRYPTO, OPRF_SUITE, generateOprfKeyPair, oprfInput } from './oprf-suite.ts';
import { OprfEvaluator } from './oprf-evaluator.ts';
import { blindOprfInput } from './blind-oprf-input.ts';
import { OprfProofError, ProtocolInputError } from './errors.ts';
import rfc from './vectors/rfc9497-ristretto255-sha512-oprf.json' with { type: 'json' };

/** A client whose blind is fixed by the test vector instead of drawn at random. */
class FixedBlindClient extends OPRFClient {
  constructor(private readonly blindBytes: Uint8Array) {
    super(OPRF_SUITE, OPRF_CRYPTO);
  }
  override randomBlinder(): Promise<Scalar> {
    return Promise.resolve(Oprf.getGroup(OPRF_SUITE, OPRF_CRYPTO).desScalar(this.blindBytes));
  }
}

describe('RFC 9497 known-answer vectors, ristretto255-SHA512, with our crypto provider', () => {
  it('derives the RFC private key from seed and key info', async () => {
    const skSm = await derivePrivateKey(Oprf.Mode.OPRF, OPRF_SUITE, hexToBytes(rfc.seed), hexToBytes(rfc.keyInfo), OPRF_CRYPTO);
    expect(bytesToHex(skSm)).toBe(rfc.skSm);
  });

  it.each(rfc.vectors)('input $input: blinded element, evaluation and output match', async (vector) => {
    const client = new FixedBlindClient(hexToBytes(vector.blind));
    const server = new OPRFServer(OPRF_SUITE, hexToBytes(rfc.skSm), OPRF_CRYPTO);
    const [finalizeData, request] = await client.blind([hexToBytes(vector.input)]);
    expect(bytesToHex(request.blinded[0]!.serialize())).toBe(vector.blindedElement);
    const evaluation = await server.blindEvaluate(request);
    expect(bytesToHex(evaluation.evaluated[0]!.serialize())).toBe(vector.evaluationElement);
    const [output] = await client.finalize(finalizeData, evaluation);
    expect(bytesToHex(output!)).toBe(vector.output);
    expect(bytesToHex(await server.evaluate(hexToBytes(vector.input)))).toBe(vector.output);
  });
});

describe('our VOPRF round', () => {
  it('gives the client exactly what the server computes directly', async () => {
    const { privateKey, publicKey } = await generateOprfKeyPair();
    const evaluator = new OprfEvaluator(privateKey);
    const { request, finalize } = await blindOprfInput(publicKey, 'bio', 'a biometric');
    const output = await finalize(await evaluator.blindEvaluate(request));
    expect(output).toHaveLength(64);
    expect(bytesToHex(output)).toBe(bytesToHex(await evaluator.evaluate('bio', 'a biometric')));
  });

  it('separates domains: the same text as ID and as biometric gives unrelated outputs', async () => {
    const evaluator = new OprfEvaluator((await generateOprfKeyPair()).privateKey);
    expect(bytesToHex(await evaluator.evaluate('bio', 'same'))).not.toBe(bytesToHex(await evaluator.evaluate('id', 'same')));
    expect(bytesToHex(oprfInput('id', 'x'))).toBe(bytesToHex(new TextEncoder().encode('zeroid:id:v1\u0000x')));
  });

  it('hides the input: two blindings of the same input look unrelated', async () => {
    const { publicKey } = await generateOprfKeyPair();
    const a = await blindOprfInput(publicKey, 'bio', 'same');
    const b = await blindOprfInput(publicKey, 'bio', 'same');
    expect(bytesToHex(a.request)).not.toBe(bytesToHex(b.request));
  });

  it('rejects an evaluation made with another key than the published one (DLEQ)', async () => {
    const published = await generateOprfKeyPair();
    const other = new OprfEvaluator((await generateOprfKeyPair()).privateKey);
    const { request, finalize } = await blindOprfInput(published.publicKey, 'bio', 'x');
    await expect(finalize(await other.blindEvaluate(request))).rejects.toBeInstanceOf(OprfProofError);
  });

  it('rejects a malformed evaluation', async () => {
    const { publicKey } = await generateOprfKeyPair();
    const { finalize } = await blindOprfInput(publicKey, 'bio', 'x');
    await expect(finalize(new Uint8Array([0, 1, 2]))).rejects.toBeInstanceOf(OprfProofError);
  });
});

describe('OprfEvaluator.blindEvaluate is a strict gate', () => {
  const withCount = (count: number, ...elements: Uint8Array[]) =>
    new Uint8Array([count >> 8, count & 0xff, ...elements.flatMap((e) => [...e])]);
  const cases: Array<[string, () => Promise<Uint8Array>]> = [
    ['the identity element', async () => withCount(1, new Uint8Array(32))],
    ['a non-canonical encoding', async () => withCount(1, new Uint8Array(32).fill(0xff))],
    [
      'an encoding that is no point',
      async () => withCount(1, hexToBytes('0100000000000000000000000000000000000000000000000000000000000000')),
    ],
    ['trailing bytes', async () => new Uint8Array([...(await valid()), 7])],
    ['two elements', async () => withCount(2, (await valid()).subarray(2), (await valid()).subarray(2))],
    ['a count that lies', async () => withCount(2, (await valid()).subarray(2))],
    ['no element', async () => withCount(0)],
    ['nothing at all', async () => new Uint8Array(0)],
  ];
  const evaluator = generateOprfKeyPair().then(({ privateKey }) => new OprfEvaluator(privateKey));
  const valid = async () => (await blindOprfInput((await evaluator).publicKey, 'id', 'x')).request;

  it.each(cases)('rejects %s', async (_name, make) => {
    await expect((await evaluator).blindEvaluate(await make())).rejects.toMatchObject({ code: 'INVALID_ELEMENT' });
    await expect((await evaluator).blindEvaluate(await make())).rejects.toBeInstanceOf(ProtocolInputError);
  });

  it('accepts one valid element', async () => {
    expect((await (await evaluator).blindEvaluate(await valid())).length).toBeGreaterThan(64);
  });
});
