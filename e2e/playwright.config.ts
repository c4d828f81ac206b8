import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { assertChromium, CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';
import { E2E_ISSUER_PUBLIC_KEY } from './tests/issuers.ts';

// Real Chromium (Debian's package), the real server on a fresh SQLite database, the freshly built app.
assertChromium();

const port = Number(process.env.E2E_PORT ?? 18181);
// Set once in the main process; the test workers inherit it, so all of them talk about one server.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'zeroid-e2e-'));
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: './tests',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: 'npm run build --workspace @zeroid/web && exec npx tsx apps/server/src/server.ts',
    cwd: path.resolve(path.dirname(new URL(import.meta.url).pathname), '..'),
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      PUBLIC_URL: baseURL,
      RATE_LIMIT_PER_MINUTE: '0',
      SESSION_TTL_SECONDS: '20',
      LOG_LEVEL: 'warn',
      // One trusted issuer, for credential.spec.ts; plain IDs are still accepted (REQUIRE_CREDENTIAL is false).
      TRUSTED_ISSUERS: `Example University=${E2E_ISSUER_PUBLIC_KEY}`,
    },
  },
});
