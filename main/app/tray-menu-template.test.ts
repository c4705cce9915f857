import { describe, expect, it } from 'vitest';
import { trayView } from '../core/hosts/tray/tray-model.js';
import type { TrayAction } from '../core/hosts/tray/tray-model.js';
import { trayMenuTemplate } from './tray-menu-template.js';

describe("the tray model's menu as Electron menu items", () => {
  it('maps header, separators, actions and the checkbox, and wires each click to its action', () => {
    const view = trayView({
      sleep: { state: 'consolidating', role: null, lastRun: null },
      activeRole: { id: 'A01', name: '阿一', emoji: '🌱' },
      schedule: 'running',
      manualRunPending: false,
      openAtLogin: true,
      locale: 'en',
    });
    const clicked: TrayAction[] = [];
    const template = trayMenuTemplate(view.menu, (action) => clicked.push(action));
    expect(template[0]).toEqual({ label: '阿一 🌱 · Consolidating', enabled: false });
    expect(template[1]).toEqual({ type: 'separator' });
    const sleepNow = template.find((t) => t.label === 'Sleep now')!;
    expect(sleepNow.enabled).toBe(false);
    const login = template.find((t) => t.label === 'Start at login')!;
    expect([login.type, login.checked]).toEqual(['checkbox', true]);
    expect(template.find((t) => t.label === 'Quit Kioku')!.type).toBeUndefined();
    for (const item of template) (item.click as (() => void) | undefined)?.();
    expect(clicked).toEqual(['open', 'sleepNow', 'napNow', 'toggleSchedule', 'status', 'toggleOpenAtLogin', 'quit']);
  });

  it("gives the header the sheet's picture through the host's icon maker, and none when it cannot make one", () => {
    const view = trayView({
      sleep: { state: 'awake', role: null, lastRun: null },
      activeRole: { id: 'A01', name: '阿一', emoji: '🌱', sheetIcon: '/x/a01-emotions-sheet-happy.png' },
      schedule: 'running',
      manualRunPending: false,
      openAtLogin: false,
      locale: 'en',
    });
    const made: string[] = [];
    const template = trayMenuTemplate(
      view.menu,
      () => undefined,
      (file) => (made.push(file), `icon:${file}` as never),
    );
    expect(template[0]).toEqual({ label: '阿一 🌱 · Awake', enabled: false, icon: 'icon:/x/a01-emotions-sheet-happy.png' });
    expect(made).toEqual(['/x/a01-emotions-sheet-happy.png']);
    expect(
      trayMenuTemplate(
        view.menu,
        () => undefined,
        () => undefined,
      )[0],
    ).toEqual({ label: '阿一 🌱 · Awake', enabled: false });
  });
});
