import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { base64 } from '@scure/base';
import { normaliseInput } from '../normalise-input.ts';
import {
  irisCodeText,
  parseNoisyTemplate,
  projectEmbedding,
  readBiometric,
  seededStream,
  syntheticFace,
  syntheticIrisCode,
} from './index.ts';

const eye = syntheticIrisCode(seededStream('template eye'));
const codeText = irisCodeText(eye);
const [codeHex, maskHex] = codeText.split(':') as [string, string];
const faceText = JSON.stringify([...syntheticFace(seededStream('template face'))]);

describe('parseNoisyTemplate', () => {
  it('reads an iris code in hex, with and without its mask, and in base64', () => {
    const withMask = parseNoisyTemplate(codeText);
    expect(withMask).toEqual({ kind: 'code', bits: eye.bits, valid: eye.valid });
    const bare = parseNoisyTemplate(codeHex.toUpperCase());
    expect(bare?.kind === 'code' && bare.bits).toEqual(eye.bits);
    expect(bare?.kind === 'code' && bare.valid.every((v) => v === 1)).toBe(true);
    const b64 = `${base64.encode(Buffer.from(codeHex, 'hex'))} ${base64.encode(Buffer.from(maskHex, 'hex'))}`;
    expect(parseNoisyTemplate(b64)).toEqual(withMask);
  });

  it('reads a feature vector of 128 or 512 numbers', () => {
    const face = parseNoisyTemplate(faceText);
    expect(face?.kind === 'vector' && face.vector.length).toBe(512);
    expect(parseNoisyTemplate(JSON.stringify(Array.from({ length: 128 }, (_, i) => i - 64)))?.kind).toBe('vector');
  });

  it('leaves every other text alone', () => {
    for (const text of [
      'my fingerprint text',
      codeHex.slice(0, 510), // 2,040 bits: too short for an iris code
      `${codeHex}:${maskHex.slice(2)}`, // a mask of another length
      `${codeHex}:${maskHex}:${maskHex}`,
      '[1, 2, 3]', // too few dimensions
      JSON.stringify(Array.from({ length: 128 }, () => 0)),
      JSON.stringify([...Array.from({ length: 127 }, () => 1), 'x']),
      '[' + '1,'.repeat(200),
    ])
      expect(parseNoisyTemplate(text)).toBeUndefined();
  });
});

describe('the experimental flag', () => {
  it('off (the default), every text is exact text, normalised as before, templates included', () => {
    for (const text of [codeText, faceText, '  plain   text ']) {
      expect(readBiometric(text)).toEqual({ kind: 'exact', normalised: normaliseInput(text) });
      expect(readBiometric(text, { experimentalNoisy: false })).toEqual({ kind: 'exact', normalised: normaliseInput(text) });
    }
    expect(() => readBiometric('   ')).toThrow();
  });

  it('on, templates are noisy and every other text stays exact', () => {
    expect(readBiometric(codeText, { experimentalNoisy: true }).kind).toBe('noisy');
    expect(readBiometric(faceText, { experimentalNoisy: true }).kind).toBe('noisy');
    expect(readBiometric('  plain   text ', { experimentalNoisy: true })).toEqual({ kind: 'exact', normalised: 'plain text' });
  });

  it('is imported only by the server’s noisy path, which EXPERIMENTAL_NOISY_BIOMETRICS guards (decision 084)', () => {
    const root = path.resolve(import.meta.dirname, '..', '..', '..', '..');
    const importers: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (name === 'node_modules' || name === 'dist' || file === import.meta.dirname) continue;
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.(ts|tsx)$/.test(name) && /protocol\/noisy|\/noisy\/|from '\.\/noisy['/]/.test(readFileSync(file, 'utf8')))
          importers.push(path.relative(root, file));
      }
    };
    for (const home of ['apps', 'packages/protocol/src', 'e2e']) walk(path.join(root, home));
    // The server's noisy folder, the two use cases and the derivation threads that call it, and the two
    // routes that read the flag; the web app and every other flow never reach it.
    expect(importers.filter((file) => !file.startsWith('apps/server/src/noisy/') && !file.startsWith('apps/server/test/')).sort()).toEqual([
      'apps/server/src/identity/raw/raw-deriver-worker.ts',
      'apps/server/src/identity/raw/raw-deriver.ts',
      'apps/server/src/identity/register-claim.ts',
      'apps/server/src/identity/verify-claim.ts',
      'apps/server/src/routes/register.ts',
      'apps/server/src/routes/verify.ts',
    ]);
  });
});

describe('projectEmbedding', () => {
  it('is the public seeded projection: fixed bits for a fixed vector, blind to scale', () => {
    const face = syntheticFace(seededStream('projection known answer'));
    const bits = projectEmbedding(face);
    expect(bits).toHaveLength(2048);
    expect(Buffer.from(bits.slice(0, 64)).join('')).toBe('0110100001011101101100110110100000101011010101011100010110001111');
    expect(projectEmbedding(face.map((x) => x * 3.5))).toEqual(bits);
  });
});
