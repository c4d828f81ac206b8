import { apiUrls } from '../../shared/paths.ts';
import { ApiError } from '../../shared/http.ts';

export interface ProvingArtifacts {
  wasm: Uint8Array;
  zkey: Uint8Array;
}

const CACHE_NAME = 'zeroid-artifacts-v1';
const inMemory = new Map<number, Promise<ProvingArtifacts>>();

/**
 * The circuit and proving key for one tree depth, fetched once from our own server and then kept:
 * in memory for this page, and in the Cache API across visits, so a second verification downloads
 * nothing. Bytes are checked against the SHA-256 the server publishes, then handed to snarkjs as
 * Uint8Arrays (given URLs, snarkjs would download 4 MB again for every proof).
 */
export function provingArtifacts(depth: number, onProgress?: (loaded: number, total: number) => void): Promise<ProvingArtifacts> {
  let entry = inMemory.get(depth);
  if (!entry) {
    entry = Promise.all([load(`semaphore-${depth}.wasm`), load(`semaphore-${depth}.zkey`, onProgress)]).then(([wasm, zkey]) => ({
      wasm,
      zkey,
    }));
    entry.catch(() => inMemory.delete(depth));
    inMemory.set(depth, entry);
  }
  return entry;
}

async function load(name: string, onProgress?: (loaded: number, total: number) => void): Promise<Uint8Array> {
  const url = apiUrls.artifact(name);
  const cache = await openCache();
  const cached = await cache?.match(url);
  if (cached) {
    const bytes = new Uint8Array(await cached.arrayBuffer());
    const expected = cached.headers.get('x-content-sha256');
    if (expected && (await sha256Hex(bytes)) === expected) {
      onProgress?.(bytes.length, bytes.length);
      return bytes;
    }
    await cache?.delete(url);
  }

  let response: Response;
  try {
    response = await fetch(url);
  } catch {
    throw new ApiError('Could not download the proving key. Check your connection and try again.');
  }
  if (!response.ok || !response.body) throw new ApiError(`Could not download the proving key (HTTP ${response.status}).`, response.status);
  const total = Number(response.headers.get('content-length') ?? 0);
  const bytes = await readWithProgress(response.body, total, onProgress);
  const expected = response.headers.get('x-content-sha256');
  if (!expected || (await sha256Hex(bytes)) !== expected) throw new ApiError('The proving key did not arrive intact. Please try again.');
  await cache?.put(
    url,
    new Response(bytes.slice(), { headers: { 'content-type': 'application/octet-stream', 'x-content-sha256': expected } }),
  );
  return bytes;
}

async function readWithProgress(body: ReadableStream<Uint8Array>, total: number, onProgress?: (loaded: number, total: number) => void) {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    onProgress?.(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

async function openCache(): Promise<Cache | undefined> {
  try {
    return await globalThis.caches?.open(CACHE_NAME);
  } catch {
    return undefined; // no Cache API (an insecure context, say): keep the bytes in memory only
  }
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
