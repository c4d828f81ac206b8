import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Artifacts } from '../src/proofs/artifacts.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { releaseSnarkjs } from './real-proofs.ts';
import { viaHttp, ZkTestClient } from './zk-client.ts';
import { postJson } from './support/post.ts';

/**
 * Normalisation version 2 (decision 014), against a real server process: default-ignorable code points do not make a new
 * identity, on the raw path (the server normalises) and the zero-knowledge path (the client does,
 * with the same protocol code); lone surrogates and invalid UTF-8 are a 400, not U+FFFD.
 */
let dataDir: string;
let server: ServerProcess;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'zeroid-normalisation-'));
  server = await startServerProcess({ DATA_DIR: dataDir });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
  await releaseSnarkjs();
});

/** Posts raw bytes (or text, sent as UTF-8) exactly as given. */
const postBytes = async (url: string, body: string | Uint8Array) => {
  const response = await fetch(server.url + url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
};
const utf8 = (text: string) => new TextEncoder().encode(text);
const concat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]));

describe('normalisation version 2, against a real server process', () => {
  it('gives the same identity with or without invisible characters, on the raw path', async () => {
    const first = await postJson(server, '/register', {
      id_info: 'NV-\u200b100\u00ad1',
      bio_info: 'whorl\u200d 12 \u2060delta\u034f 9\ufeff',
    });
    expect(first.body).toMatchObject({ 'DID already generated': false });
    // The same person typing it plainly, or with other invisible characters: already registered.
    expect((await postJson(server, '/register', { id_info: 'NV-1001', bio_info: 'whorl 12 delta 9' })).body).toEqual({
      'DID already generated': true,
    });
    expect((await postJson(server, '/register', { id_info: 'NV-other', bio_info: '\u200cwhorl 12 delta\ufe0f 9' })).body).toEqual({
      'DID already generated': true,
    });
    expect((await postJson(server, '/verify', { bio_info: 'whorl 12 delta 9' })).body).toEqual({ 'Verification Result': 'Success' });
  });

  it('gives the same identity with or without invisible characters, on the zero-knowledge path', async () => {
    const client = new ZkTestClient(viaHttp(server.url), await Artifacts.load());
    expect((await client.register('NV-\u200b2002', 'loop\u200b 7 arch\u00ad 3')).json()).toMatchObject({ 'DID already generated': false });
    expect((await client.register('NV-2002', 'loop 7 arch 3')).json()).toEqual({ 'DID already generated': true });
    const proof = await client.prove('loop 7 \u2060arch 3');
    expect(proof).toBeDefined();
    expect((await client.verify(proof!)).json()).toEqual({ 'Verification Result': 'Success' });
  });

  it.each([
    ['a lone high surrogate', 'x\\ud800'],
    ['another lone high surrogate (the same U+FFFD in UTF-8)', 'x\\udbff'],
    ['a lone low surrogate', '\\udc00x'],
  ])('refuses %s, escaped in JSON, with a 400 MALFORMED_TEXT that names the field', async (_name, escaped) => {
    const reply = await postBytes('/register', `{"id_info":"NV-3003","bio_info":"${escaped}"}`);
    expect(reply.status).toBe(400);
    expect(reply.json().error).toMatchObject({ code: 'MALFORMED_TEXT', message: expect.stringContaining('bio_info') });
    const verify = await postBytes('/verify', `{"bio_info":"${escaped}"}`);
    expect(verify.status).toBe(400);
    expect(verify.json().error.code).toBe('MALFORMED_TEXT');
  });

  it.each([
    ['a byte no UTF-8 has (0xFF)', [0xff]],
    ['another one (0xFE), which a lenient decoder maps to the same U+FFFD', [0xfe]],
    ['a truncated sequence', [0xe2, 0x82]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['an encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
  ])('refuses %s in the body with a 400 INVALID_UTF8, and never quotes it', async (_name, bytes) => {
    const body = concat(utf8('{"id_info":"NV-4004","bio_info":"ridge'), new Uint8Array(bytes), utf8(' 5"}'));
    const reply = await postBytes('/register', body);
    expect(reply.status).toBe(400);
    expect(reply.json().error.code).toBe('INVALID_UTF8');
    expect(reply.text).not.toContain('ridge');
  });

  it('so nothing registered under U+FFFD: the text with a real U+FFFD is new, and valid multi-byte UTF-8 is accepted', async () => {
    expect((await postJson(server, '/register', { id_info: 'NV-4004', bio_info: 'ridge\ufffd 5' })).body).toMatchObject({
      'DID already generated': false,
    });
    const body = utf8('{"id_info":"NV-5005 \u00e9\u8eab","bio_info":"ridge \u{1f600} 5"}');
    expect((await postBytes('/register', body)).json()).toMatchObject({ 'DID already generated': false });
  });
});
