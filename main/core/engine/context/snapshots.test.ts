import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadSnapshot,
  removeStaleSnapshots,
  saveSnapshot,
  snapshotAction,
  snapshotFile,
  snapshotFileName,
  snapshotMatters,
} from './snapshots.js';
import { lockedContext, resumeReminder, sleepingContext, subagentContext } from './special-contexts.js';

describe('snapshots (DSH-4, CTX-10)', () => {
  let root = '';
  let paths = { snapshotsDir: '' };
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-snap-'));
    paths = { snapshotsDir: path.join(root, '.kioku', 'snapshots') };
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('saves atomically and loads back what was saved', () => {
    const file = saveSnapshot(paths, '6f1c-uuid', ['part one {{x}}', 'part two'], {
      roleId: 'ENGINEER01',
      savedAt: '2026-12-01T12:00:00Z',
    });
    expect(file).toBe(path.join(paths.snapshotsDir, '6f1c-uuid.json'));
    expect(fs.readdirSync(paths.snapshotsDir)).toEqual(['6f1c-uuid.json']);
    expect(loadSnapshot(paths, '6f1c-uuid')).toEqual({
      version: 1,
      sessionId: '6f1c-uuid',
      savedAt: '2026-12-01T12:00:00Z',
      roleId: 'ENGINEER01',
      parts: ['part one {{x}}', 'part two'],
    });
    saveSnapshot(paths, '6f1c-uuid', ['replaced']);
    expect(loadSnapshot(paths, '6f1c-uuid')?.parts).toEqual(['replaced']);
  });

  it('turns any session id into a safe file name inside the snapshots folder, without collisions', () => {
    for (const id of ['../../etc/passwd', 'a/b', '..', 'C:\\x', '']) {
      const file = snapshotFile(paths, id);
      expect(path.dirname(file)).toBe(paths.snapshotsDir);
      expect(path.basename(file)).toMatch(/^[A-Za-z0-9_-][A-Za-z0-9._-]*\.json$/);
    }
    expect(snapshotFileName('a/b')).not.toBe(snapshotFileName('a_b'));
    saveSnapshot(paths, '../evil', ['x']);
    expect(fs.readdirSync(root)).toEqual(['.kioku']);
    expect(loadSnapshot(paths, '../evil')?.parts).toEqual(['x']);
  });

  it('treats a missing or broken snapshot as none', () => {
    expect(loadSnapshot(paths, 'nope')).toBeUndefined();
    fs.mkdirSync(paths.snapshotsDir, { recursive: true });
    fs.writeFileSync(snapshotFile(paths, 'bad'), '{"parts": [1, 2]}');
    expect(loadSnapshot(paths, 'bad')).toBeUndefined();
    fs.writeFileSync(snapshotFile(paths, 'worse'), 'not json');
    expect(loadSnapshot(paths, 'worse')).toBeUndefined();
  });

  it('removes only stale snapshots', () => {
    saveSnapshot(paths, 'old', ['x']);
    saveSnapshot(paths, 'new', ['y']);
    const longAgo = new Date(Date.now() - 40 * 86_400_000);
    fs.utimesSync(snapshotFile(paths, 'old'), longAgo, longAgo);
    expect(removeStaleSnapshots(paths, new Date())).toBe(1);
    expect(loadSnapshot(paths, 'new')).toBeDefined();
    expect(loadSnapshot(paths, 'old')).toBeUndefined();
  });

  it('decides per source: fresh on startup/clear, a reminder on resume, the frozen load after compaction', () => {
    expect(snapshotAction('startup')).toBe('build-and-save');
    expect(snapshotAction('clear')).toBe('build-and-save');
    expect(snapshotAction(undefined)).toBe('build-and-save');
    expect(snapshotAction('resume')).toBe('remind');
    expect(snapshotAction('fork', { snapshotExists: false })).toBe('remind');
    expect(snapshotAction('resume', { snapshotExists: false })).toBe('build-and-save');
    expect(snapshotAction('resume', { replaysOnResume: false })).toBe('reinject-snapshot');
    expect(snapshotAction('compact')).toBe('reinject-snapshot');
    expect(snapshotAction('compact', { snapshotExists: false })).toBe('build-and-save');
  });

  it('needs the snapshot read only where its existence changes the action', () => {
    const sources = ['startup', 'resume', 'clear', 'compact', 'fork', undefined] as const;
    for (const source of sources)
      for (const replaysOnResume of [true, false]) {
        const withIt = snapshotAction(source, { snapshotExists: true, replaysOnResume });
        const without = snapshotAction(source, { snapshotExists: false, replaysOnResume });
        if (!snapshotMatters(source)) expect([source, withIt]).toEqual([source, without]);
      }
    expect(sources.filter(snapshotMatters)).toEqual(['resume', 'compact']);
  });
});

describe('special contexts', () => {
  it('asleep: no persona, a plain assistant, still recorded (CTX-7)', () => {
    const text = sleepingContext({ language: 'zh-TW', roleName: '小豹', sleepStart: '22:00', sleepEnd: '06:00' });
    expect(text).toContain('沒有載入角色人格');
    expect(text).toContain('一般助理');
    expect(text).toContain('仍會被記錄');
  });

  it('locked: the reason and all three remedies (LOCK-1)', () => {
    const text = lockedContext({
      language: 'en',
      roleId: 'ENGINEER01',
      roleName: 'Leo',
      holderSessionId: 'abc',
      holderSince: '2026-12-01 09:00',
      idleMinutes: 30,
    });
    expect(text).toContain('(session abc, since 2026-12-01 09:00)');
    expect(text).toContain('kioku role unlock ENGINEER01');
    expect(text).toContain('idle for 30 minutes');
    expect(text).toContain('ROLE_SINGLE_INSTANCE=0');
    expect(lockedContext({ language: 'zh-TW', roleId: 'ENGINEER01', roleName: '小豹', idleMinutes: 30 })).toContain('載入。一個角色');
  });

  it('sub-agent: project memory only, no persona, and says the rest can be read (DSH-5)', () => {
    const text = subagentContext({ path: '/p/MEMORY.md', text: '用 pnpm，測試用 vitest。{{x}}' });
    expect(text).toContain('用 pnpm，測試用 vitest。{{x}}');
    expect(text).toContain('子代理');
    expect(text).toContain('kioku facts read');
    expect(text).not.toMatch(/## 角色|## 共用行為|## 長期記憶|## 全域事實/);
    expect(subagentContext(undefined, { language: 'en' })).toMatch(/^This is a sub-agent session: only the project memory/);
    const huge = subagentContext({ path: '/p/MEMORY.md', text: 'x'.repeat(12_000) });
    expect(huge.length).toBeLessThan(1000);
    expect(huge).toContain('kioku project-memory read');
  });

  it('resume: a single line', () => {
    expect(resumeReminder('zh-TW', '小豹').split('\n')).toHaveLength(1);
  });
});
