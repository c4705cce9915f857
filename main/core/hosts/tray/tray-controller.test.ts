import { describe, expect, it } from 'vitest';
import type { Clock } from '../../platform/config/clock.js';
import { createSleepState } from '../../engine/schedule/sleep-state.js';
import { createTrayController, type TrayCommands, type TrayPort, type TrayPreferences } from './tray-controller.js';
import type { ScheduleMode, TrayAction, TrayMenuItem, TrayRole } from './tray-model.js';

/** A tray that records what it was told, and can "click" its current menu. */
function fakeTray() {
  const calls: string[] = [];
  let menu: readonly TrayMenuItem[] = [];
  let onAction: (action: TrayAction) => void = () => undefined;
  const port: TrayPort = {
    setImage: (icon) => calls.push(`image:${icon}`),
    setToolTip: (text) => calls.push(`tooltip:${text}`),
    setMenu: (items, handler) => {
      calls.push('menu');
      menu = items;
      onAction = handler;
    },
  };
  const item = (action: TrayAction) => {
    const found = menu.find((m) => m.kind === 'action' && m.action === action);
    if (!found || found.kind !== 'action') throw new Error(`no ${action} in the menu`);
    return found;
  };
  return {
    port,
    calls,
    take: () => calls.splice(0),
    item,
    /** Like a user: a disabled item cannot be clicked. */
    click(action: TrayAction) {
      if (!item(action).enabled) throw new Error(`${action} is disabled`);
      onAction(action);
    },
    tooltip: () =>
      [...calls]
        .reverse()
        .find((c) => c.startsWith('tooltip:'))
        ?.slice('tooltip:'.length),
  };
}

function fakeClock(iso: string) {
  let now = new Date(iso);
  const clock: Clock = { now: () => new Date(now.getTime()) };
  return { clock, set: (next: string) => (now = new Date(next)) };
}

function fakeTicker() {
  const ticks = new Set<() => void>();
  return {
    ticker: { every: (_ms: number, tick: () => void) => (ticks.add(tick), () => ticks.delete(tick)) },
    tick: () => [...ticks].forEach((t) => t()),
    count: () => ticks.size,
  };
}

function memoryPreferences(): TrayPreferences & { saved: Record<string, boolean> } {
  const saved: Record<string, boolean> = {};
  return {
    saved,
    schedulePaused: () => saved.paused === true,
    setSchedulePaused: (paused) => (saved.paused = paused),
    openAtLogin: () => saved.login === true,
    setOpenAtLogin: (on) => (saved.login = on),
  };
}

function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const SELICA: TrayRole = { id: 'SELICA01', name: '西莉卡', emoji: '✨' };
const WINDOW = { ROLE_SLEEP_START: '22:00', ROLE_SLEEP_END: '06:00' };

function setup(start = '2026-03-10T21:58:00') {
  const time = fakeClock(start);
  const machine = createSleepState(time.clock, () => WINDOW);
  const tray = fakeTray();
  const ticks = fakeTicker();
  const preferences = memoryPreferences();
  const log: string[] = [];
  let mode: ScheduleMode = 'running';
  let role: TrayRole | null = SELICA;
  const sleepRun = { current: deferred() };
  const commands: TrayCommands = {
    open: () => log.push('open'),
    showStatus: () => log.push('status'),
    sleepNow: () => {
      log.push('sleepNow');
      return sleepRun.current.promise;
    },
    napNow: () => {
      log.push('napNow');
      return Promise.reject(new Error('the worker script is missing'));
    },
    applySchedulePaused: (paused) => {
      log.push(paused ? 'pause' : 'resume');
      mode = paused ? 'paused' : 'running';
    },
    applyOpenAtLogin: (on) => log.push(`login:${on}`),
    quit: () => log.push('quit'),
  };
  const errors: string[] = [];
  const controller = createTrayController({
    port: tray.port,
    sleep: { status: () => machine.status(), subscribe: (listener) => machine.subscribe(() => listener()) },
    activeRole: () => role,
    scheduleMode: () => mode,
    preferences,
    commands,
    ticker: ticks.ticker,
    locale: 'zh-TW',
    onError: (message) => errors.push(message),
  });
  return { time, machine, tray, ticks, preferences, log, errors, controller, sleepRun, setRole: (next: TrayRole | null) => (role = next) };
}

