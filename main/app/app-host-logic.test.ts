import fs from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppState, UiEventMessage } from '../../common/ui-contract.js';
import { APP_ENTRY_URL } from '../../common/ui-ipc.js';
import { SPLIT_ENGINEER_IDENTITY, SPLIT_ENGINEER_SOUL } from '../../test/cli/role-test-fixtures.js';
import { createFakeSchedule } from '../../test/helpers/fake-schedule.js';
import { makeTempHome, type TempHome } from '../../test/helpers/temp-home.js';
import { silentLogger } from '../core/platform/config/log.js';
import type { TrayPort } from '../core/hosts/tray/tray-controller.js';
import type { TrayAction, TrayMenuItem } from '../core/hosts/tray/tray-model.js';
import { startAppHost, type AppHost } from './app-host-logic.js';
import { settingsStoreLocation, type SettingsStore } from './app-settings-logic.js';

/**
 * The tray app without Electron: the real core on a temp home, the settings in `conf` (what
 * electron-store wraps) on the real settings.json, and fakes for the tray, the window and timers.
 */
const NOW = '2026-03-10T14:00:00+08:00';
/** The sleep window is local time (SLEEP-1); windows are set around NOW in this process's zone. */
const HOUR = new Date(NOW).getHours();
const hh = (n: number) => `${String((n + 24) % 24).padStart(2, '0')}:00`;
let home: TempHome | undefined;
const hosts: AppHost[] = [];

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop();
  home?.cleanup();
  home = undefined;
});

function confStore(env: NodeJS.ProcessEnv): SettingsStore {
  const { cwd, name } = settingsStoreLocation(env);
  const conf = new Conf<Record<string, unknown>>({ cwd, configName: name });
  return {
    get: (key) => conf.get(key),
    set: (key, value) => conf.set(key, value),
    get store() {
      return conf.store;
    },
  };
}

function makeHome(): TempHome {
  // KIOKU_NO_SCHEDULE cleared: the app runs its schedule here (on a fake timer).
  home = makeTempHome({ KIOKU_NOW: NOW, TZ: 'Asia/Taipei', KIOKU_NO_SCHEDULE: '' });
  fs.writeFileSync(path.join(home.roleHome, 'ENGINEER01.identity.md'), SPLIT_ENGINEER_IDENTITY);
  fs.writeFileSync(path.join(home.roleHome, 'ENGINEER01.soul.md'), SPLIT_ENGINEER_SOUL);
  fs.writeFileSync(path.join(home.roleHome, '.active'), 'ENGINEER01\n');
  // Awake at NOW, whatever the machine's time zone.
  fs.mkdirSync(path.join(home.memoryHome, '.kioku'), { recursive: true });
  fs.writeFileSync(
    path.join(home.memoryHome, '.kioku', 'settings.json'),
    JSON.stringify({ ROLE_SLEEP_START: hh(HOUR + 2), ROLE_SLEEP_END: hh(HOUR + 3) }),
  );
  return home;
}

function start(h: TempHome, store: SettingsStore = confStore(h.env)) {
  let menu: readonly TrayMenuItem[] = [];
  let onAction: (action: TrayAction) => void = () => undefined;
  const tooltips: string[] = [];
  const tray: TrayPort = {
    setImage: () => undefined,
    setToolTip: (text) => tooltips.push(text),
    setMenu: (items, handler) => {
      menu = items;
      onAction = handler;
    },
  };
  const shown: (string | undefined)[] = [];
  const sent: UiEventMessage[] = [];
  const deferred: (() => void)[] = [];
  const login: boolean[] = [];
  const fake = createFakeSchedule(new Date(NOW));
  const host = startAppHost({
    env: h.env,
    store,
    logger: silentLogger,
    version: 'test',
    locale: 'zh-TW',
    tray,
    window: { show: (route) => shown.push(route), send: (message) => sent.push(message) },
    ticker: { every: () => () => undefined },
    defer: (run) => deferred.push(run),
    applyOpenAtLogin: (on) => login.push(on),
    quit: () => undefined,
    core: {
      scheduler: {
        timer: fake.timer,
        consolidate: async (role) => ({ id: role, ok: true, processed: 0, created: 0, merged: 0, discarded: 0, forgotten: 0, left: 0 }),
        runBrief: async () => undefined,
      },
    },
  });
  hosts.push(host);
  const click = (action: TrayAction) => {
    expect(menu.some((m) => m.kind === 'action' && m.action === action && m.enabled)).toBe(true);
    onAction(action);
  };
  const flush = () => deferred.splice(0).forEach((run) => run());
  return { host, fake, tooltips, shown, sent, login, click, flush, menu: () => menu };
}

const ours = { url: `${APP_ENTRY_URL}#/roles`, isMainFrame: true };

/** The active role a pushed state names (UiEventMessage's data is a union of every event's). */
const activeIn = (message: UiEventMessage | undefined) =>
  message?.event === 'state.changed' ? (message.data as AppState).activeRole : undefined;

