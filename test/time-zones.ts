/**
 * The time zones the suite runs in (issue 11), in one place for vitest.config.ts.
 * Design notes: docs/design-notes.md, "test/time-zones.ts".
 */
export const SUITE_TIME_ZONE = process.env.KIOKU_TEST_TZ?.trim() || 'Asia/Taipei';

/**
 * `KIOKU_TEST_TZ=America/Los_Angeles npx vitest run --project los-angeles` runs the whole suite in
 * another zone (how issue 11's "green in Los Angeles, Taipei and UTC" is checked); a far zone
 * equal to the suite's is then not run twice.
 */
export const FAR_TIME_ZONES = (['America/Los_Angeles', 'Pacific/Kiritimati'] as const).filter((zone) => zone !== SUITE_TIME_ZONE);

/** Globs, relative to the repository root: the date/hour-dependent tests. */
export const TIME_SENSITIVE_TESTS = [
  'main/core/platform/config/clock.test.ts',
  'main/core/engine/capture/{relative-dates,turn-dates}.test.ts',
  'test/capture/temporary-grants.test.ts',
  'main/core/engine/schedule/*.test.ts',
  'main/core/integrations/setup/cron-entries.test.ts',
  'main/core/integrations/setup/cron-install.test.ts',
  'main/core/engine/brief/*.test.ts',
  // The next-session preview runs SessionStart in-process, on the suite's clock and sleep window.
  'main/core/hosts/hook-handlers/session-start-preview.test.ts',
  'main/cli/commands/brief-commands.test.ts',
  'main/cli/commands/cron-commands.test.ts',
  'main/core/engine/context/{blocks,memory-selection,prepared-load}.test.ts',
  'main/core/hosts/hook-handlers/prepared-load.test.ts',
  'main/core/store/memory/*.test.ts',
  'main/core/store/notes/journal.test.ts',
  'main/core/store/index/{recall,prepare-recall}.test.ts',
  'main/core/engine/sleep/**/*.test.ts',
  'main/core/hosts/ui-api/memory-handlers.test.ts',
  'test/cli/{recall-cli,recall-daemon-parity,status-cli}.test.ts',
  'test/forget/*.test.ts',
  'test/sleep/cli-planner.test.ts',
  'test/schedule/*.test.ts',
  'test/time-zone-setup.test.ts',
  'main/core/engine/sync/*.test.ts',
  'test/sync/{sync-sleep-lease,sync-machines}.test.ts',
];
