import { beforeAll } from 'vitest';

/**
 * Runs in every test worker before each test file (vitest `setupFiles`): checks that the zone the
 * project asked for (its `env.TZ`) is the one Node's clock really uses. A zone name Node does not
 * know silently falls back to UTC — then the far-zone runs would prove nothing.
 */
beforeAll(() => {
  const wanted = process.env.TZ;
  const actual = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (wanted && actual !== wanted)
    throw new Error(`the test worker runs in ${actual}, not TZ=${wanted}: is ${wanted} a zone this Node knows?`);
});
