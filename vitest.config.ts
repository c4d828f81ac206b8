import { defineConfig } from 'vitest/config';

// One runner for the unit and integration tests of every workspace. The browser journeys in e2e/
// run under Playwright instead, against the built app and a real server.
export default defineConfig({
  test: {
    include: ['packages/**/*.test.ts', 'apps/**/*.test.ts', 'apps/**/*.test.tsx', 'bench/**/*.test.ts', 'circuits/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'e2e/**', '**/dist/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
