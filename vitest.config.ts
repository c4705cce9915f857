import { defineConfig } from 'vitest/config';
import { FAR_TIME_ZONES, SUITE_TIME_ZONE, TIME_SENSITIVE_TESTS } from './test/time-zones.js';

// Unit and integration tests for every process. e2e (Playwright) runs separately through
// `npm run test:e2e`, which `npm test` calls at the end.
//
// Three projects (issue 11): the whole suite in the users' zone, then the date/hour-dependent
// tests again in two far zones (test/time-zones.ts says which and why). TZ is set here and only
// here: vitest puts it into each worker's process.env before a file loads (Node re-reads the
// zone on assignment), and every child process a test starts inherits it.
const shared = {
  // e2e/ and the real-client suite (test/clients, `npm run test:clients`) run on their own.
  exclude: ['node_modules/**', 'dist/**', 'e2e/**', 'test/clients/**'],
  pool: 'forks' as const,
  testTimeout: 60_000,
  hookTimeout: 60_000,
  setupFiles: ['./test/time-zone-setup.ts'],
};

const projectName = (zone: string) => zone.split('/').pop()!.toLowerCase().replace(/_/g, '-');

export default defineConfig({
  test: {
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: projectName(SUITE_TIME_ZONE),
          include: [
            'common/**/*.test.ts',
            'main/**/*.test.ts',
            'hooks/**/*.test.ts',
            'test/**/*.test.ts',
            'scripts/**/*.test.ts',
            'renderer/**/*.test.ts',
            'preload/**/*.test.ts',
          ],
          env: { TZ: SUITE_TIME_ZONE },
        },
      },
      ...FAR_TIME_ZONES.map((zone) => ({
        test: { ...shared, name: projectName(zone), include: TIME_SENSITIVE_TESTS, env: { TZ: zone } },
      })),
    ],
  },
});