describe('the tray app without Electron (main/app/app-host-logic.ts)', () => {
  it('shows the active role and the state in the tray and opens the window from the menu', async () => {
    const app = start(makeHome());
    await app.host.core.ready;
    expect(app.tooltips.at(-1)).toBe('Kioku — 小豹 🐆 · 清醒中');
    app.click('open');
    app.click('status');
    expect(app.shown).toEqual([undefined, '#/status']);
  });

  it('answers the window through the contract, and refuses every other sender', async () => {
    const app = start(makeHome());
    const list = await app.host.dispatch('roles.list', ours, {});
    expect(list.ok && (list.value as { roles: { id: string }[] }).roles.map((r) => r.id)).toEqual(['ENGINEER01']);
    for (const url of ['file:///etc/passwd', 'https://evil.example/', 'kioku://evil/index.html', undefined]) {
      const refused = await app.host.dispatch('roles.list', { url, isMainFrame: true }, {});
      expect(refused.ok ? 'ok' : refused.error.code).toBe('FORBIDDEN');
    }
    const fromFrame = await app.host.dispatch('roles.list', { ...ours, isMainFrame: false }, {});
    expect(fromFrame.ok ? 'ok' : fromFrame.error.code).toBe('FORBIDDEN');
    const bad = await app.host.dispatch('roles.get', ours, { id: 'engineer01' });
    expect(bad.ok ? 'ok' : bad.error.code).toBe('BAD_REQUEST');
    const extra = await app.host.dispatch('state.get', ours, { sneaky: true });
    expect(extra.ok ? 'ok' : extra.error.code).toBe('BAD_REQUEST');
  });

  it('pushes the state to the window once it has loaded, and again after a change made through the UI', async () => {
    const h = makeHome();
    fs.writeFileSync(
      path.join(h.roleHome, 'HELPER01.identity.md'),
      SPLIT_ENGINEER_IDENTITY.replace(/ENGINEER01/g, 'HELPER01')
        .replace(/小豹/g, '小幫手')
        .replace(/🐆/g, '🧹'),
    );
    fs.writeFileSync(path.join(h.roleHome, 'HELPER01.soul.md'), SPLIT_ENGINEER_SOUL.replace(/ENGINEER01/g, 'HELPER01'));
    const app = start(h);
    await app.host.core.ready;
    expect(app.sent).toEqual([]);
    app.host.events.start();
    expect(app.sent.map((m) => m.event)).toEqual(['state.changed']);
    expect(activeIn(app.sent[0])).toBe('ENGINEER01');
    const set = await app.host.dispatch('roles.setActive', ours, { id: 'HELPER01' });
    expect(set.ok).toBe(true);
    app.flush();
    const last = app.sent.at(-1)!;
    expect(activeIn(last)).toBe('HELPER01');
    expect(app.tooltips.at(-1)).toBe('Kioku — 小幫手 🧹 · 清醒中');
    app.host.events.stop();
    app.host.events.stateChanged();
    app.flush();
    expect(app.sent.at(-1)).toBe(last);
  });

  it('pausing from the tray is saved in settings.json and holds at the next start', async () => {
    const h = makeHome();
    const first = start(h);
    await first.host.core.ready;
    expect(first.fake.activeRules().length).toBeGreaterThan(0);
    first.click('toggleSchedule');
    expect(first.host.core.scheduleMode()).toBe('paused');
    expect(first.fake.activeRules()).toEqual([]);
    const file = path.join(h.memoryHome, '.kioku', 'settings.json');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ app: { schedulePaused: true } });
    await hosts.pop()!.stop();

    const second = start(h);
    await second.host.core.ready;
    expect(second.host.core.scheduleMode()).toBe('paused');
    expect(second.fake.activeRules()).toEqual([]);
    expect(second.tooltips.at(-1)).toBe('Kioku — 小豹 🐆 · 清醒中 · 排程已暫停');
  });

  it('start at login is off by default; once chosen it is saved and applied again at each start', async () => {
    const h = makeHome();
    const first = start(h);
    expect(first.login).toEqual([]);
    first.click('toggleOpenAtLogin');
    expect(first.login).toEqual([true]);
    await hosts.pop()!.stop();
    const second = start(h);
    expect(second.login).toEqual([true]);
  });

  it('reads ROLE_* from the store, with the environment winning', async () => {
    const h = makeHome();
    const store = confStore(h.env);
    store.set('ROLE_SLEEP_START', hh(HOUR - 1));
    store.set('ROLE_SLEEP_END', hh(HOUR + 1));
    const app = start(h, store);
    await app.host.core.ready;
    expect(app.tooltips.at(-1)).toBe('Kioku — 小豹 🐆 · 睡眠中');
    await hosts.pop()!.stop();
    const overridden = start({ ...h, env: { ...h.env, ROLE_SLEEP_START: hh(HOUR + 2), ROLE_SLEEP_END: hh(HOUR + 3) } }, store);
    await overridden.host.core.ready;
    expect(overridden.tooltips.at(-1)).toBe('Kioku — 小豹 🐆 · 清醒中');
  });

  it('when another Kioku already serves the memory home, still shows the tray and edits the files', async () => {
    const h = makeHome();
    const first = start(h);
    await first.host.core.ready;
    const second = start(h);
    await expect(second.host.core.ready).rejects.toMatchObject({ code: 'LOCKED' });
    expect(second.tooltips.at(-1)).toBe('Kioku — 小豹 🐆 · 清醒中');
    const list = await second.host.dispatch('roles.list', ours, {});
    expect(list.ok).toBe(true);
    // The first one's socket is untouched by the second one's failed start and stop.
    await hosts.pop()!.stop();
    expect(fs.existsSync(first.host.core.daemon.socketPath)).toBe(true);
  });
});
