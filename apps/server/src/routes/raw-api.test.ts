import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DID_KEY_PATTERN, generateOprfKeyPair } from '@zeroid/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_METRICS_TOKEN, type TestApp } from '../../test/test-app.ts';
import { injectPost } from '../../test/support/post.ts';

const ALICE = { id_info: 'AB-123456 Alice Example', bio_info: 'ridge pattern 4411 loop whorl delta 77 arch 9' };
const BOB = { id_info: 'CD-987654 Bob Example', bio_info: 'iris crypt 19 furrow 3 collarette 88 ring 5' };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.destroy();
});

describe('POST /register (raw bodies of the specification)', () => {
  it('registers a new identity with a did:key and then answers "already registered" without echoing', async () => {
    const first = await injectPost(t, '/register', ALICE);
    expect(first.statusCode).toBe(200);
    const body = first.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(['DID', 'DID already generated']);
    expect(body['DID already generated']).toBe(false);
    expect(body.DID).toMatch(new RegExp(DID_KEY_PATTERN));

    const again = await injectPost(t, '/register', ALICE);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ 'DID already generated': true });
  });

  it('treats the same biometric with another ID, and the same ID with another biometric, as registered', async () => {
    expect((await injectPost(t, '/register', { id_info: 'ZZ-000001 Someone Else', bio_info: ALICE.bio_info })).json()).toEqual({
      'DID already generated': true,
    });
    expect((await injectPost(t, '/register', { id_info: ALICE.id_info, bio_info: 'a different biometric sample 1234' })).json()).toEqual({
      'DID already generated': true,
    });
  });

  it('normalises input, so white space and compatibility forms do not create a second identity', async () => {
    const spaced = { id_info: `  ${ALICE.id_info.replace(/ /g, '\n\t ')}  `, bio_info: `${ALICE.bio_info.replace(/ /g, '   ')}\n` };
    expect((await injectPost(t, '/register', spaced)).json()).toEqual({ 'DID already generated': true });
  });

  it('gives exactly one "false" among 50 concurrent identical registrations', async () => {
    const body = { id_info: 'RACE-42', bio_info: 'concurrent biometric sample 42' };
    const replies = await Promise.all(Array.from({ length: 50 }, () => injectPost(t, '/register', body)));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    const fresh = replies.filter((r) => r.json()['DID already generated'] === false);
    expect(fresh).toHaveLength(1);
  });
});

describe('GET /did/:did', () => {
  it('resolves a registered did:key to a DID document with its key, and 404s otherwise', async () => {
    const did = (await injectPost(t, '/register', { id_info: 'DID-1', bio_info: 'did resolution biometric' })).json().DID as string;
    const reply = await t.app.inject({ method: 'GET', url: `/did/${did}` });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toContain('application/did+ld+json');
    const document = reply.json();
    expect(document.id).toBe(did);
    expect(document.verificationMethod[0].publicKeyMultibase).toBe(did.slice('did:key:'.length));
    const unknown = await t.app.inject({ method: 'GET', url: '/did/did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK' });
    expect(unknown.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/did/not-a-did' })).statusCode).toBe(404);
  });
});

describe('POST /verify (raw body of the specification)', () => {
  it('answers Success for a registered biometric, also when typed with other white space', async () => {
    const reply = await injectPost(t, '/verify', { bio_info: ALICE.bio_info });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ 'Verification Result': 'Success' });
    expect((await injectPost(t, '/verify', { bio_info: ` ${ALICE.bio_info}\n` })).json()).toEqual({ 'Verification Result': 'Success' });
  });

  it('answers Failure with HTTP 200 for an unknown biometric', async () => {
    const reply = await injectPost(t, '/verify', { bio_info: BOB.bio_info });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ 'Verification Result': 'Failure' });
  });
});

