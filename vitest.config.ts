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
    // Two files at a time, on the 2-core CI machine too, where Vitest's default (CPUs − 1) is one:
    // 879 s against 1,194 s for the whole suite (decision 069).
    maxWorkers: 2,
  },
});
