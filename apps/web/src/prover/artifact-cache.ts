import type { ArtifactManifestReply } from '@zeroid/protocol';
import { apiUrls } from '../shared/paths.ts';
import { ApiError, requestJson } from '../shared/http.ts';

export interface ProvingArtifacts {
  wasm: Uint8Array;
  zkey: Uint8Array;
}

/** Bytes of the circuit and proving key received so far, of all of them (uncompressed sizes). */
export type DownloadProgress = (loaded: number, total: number) => void;

interface Received {
  loaded: number;
  total: number;
  listeners: Set<DownloadProgress>;
}

interface Download {
  artifacts: Promise<ProvingArtifacts>;
  received: Received;
}

const CACHE_NAME = 'zeroid-artifacts-v2';
const downloads = new Map<string, Download>();
let manifest: Promise<ArtifactManifestReply> | undefined;

/** What the server publishes of every artifact: its SHA-256 and size, asked for once per worker. */
function artifactManifest(): Promise<ArtifactManifestReply> {
  manifest ??= requestJson<ArtifactManifestReply>(apiUrls.artifactManifest());
  manifest.catch(() => (manifest = undefined));
  return manifest;
}

/**
 * The circuit and proving key for one tree depth, downloaded once and shared by whoever asks: a
 * prefetch while the person types (decision 043) and the proof that needs them. Every caller's
 * `onProgress` hears the bytes of both files together, so one bar covers the whole download. They
 * are kept in memory for this worker and in the Cache API across visits, under a URL that holds
 * their SHA-256 (the server lets such a reply be kept for good), and checked against that SHA-256
 * before snarkjs gets them as Uint8Arrays (given URLs, snarkjs would download 4 MB for every proof).
 */
export function provingArtifacts(
  depth: number,
  onProgress?: DownloadProgress,
  options: { priority?: RequestPriority } = {},
): Promise<ProvingArtifacts> {
  return sharedDownload(
    [`semaphore-${depth}.wasm`, `semaphore-${depth}.zkey`],
    `The server has no proving key for a group of this size (depth ${depth}).`,
    onProgress,
    options,
  );
}

/**
 * The registration circuit of protocol v3 (`registration-v3.wasm`) and its proving key, the same way:
 * once, shared, cached under their SHA-256 and checked against it (decision 056).
 */
export function registrationArtifacts(
  onProgress?: DownloadProgress,
  options: { priority?: RequestPriority } = {},
): Promise<ProvingArtifacts> {
  return sharedDownload(
    ['registration-v3.wasm', 'registration-v3.zkey'],
    'The server has no registration proving key.',
    onProgress,
    options,
  );
}

/** The credential registration circuit (`registration-credential.wasm`) and its proving key, the same way (decision 085). */
export function credentialRegistrationArtifacts(
  onProgress?: DownloadProgress,
  options: { priority?: RequestPriority } = {},
): Promise<ProvingArtifacts> {
  return sharedDownload(
    ['registration-credential.wasm', 'registration-credential.zkey'],
    'The server has no proving key for a credential.',
    onProgress,
    options,
  );
}

/**
 * The sign-in credential circuit (`sign-in-credential.wasm`) and its proving key, the same way
 * (decision 087): what `proveSignInCredential` takes in the prover worker.
 */
export function signInCredentialArtifacts(
  onProgress?: DownloadProgress,
  options: { priority?: RequestPriority } = {},
): Promise<ProvingArtifacts> {
  return sharedDownload(
    ['sign-in-credential.wasm', 'sign-in-credential.zkey'],
    'The server has no proving key for a credential sign-in.',
    onProgress,
    options,
  );
}

function sharedDownload(
  names: readonly [string, string],
  missing: string,
  onProgress: DownloadProgress | undefined,
  { priority = 'high' }: { priority?: RequestPriority },
): Promise<ProvingArtifacts> {
  const key = names.join(' ');
  let download = downloads.get(key);
  if (!download) {
    const received: Received = { loaded: 0, total: 0, listeners: new Set() };
    download = { artifacts: load(names, missing, received, priority), received };
    download.artifacts.catch(() => downloads.delete(key));
    downloads.set(key, download);
  }
  if (onProgress) {
    const { listeners, loaded, total } = download.received;
    listeners.add(onProgress);
    if (total > 0) onProgress(loaded, total);
    download.artifacts.then(
      () => listeners.delete(onProgress),
      () => listeners.delete(onProgress),
    );
  }
  return download.artifacts;
}

async function load(
  names: readonly [string, string],
  missing: string,
  download: Received,
  priority: RequestPriority,
): Promise<ProvingArtifacts> {
  const { files } = await artifactManifest();
  const entries = names.map((name) => {
    const entry = files[name];
    if (!entry) throw new ApiError(missing);
    return { name, ...entry };
  });
  download.total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  const received = [0, 0];
  const report = () => {
    download.loaded = received[0]! + received[1]!;
    for (const listener of download.listeners) listener(download.loaded, download.total);
  };
  report();
  const cache = await openCache();
  const [wasm, zkey] = await Promise.all(
    entries.map((entry, i) =>
      loadOne(entry, cache, priority, (n) => {
        received[i] = n;
        report();
      }),
    ),
  );
  void forgetOtherVersions(cache, files);
  return { wasm: wasm!, zkey: zkey! };
}

async function loadOne(
  entry: { name: string; sha256: string; bytes: number },
  cache: Cache | undefined,
  priority: RequestPriority,
  onBytes: (received: number) => void,
): Promise<Uint8Array> {
  const url = apiUrls.artifact(entry.name, entry.sha256);
  const cached = await cache?.match(url);
  if (cached) {
    const bytes = new Uint8Array(await cached.arrayBuffer());
    if ((await sha256Hex(bytes)) === entry.sha256) {
      onBytes(bytes.length);
      return bytes;
    }
    await cache?.delete(url);
  }

  let response: Response;
  try {
    response = await fetch(url, { priority });
  } catch {
    throw new ApiError('Could not download the proving key. Check your connection and try again.');
  }
  if (!response.ok || !response.body) throw new ApiError(`Could not download the proving key (HTTP ${response.status}).`, response.status);
  // The body arrives decompressed (brotli or gzip on the wire): the sizes and SHA-256 are of the real file.
  const bytes = await readCounting(response.body, onBytes);
  if ((await sha256Hex(bytes)) !== entry.sha256) throw new ApiError('The proving key did not arrive intact. Please try again.');
  await cache?.put(url, new Response(bytes.slice(), { headers: { 'content-type': 'application/octet-stream' } }));
  return bytes;
}

async function readCounting(body: ReadableStream<Uint8Array>, onBytes: (received: number) => void): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    onBytes(received);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** Cached files of another release (another SHA-256) are never asked for again: free their space. */
async function forgetOtherVersions(cache: Cache | undefined, files: ArtifactManifestReply['files']) {
  if (!cache) return;
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    const name = url.pathname.split('/').pop() ?? '';
    if (files[name]?.sha256 !== url.searchParams.get('sha256')) await cache.delete(request);
  }
}

async function openCache(): Promise<Cache | undefined> {
  try {
    // The first version's entries (no checksum in their URLs) are of no more use.
    void globalThis.caches?.delete('zeroid-artifacts-v1');
    return await globalThis.caches?.open(CACHE_NAME);
  } catch {
    return undefined; // no Cache API (an insecure context, say): keep the bytes in memory only
  }
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
