import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { makeTempHome } from './helpers/temp-home.js';

/** The suite's zone really reaches the test and every child process it starts (issue 11). */
describe('the suite time zone', () => {
  it('is set for this worker and the same in a child process started with a temp home', () => {
    const zone = process.env.TZ;
    expect(zone, 'vitest.config.ts sets TZ for every project').toBeTruthy();
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(zone);
    const home = makeTempHome();
    try {
      const child = spawnSync(
        process.execPath,
        ['-e', 'process.stdout.write(Intl.DateTimeFormat().resolvedOptions().timeZone + " " + new Date(0).getTimezoneOffset())'],
        { env: home.env, encoding: 'utf8', timeout: 30_000 },
      );
      expect(child.stdout).toBe(`${zone} ${new Date(0).getTimezoneOffset()}`);
    } finally {
      home.cleanup();
    }
  });
});
