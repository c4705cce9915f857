import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { readRoleHistory, recordRoleChange, roleAtOffset, roleAtTime, roleHistoryFilePath } from './role-history.js';
import { cleanupIdleSessionFiles } from './session-role-file.js';

/** The session's role history (issue 19): who the session was from which byte of its transcript. */
let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

const NOW = new Date('2026-03-10T06:00:00Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

function setUp() {
  home = makeTempHome({ KIOKU_NOW: NOW.toISOString() });
  return home.config();
}

describe('role history', () => {
  it('records a change only when the role differs, and says handback for a call back to the role before', () => {
    const config = setUp();
    expect(recordRoleChange(config, 's1', { roleId: 'SILICA01', how: 'start', pos: 0, now: at(0) })).toBe(true);
    expect(recordRoleChange(config, 's1', { roleId: 'SILICA01', how: 'resume', pos: 50, now: at(1) })).toBe(false);
    expect(recordRoleChange(config, 's1', { roleId: 'YUI01', how: 'call', pos: 100, now: at(2) })).toBe(true);
    expect(recordRoleChange(config, 's1', { roleId: 'SILICA01', how: 'call', pos: 300, now: at(3) })).toBe(true);
    expect(readRoleHistory(config, 's1').map((e) => [e.roleId, e.how, e.pos])).toEqual([
      ['SILICA01', 'start', 0],
      ['YUI01', 'call', 100],
      ['SILICA01', 'handback', 300],
    ]);
  });

  it('answers by byte and by time; nothing before the first change', () => {
    const config = setUp();
    recordRoleChange(config, 's1', { roleId: 'SILICA01', how: 'resume', pos: 400, now: at(0) });
    recordRoleChange(config, 's1', { roleId: 'YUI01', how: 'call', pos: 1000, now: at(5) });
    const history = readRoleHistory(config, 's1');
    expect([10, 400, 900, 1000, 5000].map((offset) => roleAtOffset(history, offset))).toEqual([
      undefined,
      'SILICA01',
      'SILICA01',
      'YUI01',
      'YUI01',
    ]);
    // Gemini CLI rewrites its document: the reply after a switch starts where the closing `  ]\n}` was.
    expect(roleAtOffset(history, 1000 - 5)).toBe('YUI01');
    expect([at(-1), at(0), at(4), at(5), at(60)].map((when) => roleAtTime(history, when))).toEqual([
      undefined,
      'SILICA01',
      'SILICA01',
      'YUI01',
      'YUI01',
    ]);
  });

  it('counts positions per transcript: a session resumed into a new file starts over there', () => {
    const config = setUp();
    recordRoleChange(config, 's1', { roleId: 'SILICA01', how: 'start', pos: 0, transcript: '/t/one.jsonl', now: at(0) });
    recordRoleChange(config, 's1', { roleId: 'YUI01', how: 'call', pos: 500, transcript: '/t/one.jsonl', now: at(1) });
    // Same role, new file: recorded, because positions in it mean something else.
    expect(recordRoleChange(config, 's1', { roleId: 'YUI01', how: 'resume', pos: 80, transcript: '/t/two.jsonl', now: at(2) })).toBe(true);
    const history = readRoleHistory(config, 's1');
    expect(history).toHaveLength(3);
    expect(roleAtOffset(history, 100, '/t/one.jsonl')).toBe('SILICA01');
    expect(roleAtOffset(history, 100, '/t/two.jsonl')).toBe('YUI01');
    expect(roleAtOffset(history, 0, '/t/two.jsonl')).toBeUndefined();
  });

  it('skips garbled lines and foreign role IDs, and reads a missing file as no history', () => {
    const config = setUp();
    expect(readRoleHistory(config, 'none')).toEqual([]);
    const file = roleHistoryFilePath(config, 's1');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      [
        '{"role":"SILICA01","how":"start","pos":0,"at":"2026-03-10T06:00:00.000Z"}',
        '{oops',
        '{"role":"../etc","pos":5,"at":"2026-03-10T06:00:00.000Z"}',
        '{"role":"YUI01","pos":-3,"at":"not a date"}',
        '{"role":"YUI01","how":"call","pos":9,"at":"2026-03-10T06:01:00.000Z"}',
      ].join('\n'),
    );
    expect(readRoleHistory(config, 's1').map((e) => [e.roleId, e.pos])).toEqual([
      ['SILICA01', 0],
      ['YUI01', 9],
    ]);
  });

  it('keeps the last 64 changes, and starts over when the transcript began anew', () => {
    const config = setUp();
    for (let i = 0; i < 80; i++)
      recordRoleChange(config, 's1', { roleId: i % 2 ? 'YUI01' : 'SILICA01', how: 'call', pos: i * 10, now: at(i) });
    const history = readRoleHistory(config, 's1');
    expect(history).toHaveLength(64);
    expect(history[history.length - 1]!.pos).toBe(790);
    recordRoleChange(config, 's1', { roleId: 'SILICA01', how: 'start', pos: 0, now: at(100) });
    expect(readRoleHistory(config, 's1').map((e) => [e.roleId, e.pos])).toEqual([['SILICA01', 0]]);
  });

  it('is swept with the other session files after 7 idle days, unless a resume touched it', () => {
    const config = setUp();
    recordRoleChange(config, 'old', { roleId: 'SILICA01', how: 'start', pos: 0, now: at(0) });
    recordRoleChange(config, 'used', { roleId: 'SILICA01', how: 'start', pos: 0, now: at(0) });
    const eightDaysAgo = new Date(NOW.getTime() - 8 * 86_400_000);
    for (const key of ['old', 'used']) fs.utimesSync(roleHistoryFilePath(config, key), eightDaysAgo, eightDaysAgo);
    // The same role again: no new line, but the file is touched.
    expect(recordRoleChange(config, 'used', { roleId: 'SILICA01', how: 'resume', pos: 10, now: NOW })).toBe(false);
    expect(cleanupIdleSessionFiles(config, NOW)).toEqual(['old.roles']);
  });
});
