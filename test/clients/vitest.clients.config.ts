import { defineConfig } from 'vitest/config';

// `npm run test:clients` (scripts/run-clients.mjs): the real Claude Code, Codex and Gemini CLI,
// and the MCP Inspector, against Kioku. One file at a time: each starts a daemon and a client
// that takes a core to itself, and CI machines have 2 cores. The timeouts are safety nets for
// slow starts (10–30 s a run), never budgets: no test asserts how long anything took.
export default defineConfig({
  test: {
    include: ['test/clients/**/*.clients.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
