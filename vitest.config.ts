import { defineConfig } from 'vitest/config';

// Unit and integration tests for every process. e2e (Playwright) runs separately through
// `npm run test:e2e`, which `npm test` calls at the end.
export default defineConfig({
  test: {
    include: ['common/**/*.test.ts', 'main/**/*.test.ts', 'hooks/**/*.test.ts', 'test/**/*.test.ts', 'scripts/**/*.test.ts', 'renderer/**/*.test.ts', 'preload/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', 'e2e/**'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
