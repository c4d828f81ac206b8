import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { constants } from 'node:zlib';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { prebuiltBn128 } from './vite-plugins/prebuilt-bn128.ts';

// sjcl (in @cloudflare/voprf-ts) requires Node's `crypto` for entropy: give it Web Crypto instead.
const nodeCryptoForBrowsers = {
  find: /^crypto$/,
  replacement: new URL('./src/shared/node-crypto-for-browsers.ts', import.meta.url).pathname,
};

// Every API path the app calls (see src/shared/paths.ts); '/sessions' carries cross-device verification.
const api = ['/register', '/verify', '/generateQRCode', '/oprf', '/challenge', '/members', '/healthz', '/artifacts', '/did', '/sessions'];

// In development the API runs on the real server (npm start) and Vite proxies to it; in production
// the server serves the built files itself, from the same origin as the API.
export default defineConfig({
  // Brotli and gzip copies of every built file beside it; the server sends the one Accept-Encoding
  // allows (decision 043): on a slow phone the prover's 870 KB script arrives as about 200 KB. Brotli
  // quality 10: 1.4 % more bytes than 11, for a third of the build's time.
  plugins: [
    react(),
    prebuiltBn128(),
    compression({
      algorithms: [defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 10 } }), 'gzip'],
      threshold: 1024,
    }),
  ],
  // The prover worker is built apart: its snarkjs takes the curve's WebAssembly prebuilt (decision 066).
  worker: { format: 'es', plugins: () => [prebuiltBn128()] },
  // The prover worker's dependencies, pre-bundled at dev start: found later, they make Vite reload
  // the page in the middle of the first registration.
  optimizeDeps: {
    include: [
      '@cloudflare/voprf-ts',
      '@cloudflare/voprf-ts/crypto-noble',
      '@noble/curves/ed25519.js',
      '@noble/hashes/hkdf.js',
      '@noble/hashes/sha2.js',
      '@noble/hashes/utils.js',
      '@scure/base',
      '@semaphore-protocol/identity',
      '@semaphore-protocol/proof',
      '@sinclair/typebox',
    ],
  },
  resolve: { alias: [nodeCryptoForBrowsers] },
  build: {
    target: 'es2022',
    sourcemap: false,
    // The largest chunk is the main thread's proving code (Semaphore, snarkjs and the curve, about
    // 690 KB, 210 KB as brotli), loaded on demand once a screen needs a proof, never by the welcome
    // page; splitting it would not fetch one byte less for that proof. The limit sits above it, so a
    // chunk that grows past it still warns.
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      // Rolldown's report of slow plugins (our worker build and prebuilt-bn128, known and measured):
      // for whoever profiles the build, not for every first \`npm start\`.
      checks: { bundlerTimings: false },
    },
  },
  server: {
    proxy: Object.fromEntries(
      api.map((path) => [
        path,
        {
          target: 'http://127.0.0.1:8080',
          bypass: (req) => (req.method === 'GET' && req.headers.accept?.includes('text/html') ? req.url : undefined),
        },
      ]),
    ),
  },
});
