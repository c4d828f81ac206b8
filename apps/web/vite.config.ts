import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = ['/register', '/verify', '/generateQRCode', '/oprf', '/challenge', '/members', '/healthz', '/artifacts', '/did'];

// In development the API runs on the real server (npm start) and Vite proxies to it; in production
// the server serves the built files itself, from the same origin as the API.
export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: false },
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
