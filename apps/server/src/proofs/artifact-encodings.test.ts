import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createArtifactEncodings } from './artifact-encodings.ts';
import type { Artifact } from './artifacts.ts';
import { removeTempDirs, tempDir } from '../../test/support/temp-dir.ts';

const dir = tempDir('zeroid-encodings-');
afterAll(removeTempDirs);

// 200 KB that compresses (as a circuit does), in a file like the pinned ones.
const bytes = Buffer.from(Array.from({ length: 20_000 }, (_, i) => `line ${i % 977};`).join(''));
const file = path.join(dir, 'semaphore-1.zkey');
writeFileSync(file, bytes);
const artifact: Artifact = {
  name: 'semaphore-1.zkey',
  path: file,
  sha256: createHash('sha256').update(bytes).digest('hex'),
  bytes: bytes.length,
  read: () => Promise.resolve(bytes),
};
const cacheDir = path.join(dir, 'cache');
const copyOf = (encoded: ReturnType<ReturnType<typeof createArtifactEncodings>['get']>) => encoded?.bytes;

describe('createArtifactEncodings', () => {
  it('answers uncompressed at first, then a brotli and a gzip copy that decode to the pinned bytes', async () => {
    const encodings = createArtifactEncodings({ cacheDir });
    expect(encodings.get(artifact, 'br')).toBeUndefined();
    expect(encodings.get(artifact, 'gzip')).toBeUndefined();
    await encodings.idle();
    const br = copyOf(encodings.get(artifact, 'br'))!;
    const gz = copyOf(encodings.get(artifact, 'gzip'))!;
    expect(zlib.brotliDecompressSync(br).equals(bytes)).toBe(true);
    expect(zlib.gunzipSync(gz).equals(bytes)).toBe(true);
    expect(br.length).toBeLessThan(bytes.length / 10);
    expect(encodings.get(artifact, 'br')).toMatchObject({ encoding: 'br', length: br.length });
    // Kept on disk too (spares compressing again after a restart), but what is sent is the checked copy in memory.
    expect(readFileSync(path.join(cacheDir, `${artifact.sha256}.br`)).equals(br)).toBe(true);
    writeFileSync(path.join(cacheDir, `${artifact.sha256}.br`), zlib.brotliCompressSync(Buffer.from('another file')));
    expect(copyOf(encodings.get(artifact, 'br'))!.equals(br)).toBe(true);
  });

  it('reuses the copy kept on disk after a restart, and replaces one that does not decode to the pinned bytes', async () => {
    const kept = path.join(cacheDir, `${artifact.sha256}.br`);
    writeFileSync(kept, zlib.brotliCompressSync(bytes));
    const writtenAt = statSync(kept).mtimeMs;
    const again = createArtifactEncodings({ cacheDir });
    expect(again.get(artifact, 'br')).toBeUndefined();
    await again.idle();
    expect(again.get(artifact, 'br')?.length).toBe(readFileSync(kept).length);
    expect(statSync(kept).mtimeMs).toBe(writtenAt);

    writeFileSync(path.join(cacheDir, `${artifact.sha256}.gzip`), zlib.gzipSync(Buffer.from('another file')));
    const afterTampering = createArtifactEncodings({ cacheDir });
    afterTampering.get(artifact, 'gzip');
    await afterTampering.idle();
    expect(zlib.gunzipSync(copyOf(afterTampering.get(artifact, 'gzip'))!).equals(bytes)).toBe(true);
  });
});
