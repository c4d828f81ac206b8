import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { serveWebApp } from './web-app.ts';
import { removeTempDirs, tempDir } from '../../test/support/temp-dir.ts';

const dist = tempDir('zeroid-web-');
const script = 'console.log("the prover");'.repeat(100);
mkdirSync(path.join(dist, 'assets'));
writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>ZeroID</title>');
writeFileSync(path.join(dist, 'assets', 'prover-abc.js'), script);
writeFileSync(path.join(dist, 'assets', 'prover-abc.js.br'), zlib.brotliCompressSync(script));
writeFileSync(path.join(dist, 'assets', 'prover-abc.js.gz'), zlib.gzipSync(script));
afterAll(removeTempDirs);

describe('serveWebApp', () => {
  it('sends the build’s brotli or gzip copy as Accept-Encoding allows, immutable under assets/', async () => {
    const app = Fastify();
    await serveWebApp(app, dist);
    const get = (encoding?: string) =>
      app.inject({ method: 'GET', url: '/assets/prover-abc.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const br = await get('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await app.inject({ method: 'GET', url: '/register', headers: { accept: 'text/html' } });
    expect(page.headers['cache-control']).toBe('no-cache');
    await app.close();
  });
});