describe('bad input gets a 4xx with {error: {code, message}}, never a 5xx', () => {
  const cases: Array<[string, { url?: string; payload: string; contentType?: string }, number, string]> = [
    ['missing bio_info', { payload: JSON.stringify({ id_info: 'x' }) }, 400, 'INVALID_REQUEST'],
    ['missing id_info', { payload: JSON.stringify({ bio_info: 'x' }) }, 400, 'INVALID_REQUEST'],
    ['empty bio_info', { payload: JSON.stringify({ id_info: 'x', bio_info: '' }) }, 400, 'INVALID_REQUEST'],
    ['white-space-only id_info', { payload: JSON.stringify({ id_info: ' \n\t ', bio_info: 'x' }) }, 400, 'EMPTY_INPUT'],
    ['number instead of text', { payload: JSON.stringify({ id_info: 42, bio_info: 'x' }) }, 400, 'INVALID_REQUEST'],
    ['null field', { payload: JSON.stringify({ id_info: null, bio_info: 'x' }) }, 400, 'INVALID_REQUEST'],
    ['over-long field', { payload: JSON.stringify({ id_info: 'x', bio_info: 'é'.repeat(9000) }) }, 400, 'INPUT_TOO_LONG'],
    ['unknown field', { payload: JSON.stringify({ id_info: 'x', bio_info: 'y', extra: 1 }) }, 400, 'INVALID_REQUEST'],
    ['duplicate key', { payload: '{"id_info":"x","bio_info":"y","bio_info":"z"}' }, 400, 'DUPLICATE_KEY'],
    ['__proto__ key', { payload: '{"id_info":"x","bio_info":"y","__proto__":{"a":1}}' }, 400, 'FORBIDDEN_KEY'],
    ['an array body', { payload: '[]' }, 400, 'INVALID_REQUEST'],
    ['a JSON string body', { payload: '"hello"' }, 400, 'INVALID_REQUEST'],
    ['not JSON', { payload: '{"id_info": secret-value' }, 400, 'INVALID_JSON'],
    ['empty body', { payload: '' }, 400, 'EMPTY_BODY'],
    ['text/plain', { payload: 'id_info=x', contentType: 'text/plain' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['form encoding', { payload: 'id_info=x&bio_info=y', contentType: 'application/x-www-form-urlencoded' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['a body over the limit', { payload: JSON.stringify({ id_info: 'x', bio_info: 'y'.repeat(70_000) }) }, 413, 'BODY_TOO_LARGE'],
    ['verify without bio_info', { url: '/verify', payload: '{}' }, 400, 'INVALID_REQUEST'],
    ['verify with a number', { url: '/verify', payload: '{"bio_info": 7}' }, 400, 'INVALID_REQUEST'],
  ];

  it.each(cases)('%s', async (_name, request, status, code) => {
    const reply = await t.app.inject({
      method: 'POST',
      url: request.url ?? '/register',
      payload: request.payload,
      headers: { 'content-type': request.contentType ?? 'application/json' },
    });
    expect(reply.statusCode).toBe(status);
    const body = reply.json();
    expect(body.error.code).toBe(code);
    expect(body.error.message).toMatch(/\w{3,}/);
    expect(body.error.message).not.toContain('secret-value');
  });

  it('names the offending field in the message', async () => {
    const reply = await injectPost(t, '/register', { id_info: 'x' });
    expect(reply.json().error.message).toBe('The field "bio_info" is required.');
  });
});

describe('GET /generateQRCode and /healthz', () => {
  it('serves a PNG', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/generateQRCode' });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('image/png');
    expect(reply.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('is ready and reports the tree', async () => {
    const reply = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({ status: 'ready', members: t.registry.size });
  });

  it('is not ready while the derivation threads warm up, nor while draining', async () => {
    const lifecycle = { warmingUp: true, draining: false };
    const starting = await startTestApp({ lifecycle });
    try {
      const warming = await starting.app.inject({ method: 'GET', url: '/healthz' });
      expect(warming.statusCode).toBe(503);
      expect(warming.headers['retry-after']).toBe('1');
      expect(warming.json().error.code).toBe('WARMING_UP');
      lifecycle.warmingUp = false;
      expect((await starting.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      lifecycle.draining = true;
      expect((await starting.app.inject({ method: 'GET', url: '/healthz' })).json().error.code).toBe('SHUTTING_DOWN');
    } finally {
      await starting.destroy();
    }
  });
});

describe('headers', () => {
  it('sets a strict CSP and no-store on API replies, and keeps CORS closed by default', async () => {
    const reply = await t.app.inject({
      method: 'POST',
      url: '/verify',
      payload: { bio_info: 'x' },
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(reply.headers['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(reply.headers['content-security-policy']).toContain("worker-src 'self' blob:");
    expect(reply.headers['content-security-policy']).toContain("object-src 'none'");
    expect(reply.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('storage and logs never hold a raw value (P2)', () => {
  it('restart keeps every identity and the same Merkle root', async () => {
    const { privateKey } = await generateOprfKeyPair();
    const first = await startTestApp({ oprfPrivateKey: privateKey });
    await first.app.inject({ method: 'POST', url: '/register', payload: BOB });
    await first.app.inject({ method: 'POST', url: '/register', payload: ALICE });
    await first.registry.catchUp();
    const root = first.registry.root;
    expect(first.registry.size).toBe(2);
    await first.close();

    const second = await startTestApp({ oprfPrivateKey: privateKey, dataDir: first.dataDir });
    expect(second.registry.size).toBe(2);
    expect(second.registry.root).toBe(root);
    expect((await second.app.inject({ method: 'POST', url: '/register', payload: BOB })).json()).toEqual({ 'DID already generated': true });
    expect((await second.app.inject({ method: 'POST', url: '/verify', payload: { bio_info: BOB.bio_info } })).json()).toEqual({
      'Verification Result': 'Success',
    });
    await second.close();
  });

  it('finds no raw ID or biometric in the database files (WAL included) or in the logs', async () => {
    const secrets = [ALICE.id_info, ALICE.bio_info, 'RACE-42', 'concurrent biometric sample 42', 'secret-value'];
    const files = readdirSync(t.dataDir).map((f) => path.join(t.dataDir, f));
    expect(files.some((f) => f.endsWith('-wal'))).toBe(true);
    const haystacks = [...files.map((f) => readFileSync(f)), Buffer.from(t.logs.join(''))];
    expect(t.logs.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      for (const haystack of haystacks) {
        expect(haystack.includes(Buffer.from(secret, 'utf8'))).toBe(false);
        expect(haystack.includes(Buffer.from(secret, 'utf16le'))).toBe(false);
      }
    }
  });
});

describe('GET /metrics', () => {
  it('counts requests, registrations, verifications and OPRF evaluations, with no request data in labels', async () => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } })).body;
    expect(text).toMatch(/zeroid_registrations_total\{mode="raw",outcome="new"\} [1-9]/);
    expect(text).toMatch(/zeroid_registrations_total\{mode="raw",outcome="existing"\} [1-9]/);
    expect(text).toMatch(/zeroid_verifications_total\{mode="raw",result="Success"\} [1-9]/);
    expect(text).toMatch(/zeroid_verifications_total\{mode="raw",result="Failure"\} [1-9]/);
    expect(text).toMatch(/zeroid_oprf_evaluations_total\{kind="direct"\} [1-9]/);
    expect(text).toMatch(/zeroid_http_requests_total\{route="\/register",method="POST",status="400"\} [1-9]/);
    expect(text).toMatch(/process_resident_memory_bytes \d+/);
    expect(text).not.toContain(ALICE.bio_info);
    expect(text).not.toContain(ALICE.id_info);
  });
});