describe('tray controller (APP-1, SLEEP-7)', () => {
  it('draws the tray once at start, then only what changed', () => {
    const { tray, ticks } = setup();
    expect(tray.take()).toEqual(['image:awake', 'tooltip:Kioku — 西莉卡 ✨ · 清醒中', 'menu']);
    ticks.tick();
    expect(tray.take()).toEqual([]);
  });

  it('follows the state machine through a run: consolidating, then the window state again', () => {
    const { tray, machine } = setup('2026-03-10T23:00:00');
    expect(tray.take()[0]).toBe('image:asleep');
    machine.startRun('sleep');
    expect(tray.take()).toEqual(['image:consolidating', 'tooltip:Kioku — 西莉卡 ✨ · 整理記憶中', 'menu']);
    machine.startRole('SELICA01');
    expect(tray.take()).toEqual(['tooltip:Kioku — 西莉卡 ✨ · 整理記憶中 · 正在整理 SELICA01', 'menu']);
    expect(tray.item('sleepNow').enabled).toBe(false);
    machine.endRole({ id: 'SELICA01', ok: true, processed: 3, created: 2, merged: 1, discarded: 0, forgotten: 0, left: 0 });
    expect(tray.take()).toEqual(['tooltip:Kioku — 西莉卡 ✨ · 整理記憶中', 'menu']);
    machine.endRun();
    expect(tray.take()).toEqual(['image:asleep', 'tooltip:Kioku — 西莉卡 ✨ · 睡眠中', 'menu']);
    expect(tray.item('sleepNow').enabled).toBe(true);
  });

  it('shows a nap, and an error until a later run succeeds', () => {
    const { tray, machine } = setup('2026-03-10T14:00:00');
    tray.take();
    machine.startRun('nap');
    expect(tray.take()[0]).toBe('image:napping');
    machine.endRole({
      id: 'SELICA01',
      ok: false,
      processed: 0,
      created: 0,
      merged: 0,
      discarded: 0,
      forgotten: 0,
      left: 4,
      error: 'planner timed out',
    });
    tray.take();
    machine.endRun();
    expect(tray.take()).toEqual([
      'image:error',
      'tooltip:Kioku — 西莉卡 ✨ · 發生錯誤 · 上次整理失敗：SELICA01: planner timed out',
      'menu',
    ]);
    machine.startRun('nap');
    expect(tray.take()[0]).toBe('image:napping');
    machine.endRun();
    expect(tray.take()[0]).toBe('image:awake');
  });

  it('turns asleep at the window edge on the next tick of the fake clock, without any push', () => {
    const { tray, ticks, time } = setup('2026-03-10T21:58:00');
    tray.take();
    time.set('2026-03-10T21:59:30');
    ticks.tick();
    expect(tray.take()).toEqual([]);
    time.set('2026-03-10T22:00:00');
    ticks.tick();
    expect(tray.take()).toEqual(['image:asleep', 'tooltip:Kioku — 西莉卡 ✨ · 睡眠中', 'menu']);
    time.set('2026-03-11T06:00:00');
    ticks.tick();
    expect(tray.take()[0]).toBe('image:awake');
  });

  it('picks up a new active role at the next refresh', () => {
    const { tray, ticks, setRole } = setup();
    tray.take();
    setRole({ id: 'ENGINEER01', name: '工程師', emoji: '🛠️' });
    ticks.tick();
    expect(tray.tooltip()).toBe('Kioku — 工程師 🛠️ · 清醒中');
    setRole(null);
    ticks.tick();
    expect(tray.tooltip()).toBe('Kioku — 尚未選擇角色 · 清醒中');
  });

  it('runs the menu commands', () => {
    const { tray, log } = setup();
    tray.click('open');
    tray.click('status');
    tray.click('quit');
    expect(log).toEqual(['open', 'status', 'quit']);
  });

  it('"sleep now" rests both buttons until the run it started has ended', async () => {
    const { tray, log, sleepRun } = setup();
    tray.click('sleepNow');
    expect(log).toEqual(['sleepNow']);
    expect(tray.item('sleepNow').enabled).toBe(false);
    expect(tray.item('napNow').enabled).toBe(false);
    expect(() => tray.click('sleepNow')).toThrow('disabled');
    sleepRun.current.resolve();
    await sleepRun.current.promise;
    await new Promise((resolve) => setImmediate(resolve));
    expect(tray.item('sleepNow').enabled).toBe(true);
  });

  it('a failed "nap now" is reported, never thrown, and frees the buttons again', async () => {
    const { tray, errors } = setup();
    tray.click('napNow');
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual(['tray: nap now failed: the worker script is missing']);
    expect(tray.item('napNow').enabled).toBe(true);
  });

  it('pausing the schedule saves the choice, stops the scheduler and says so; resuming undoes it', () => {
    const { tray, log, preferences } = setup();
    tray.click('toggleSchedule');
    expect(log).toEqual(['pause']);
    expect(preferences.saved.paused).toBe(true);
    expect(tray.item('toggleSchedule').label).toBe('恢復排程');
    expect(tray.tooltip()).toBe('Kioku — 西莉卡 ✨ · 清醒中 · 排程已暫停');
    tray.click('toggleSchedule');
    expect(log).toEqual(['pause', 'resume']);
    expect(preferences.saved.paused).toBe(false);
    expect(tray.item('toggleSchedule').label).toBe('暫停排程');
  });

  it('start at login is opt-in: off until clicked, then saved and applied', () => {
    const { tray, log, preferences } = setup();
    expect(tray.item('toggleOpenAtLogin').checked).toBe(false);
    tray.click('toggleOpenAtLogin');
    expect(preferences.saved.login).toBe(true);
    expect(log).toEqual(['login:true']);
    expect(tray.item('toggleOpenAtLogin').checked).toBe(true);
  });

  it('stops listening when disposed', () => {
    const { tray, ticks, machine, controller } = setup();
    tray.take();
    controller.dispose();
    expect(ticks.count()).toBe(0);
    machine.startRun('sleep');
    expect(tray.take()).toEqual([]);
  });
});
