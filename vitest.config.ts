import { defineConfig } from 'vitest/config';

// One runner for the unit and integration tests of every workspace. The browser journeys in e2e/
// run under Playwright instead, against the built app and a real server.
//
// Two groups, one after the other (decision 069). The in-process suites run two files at a time (on
// 2 cores Vitest's default, CPUs − 1, is one). The suites in apps/server/test start servers, OPRF
// nodes and databases as processes and hold them to time-outs, so they run one file at a time:
// sharing the cores, a good node could miss its time-out.
const IN_PROCESS = ['packages/**/*.test.ts', 'apps/**/*.test.ts', 'apps/**/*.test.tsx', 'bench/**/*.test.ts', 'circuits/**/*.test.ts'];
const PROCESSES = ['apps/server/test/**/*.test.ts'];
const NOT_TESTS = ['**/node_modules/**', 'e2e/**', '**/dist/**'];

export default defineConfig({
  test: {
    exclude: NOT_TESTS,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'in-process',
          include: IN_PROCESS,
          exclude: [...NOT_TESTS, ...PROCESSES],
          maxWorkers: 2,
        },
      },
      { extends: true, test: { name: 'processes', include: PROCESSES, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
