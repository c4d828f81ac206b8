import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Artifact } from './artifacts.ts';

export type ArtifactEncoding = 'br' | 'gzip';

const brotliCompress = promisify(zlib.brotliCompress);
const brotliDecompress = promisify(zlib.brotliDecompress);
const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

const codecs: Record<ArtifactEncoding, { compress(bytes: Buffer): Promise<Buffer>; decompress(bytes: Buffer): Promise<Buffer> }> = {
  // Quality 11 (the slowest: seconds for the circuit, docs/benchmarks.md, "Artifact compression") is paid once per file and
  // kept on disk; the proving key and circuit are what a first verification waits for on a slow link.
  br: {
    compress: (bytes) =>
      brotliCompress(bytes, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }),
    decompress: (bytes) => brotliDecompress(bytes),
  },
  gzip: { compress: (bytes) => gzip(bytes, { level: 9 }), decompress: (bytes) => gunzip(bytes) },
};

/** A compressed copy, in memory: its bytes were checked to decode to the pinned SHA-256, and are what is sent. */
export type EncodedArtifact = { encoding: ArtifactEncoding; length: number; bytes: Buffer };

export interface ArtifactEncodings {
  /**
   * The artifact compressed with `encoding` if that is ready, else undefined (the caller sends it
   * uncompressed) and it is made in the background, once.
   */
  get(artifact: Artifact, encoding: ArtifactEncoding): EncodedArtifact | undefined;
  /** Resolves once nothing is being compressed (for tests and the benchmark's warm-up). */
  idle(): Promise<void>;
}

/**
 * Brotli and gzip copies of the proving artifacts, made on first demand from the artifact's checked
 * bytes, kept in memory (what is sent: never read from disk again, decision 072) and in `cacheDir`
 * (named by the SHA-256 of the uncompressed file, so a new release never meets an old copy; it only
 * spares compressing again after a restart). A copy is used only after decompressing it gives
 * exactly the pinned SHA-256: the checksum the browser checks stays the one of the uncompressed
 * file, whatever travelled. One file is compressed at a time, on libuv's pool, so a burst of first
 * requests cannot take every core. Only files asked for are held (a few depths' in practice).
 */
export function createArtifactEncodings({ cacheDir }: { cacheDir: string }): ArtifactEncodings {
  const ready = new Map<string, EncodedArtifact>();
  const started = new Set<string>();
  let queue: Promise<void> = Promise.resolve();

  async function make(artifact: Artifact, encoding: ArtifactEncoding): Promise<void> {
    const file = path.join(cacheDir, `${artifact.sha256}.${encoding}`);
    const codec = codecs[encoding];
    const kept = await readFile(file).catch(() => undefined);
    if (kept && (await decodesTo(kept, codec, artifact.sha256))) {
      return void ready.set(key(artifact, encoding), { encoding, length: kept.length, bytes: kept });
    }
    const compressed = await codec.compress(await artifact.read());
    if (!(await decodesTo(compressed, codec, artifact.sha256))) throw new Error(`${encoding} copy of ${artifact.name} does not decode`);
    // A data directory that refuses the file only costs compressing again after a restart.
    await mkdir(cacheDir, { recursive: true })
      .then(() => writeFile(`${file}.${process.pid}.tmp`, compressed))
      .then(() => rename(`${file}.${process.pid}.tmp`, file))
      .catch(() => {});
    ready.set(key(artifact, encoding), { encoding, length: compressed.length, bytes: compressed });
  }

  return {
    get(artifact, encoding) {
      const found = ready.get(key(artifact, encoding));
      if (found) return found;
      if (!started.has(key(artifact, encoding))) {
        started.add(key(artifact, encoding));
        queue = queue.then(() =>
          make(artifact, encoding).catch(() => {
            // Served uncompressed for good: a copy that does not decode to the pinned bytes is never sent.
          }),
        );
      }
      return undefined;
    },
    idle: () => queue,
  };
}

const key = (artifact: Artifact, encoding: ArtifactEncoding) => `${artifact.name} ${encoding}`;

async function decodesTo(bytes: Buffer, codec: (typeof codecs)[ArtifactEncoding], sha256: string): Promise<boolean> {
  try {
    return (
      createHash('sha256')
        .update(await codec.decompress(bytes))
        .digest('hex') === sha256
    );
  } catch {
    return false;
  }
}
