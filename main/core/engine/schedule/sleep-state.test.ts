import { describe, expect, it } from 'vitest';
import type { SleepStatus } from '../../../../common/hook-protocol.js';
import { createSleepState } from './sleep-state.js';

const at = (day: number, hour: number, minute = 0) => new Date(2026, 11, day, hour, minute);

function machine(start: Date) {
  let now = start;
  const state = createSleepState({ now: () => now }, () => ({ ROLE_SLEEP_START: '22:00', ROLE_SLEEP_END: '06:00' }));
  const seen: SleepStatus[] = [];
  const unsubscribe = state.subscribe((status) => seen.push(status));
  return { state, seen, unsubscribe, setNow: (d: Date) => void (now = d) };
}

const ok = (id: string) => ({ id, ok: true, processed: 2, created: 1, merged: 1, discarded: 0, forgotten: 0, left: 0 });

describe('sleep state (SLEEP-7, APP-1)', () => {
  it('is awake outside the window and asleep inside it, told to subscribers at refresh', () => {
    const m = machine(at(1, 14));
    expect(m.state.status()).toMatchObject({ state: 'awake', role: null, lastRun: null });
    m.setNow(at(1, 22, 0));
    expect(m.state.status().state).toBe('asleep'); // derived when read, never stale
    m.state.refresh();
    m.state.refresh(); // no change, no second message
    expect(m.seen.map((s) => s.state)).toEqual(['asleep']);
    m.setNow(at(2, 6, 0));
    m.state.refresh();
    expect(m.seen.map((s) => s.state)).toEqual(['asleep', 'awake']);
  });

  it('consolidating names the active role; a nap is napping; the end returns to the window state', () => {
    const m = machine(at(1, 23));
    m.state.startRun('sleep');
    m.state.startRole('ALPHA01');
    expect(m.state.status()).toMatchObject({ state: 'consolidating', role: 'ALPHA01' });
    m.state.endRole(ok('ALPHA01'));
    m.state.startRole('BETA01');
    expect(m.state.status()).toMatchObject({ state: 'consolidating', role: 'BETA01' });
    m.state.endRole(ok('BETA01'));
    m.state.endRun();
    expect(m.state.status()).toMatchObject({
      state: 'asleep',
      role: null,
      lastRun: { reason: 'sleep', ok: true, roles: [{ id: 'ALPHA01' }, { id: 'BETA01' }] },
    });

    m.setNow(at(2, 13));
    m.state.startRun('nap');
    m.state.startRole('ALPHA01');
    expect(m.state.status()).toMatchObject({ state: 'napping', role: 'ALPHA01' });
    m.state.endRole(ok('ALPHA01'));
    m.state.endRun();
    expect(m.state.status()).toMatchObject({ state: 'awake', lastRun: { reason: 'nap' } });
    expect(m.seen.map((s) => s.state)).toEqual([
      'consolidating',
      'consolidating',
      'consolidating',
      'consolidating',
      'consolidating',
      'asleep',
      'napping',
      'napping',
      'napping',
      'awake',
    ]);
  });

  it('error stays through window changes until a run succeeds', () => {
    const m = machine(at(1, 23));
    m.state.startRun('catch-up');
    m.state.startRole('ALPHA01');
    m.state.endRole({ ...ok('ALPHA01'), ok: false, error: 'planner timed out' });
    m.state.endRun();
    expect(m.state.status()).toMatchObject({
      state: 'error',
      lastRun: { ok: false, reason: 'catch-up', roles: [{ error: 'planner timed out' }] },
    });
    m.setNow(at(2, 9));
    m.state.refresh();
    expect(m.state.status().state).toBe('error');
    m.state.startRun('nap');
    m.state.startRole('ALPHA01');
    m.state.endRole(ok('ALPHA01'));
    m.state.endRun();
    expect(m.state.status().state).toBe('awake');
  });

  it('records checks and the next check time; unsubscribe stops the messages', () => {
    const m = machine(at(1, 23));
    m.state.noteCheck('sleep', 'skipped: an AI assistant is running (1)');
    m.state.setNextCheck(at(2, 0));
    const status = m.state.status();
    expect(status.lastCheck).toMatchObject({ kind: 'sleep', outcome: 'skipped: an AI assistant is running (1)' });
    expect(new Date(status.nextCheck!).getTime()).toBe(at(2, 0).getTime());
    expect(new Date(status.lastCheck!.at).getTime()).toBe(at(1, 23).getTime());
    const before = m.seen.length;
    m.unsubscribe();
    m.state.setNextCheck(undefined);
    expect(m.seen.length).toBe(before);
    expect(m.state.status().nextCheck).toBeNull();
  });

  it('a listener that throws does not stop the others', () => {
    const m = machine(at(1, 14));
    m.state.subscribe(() => {
      throw new Error('window closed');
    });
    m.state.startRun('sleep');
    expect(m.seen.at(-1)?.state).toBe('consolidating');
  });
});
