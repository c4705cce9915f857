import { defineConfig } from 'vitest/config';

// The e2e specs (Playwright in Debian's Chromium against a real `kioku daemon --web`). One file
// at a time: each starts a daemon and a browser, and CI machines have 2 cores.
export default defineConfig({
  test: {
    include: ['e2e/**/*.spec.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
