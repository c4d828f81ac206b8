import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

/** `npm run screenshots`: the same server and Chromium as the e2e tests, writing docs/screenshots/. */
export default defineConfig({ ...base, testDir: './screenshots' });
