import type { OperationGuide } from '../openapi/operation-guide.ts';

/** GET /artifacts */
export const manifestGuide: OperationGuide = {
  tag: 'Zero-knowledge client',
  summary: 'The proving artifacts, with checksums',
  description:
    'Semaphore v4’s circuits and keys per depth, and ours, each pinned in code: `registration-v3`, `registration-credential` and `sign-in-credential` (`.wasm`, `.zkey`, `.vkey.json`; the last proves at sign-in which issuer vouches for the person). Ask for each as `/artifacts/<name>?sha256=<sha256>`: that reply may be kept for good.',
};

/** GET /artifacts/{name} */
export const artifactGuide: OperationGuide = {
  tag: 'Zero-knowledge client',
  summary: 'A circuit, proving key or verification key',
  description:
    'Brotli- or gzip-compressed as `Accept-Encoding` allows; `X-Content-SHA256` is the SHA-256 of the uncompressed file, which the client checks.',
};
