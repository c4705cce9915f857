import { describe, expect, it } from 'vitest';
import type { SleepStateName } from '../../../../common/hook-protocol.js';
import { TOOLTIP_MAX_CHARS, trayView, type TrayAction, type TrayInput, type TrayMenuItem } from './tray-model.js';
import { trayLocaleFor } from './tray-text.js';

const SELICA = { id: 'SELICA01', name: '西莉卡', emoji: '✨' };

function input(overrides: Partial<TrayInput> & { state?: SleepStateName } = {}): TrayInput {
  const { state = 'awake', ...rest } = overrides;
  return {
    sleep: { state, role: null, lastRun: null },
    activeRole: SELICA,
    schedule: 'running',
    manualRunPending: false,
    openAtLogin: false,
    locale: 'zh-TW',
    ...rest,
  };
}

function action(menu: TrayMenuItem[], which: TrayAction) {
  const item = menu.find((m) => m.kind === 'action' && m.action === which);
  if (!item || item.kind !== 'action') throw new Error(`no ${which} item`);
  return item;
}

describe('tray view (APP-1, SLEEP-7)', () => {
  it('shows the role with its emoji and the state, in zh-TW and in English', () => {
    expect(trayView(input()).tooltip).toBe('Kioku — 西莉卡 ✨ · 清醒中');
    expect(trayView(input({ state: 'asleep', locale: 'en' })).tooltip).toBe('Kioku — 西莉卡 ✨ · Asleep');
    expect(trayView(input({ activeRole: null })).tooltip).toBe('Kioku — 尚未選擇角色 · 清醒中');
  });

  it("puts the role's emoji-sheet picture on the status header, and nothing when the role has none", () => {
    const withSheet = trayView(input({ activeRole: { ...SELICA, sheetIcon: '/roles/.assets/emojis/selica01-emotions-sheet-happy.png' } }));
    expect(withSheet.menu[0]).toEqual({
      kind: 'header',
      label: '西莉卡 ✨ · 清醒中',
      icon: '/roles/.assets/emojis/selica01-emotions-sheet-happy.png',
    });
    expect(trayView(input()).menu[0]).not.toHaveProperty('icon');
    expect(trayView(input({ activeRole: null })).menu[0]).not.toHaveProperty('icon');
  });

  it('has one icon per state', () => {
    const states: SleepStateName[] = ['awake', 'asleep', 'napping', 'consolidating', 'error'];
    expect(states.map((state) => trayView(input({ state })).icon)).toEqual(states);
  });

  it('names the role being consolidated, and the first failure in the error state', () => {
    const busy = trayView(input({ sleep: { state: 'consolidating', role: 'ENGINEER01', lastRun: null } }));
    expect(busy.tooltip).toBe('Kioku — 西莉卡 ✨ · 整理記憶中 · 正在整理 ENGINEER01');
    const failed = trayView(
      input({
        sleep: {
          state: 'error',
          role: null,
          lastRun: {
            reason: 'sleep',
            startedAt: 'x',
            finishedAt: 'y',
            ok: false,
            roles: [
              { id: 'SELICA01', ok: true, processed: 1, created: 1, merged: 0, discarded: 0, forgotten: 0, left: 0 },
              {
                id: 'ENGINEER01',
                ok: false,
                processed: 0,
                created: 0,
                merged: 0,
                discarded: 0,
                forgotten: 0,
                left: 3,
                error: 'planner timed out\nstack…',
              },
            ],
          },
        },
      }),
    );
    expect(failed.icon).toBe('error');
    expect(failed.tooltip).toBe('Kioku — 西莉卡 ✨ · 發生錯誤 · 上次整理失敗：ENGINEER01: planner timed out');
  });

  it('keeps the tooltip within what Windows shows, cutting by characters, not bytes', () => {
    const long = trayView(input({ activeRole: { id: 'LONG01', name: '長'.repeat(200), emoji: '🌙' } }));
    expect([...long.tooltip].length).toBe(TOOLTIP_MAX_CHARS);
    expect(long.tooltip.endsWith('…')).toBe(true);
  });

  it('has the menu of APP-1 in order, headed by the status line (Linux trays show no tooltip)', () => {
    const { menu } = trayView(input());
    expect(menu[0]).toEqual({ kind: 'header', label: '西莉卡 ✨ · 清醒中' });
    const labels = menu.filter((m) => m.kind === 'action').map((m) => (m.kind === 'action' ? m.label : ''));
    expect(labels).toEqual(['開啟 Kioku', '現在睡覺', '小睡一下', '暫停排程', '狀態…', '登入時啟動', '結束 Kioku']);
    const english = trayView(input({ locale: 'en' }))
      .menu.filter((m) => m.kind === 'action')
      .map((m) => (m.kind === 'action' ? m.label : ''));
    expect(english).toEqual(['Open Kioku', 'Sleep now', 'Nap now', 'Pause schedule', 'Status…', 'Start at login', 'Quit Kioku']);
  });

  it('rests "sleep now" and "nap now" while a consolidation runs or one asked for is pending', () => {
    for (const state of ['napping', 'consolidating'] as const) {
      const { menu } = trayView(input({ state }));
      expect(action(menu, 'sleepNow').enabled).toBe(false);
      expect(action(menu, 'napNow').enabled).toBe(false);
      expect(action(menu, 'open').enabled).toBe(true);
    }
    const pending = trayView(input({ manualRunPending: true })).menu;
    expect(action(pending, 'sleepNow').enabled).toBe(false);
    for (const state of ['awake', 'asleep', 'error'] as const)
      expect(action(trayView(input({ state })).menu, 'sleepNow').enabled).toBe(true);
  });

  it('offers pause or resume by the schedule mode, and none when this host runs no schedule', () => {
    expect(action(trayView(input({ schedule: 'paused' })).menu, 'toggleSchedule')).toMatchObject({ label: '恢復排程', enabled: true });
    expect(trayView(input({ schedule: 'paused' })).tooltip).toBe('Kioku — 西莉卡 ✨ · 清醒中 · 排程已暫停');
    expect(action(trayView(input({ schedule: 'off' })).menu, 'toggleSchedule').enabled).toBe(false);
  });

  it('shows start at login as a checkbox that follows the saved choice', () => {
    expect(action(trayView(input()).menu, 'toggleOpenAtLogin').checked).toBe(false);
    expect(action(trayView(input({ openAtLogin: true })).menu, 'toggleOpenAtLogin').checked).toBe(true);
  });

  it('picks zh-TW for Chinese or unknown system locales and English for the others', () => {
    expect(['zh-TW', 'zh_TW.UTF-8', 'zh-CN', '', 'C.UTF-8', undefined].map(trayLocaleFor)).toEqual([
      'zh-TW',
      'zh-TW',
      'zh-TW',
      'zh-TW',
      'zh-TW',
      'zh-TW',
    ]);
    expect(['en-US', 'ja-JP', 'de'].map(trayLocaleFor)).toEqual(['en', 'en', 'en']);
  });
});

describe('tray view of a home synced through git', () => {
  it('shows the last sync and its conflicts in the status line, in both languages', () => {
    const synced = trayView(input({ sync: { outcome: 'ok', at: '2026-12-02T03:10:00+08:00', conflicts: 2 } }));
    expect(synced.tooltip).toContain('已同步 03:10');
    expect(synced.tooltip).toContain('2 份同步衝突');
    const offline = trayView(input({ locale: 'en', sync: { outcome: 'offline', at: '2026-12-02T03:10:00+08:00', conflicts: 0 } }));
    expect(offline.menu[0]).toMatchObject({ kind: 'header', label: expect.stringContaining('sync offline (03:10)') });
    expect(offline.tooltip).not.toContain('conflict');
    expect(trayView(input()).tooltip).not.toMatch(/同步|sync/);
  });
});
