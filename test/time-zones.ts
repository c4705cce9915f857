/**
 * The time zones the suite runs in (issue 11), in one place for vitest.config.ts.
 *
 * Every test runs in SUITE_TIME_ZONE, the users' own zone: vitest sets TZ in each worker before a
 * test file loads, and every child process a test starts inherits it (makeTempHome copies
 * process.env.TZ), so the test and the product it spawns always agree on "local time" — whatever
 * zone the machine or CI is in.
 *
 * The tests whose outcome hangs on the local date or hour run again in FAR_TIME_ZONES: one far
 * behind UTC and one as far ahead as a zone goes, with different day boundaries from Taipei's.
 * A product that quietly uses UTC, or a test that hard-codes a Taipei date, fails there.
 * (Not the whole suite: most files never look at a clock, and a second and third full pass would
 * double CI for nothing.)
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
  'main/cli/commands/brief-commands.test.ts',
  'main/cli/commands/cron-commands.test.ts',
  'main/core/engine/context/{blocks,memory-selection,prepared-load}.test.ts',
  'main/core/hosts/hook-handlers/prepared-load.test.ts',
  'main/core/store/memory/*.test.ts',
  'main/core/store/notes/journal.test.ts',
  'main/core/store/index/recall.test.ts',
  'main/core/engine/sleep/**/*.test.ts',
  'main/core/hosts/ui-api/memory-handlers.test.ts',
  'test/cli/{recall-cli,status-cli}.test.ts',
  'test/forget/*.test.ts',
  'test/sleep/cli-planner.test.ts',
  'test/schedule/*.test.ts',
  'test/time-zone-setup.test.ts',
];
