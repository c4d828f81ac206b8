import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

const server = Array.isArray(base.webServer) ? base.webServer[0]! : base.webServer!;

/**
 * `npm run screenshots`: the same server and Chromium as the e2e tests, writing docs/screenshots/.
 * Sessions live as long as by default (the tests shorten them), so the QR screen shows what a person
 * sees, and a phone has time to verify through it.
 */
export default defineConfig({
  ...base,
  testDir: './screenshots',
  webServer: { ...server, env: { ...server.env, SESSION_TTL_SECONDS: '300' } },
});
