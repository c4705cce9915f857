import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import type { StoredMemory } from '../../../../common/memory.js';
import type { Logger } from '../../platform/config/log.js';
import type { MemoryCache } from '../../store/memory/memory-cache.js';
import { createRole, planRoleChange } from '../../store/roles/role-editor.js';
import { createLoadWarmer } from './load-warmer.js';

let home: TempHome | undefined;
afterEach(() => {
  vi.useRealTimers();
  home?.cleanup();
  home = undefined;
});

/** A cache that only counts what it is asked; its lists are empty but frozen, like the real one's. */
function countingCache(roles: string[]): MemoryCache & { loads: string[] } {
  const empty = Object.freeze([]) as unknown as StoredMemory[];
  const loads: string[] = [];
  const load = (roleId: string) => {
    loads.push(roleId);
    return { memories: empty, problems: [], longTerm: empty, inbox: empty };
  };
  return {
    loads,
    load,
    loadIfWarm: load,
    warm: async () => undefined,
    roles: () => [...roles],
    warming: () => 0,
    fileStamp: () => undefined,
    close: () => undefined,
  };
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (_area: string, message: string) => lines.push(message);
  return { lines, log, info: log, warn: log, error: log };
}

function withRoles(...ids: string[]): TempHome {
  home = makeTempHome();
  const config = home.config();
  for (const id of ids) {
    const plan = planRoleChange(config, { id, name: `角色${id}`, nature: '冷靜。', vibe: '簡潔。', emoji: '✨', relationship: '同事。' });
    if (plan.kind === 'create') createRole(config, plan);
  }
  return home;
}

describe('load warmer (daemon, X-PERF)', () => {
  it('warms a role once after a burst of changes has settled, not once per change', () => {
    vi.useFakeTimers();
    const temp = withRoles('WARM01');
    const cache = countingCache(['WARM01']);
    const warmer = createLoadWarmer(cache, temp.config(), recordingLogger());
    for (let i = 0; i < 50; i++) warmer.soon('WARM01');
    expect(cache.loads).toEqual([]);
    expect(warmer.pending()).toBe(1); // the daemon's status shows it has work in hand
    vi.advanceTimersByTime(1_000);
    expect(cache.loads).toEqual(['WARM01']);
    expect(warmer.pending()).toBe(1); // the write to disk, once the files' times can tell a later change
    vi.advanceTimersByTime(5_000);
    expect(warmer.pending()).toBe(0);
    warmer.close();
  });

  it('warms every role the cache holds when asked now, and drops a pending warm it has done', () => {
    vi.useFakeTimers();
    const temp = withRoles('WARM01', 'WARM02');
    const cache = countingCache(['WARM01', 'WARM02']);
    const warmer = createLoadWarmer(cache, temp.config(), recordingLogger());
    warmer.soon('WARM02');
    warmer.now();
    vi.advanceTimersByTime(1_000);
    expect(cache.loads).toEqual(['WARM01', 'WARM02']);
  });

  it('prepares nothing, and writes nothing, for a role the cache is still reading (its warm says when it is ready)', () => {
    vi.useFakeTimers();
    const temp = withRoles('WARM01');
    const cache = { ...countingCache(['WARM01']), loadIfWarm: () => undefined };
    const warmer = createLoadWarmer(cache, temp.config(), recordingLogger());
    warmer.soon('WARM01');
    vi.advanceTimersByTime(1_000);
    expect(warmer.pending()).toBe(0); // no write to disk waiting
    vi.advanceTimersByTime(5_000);
    expect(cache.loads).toEqual([]);
    warmer.close();
  });

  it('logs a role it cannot read instead of throwing (the event itself reports it)', () => {
    const temp = withRoles('WARM01');
    const logger = recordingLogger();
    const warmer = createLoadWarmer(countingCache(['GONE01']), temp.config(), logger);
    expect(() => warmer.now()).not.toThrow();
    expect(logger.lines.join('\n')).toContain('GONE01');
  });

  it('uses the settings of the latest event it was told about', () => {
    const temp = withRoles('WARM01');
    const cache = countingCache(['WARM01']);
    const logger = recordingLogger();
    const warmer = createLoadWarmer(cache, temp.config(), logger);
    // A terminal whose roles live elsewhere: the role is not found there, which the log shows.
    warmer.remember(temp.config({ ROLE_HOME: `${temp.root}/elsewhere` }));
    warmer.now();
    expect(logger.lines.join('\n')).toContain('WARM01');
  });
});
