import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { EvaluationRequest, Oprf, VOPRFServer } from '@cloudflare/voprf-ts';
import { OPRF_CRYPTO, OPRF_SUITE, generateOprfKeyPair, oprfInput } from './oprf-suite.ts';
import { OprfEvaluator } from './oprf-evaluator.ts';
import { blindOprfInput } from './blind-oprf-input.ts';
import { OprfProofError, ProtocolInputError } from './errors.ts';

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

  it('rejects an evaluation downgraded to plain OPRF (mode byte 0, no proof)', async () => {
    const { privateKey, publicKey } = await generateOprfKeyPair();
    const { request, finalize } = await blindOprfInput(publicKey, 'bio', 'x');
    const honest = await new OprfEvaluator(privateKey).blindEvaluate(request);
    const downgraded = new Uint8Array([...honest.subarray(0, 34), Oprf.Mode.OPRF]);
    await expect(finalize(downgraded)).rejects.toBeInstanceOf(OprfProofError);
    await expect(finalize(honest)).resolves.toHaveLength(64);
  });

  it('rejects an evaluation whose proof was tampered with', async () => {
    const { privateKey, publicKey } = await generateOprfKeyPair();
    const { request, finalize } = await blindOprfInput(publicKey, 'bio', 'x');
    const tampered = await new OprfEvaluator(privateKey).blindEvaluate(request);
    tampered[tampered.length - 40]! ^= 1;
    await expect(finalize(tampered)).rejects.toThrow(/could not prove it used its published key/);
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
    // RFC 9496 decoding: s must be below p = 2^255 - 19, non-negative (even), and give a square.
    ['a non-canonical encoding (s = p + 1)', async () => withCount(1, hexToBytes(`ee${'ff'.repeat(30)}7f`))],
    ['a negative encoding (s = 1)', async () => withCount(1, hexToBytes(`01${'00'.repeat(31)}`))],
    ['an off-curve encoding (s = 2)', async () => withCount(1, hexToBytes(`02${'00'.repeat(31)}`))],
    ['all ones', async () => withCount(1, new Uint8Array(32).fill(0xff))],
    ['a short element', async () => withCount(1, (await valid()).subarray(2, 33))],
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

  it('accepts one valid element and answers one element, the VOPRF mode byte and a proof', async () => {
    const reply = await (await evaluator).blindEvaluate(await valid());
    expect(reply).toHaveLength(2 + 32 + 1 + 64);
    expect([reply[0], reply[1], reply[34]]).toEqual([0, 1, Oprf.Mode.VOPRF]);
  });

  it('is needed: voprf-ts alone evaluates the identity element and a whole batch', async () => {
    // Why the gate checks these itself (DESIGN §6). If voprf-ts starts refusing them, this fails and
    // the gate's own checks become a second line rather than the only one.
    const server = new VOPRFServer(OPRF_SUITE, (await generateOprfKeyPair()).privateKey, OPRF_CRYPTO);
    const identity = EvaluationRequest.deserialize(OPRF_SUITE, withCount(1, new Uint8Array(32)), OPRF_CRYPTO);
    expect(bytesToHex((await server.blindEvaluate(identity)).evaluated[0]!.serialize())).toBe('00'.repeat(32));
    const element = (await valid()).subarray(2);
    const batch = EvaluationRequest.deserialize(OPRF_SUITE, withCount(2, element, element), OPRF_CRYPTO);
    expect((await server.blindEvaluate(batch)).evaluated).toHaveLength(2);
  });
});
