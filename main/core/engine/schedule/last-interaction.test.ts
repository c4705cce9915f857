import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeMemoryFixture } from '../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { napCandidates } from '../sleep/nap-candidates.js';
import { inboxCount, lastInteraction } from './last-interaction.js';

const ROLE = 'ALPHA01';
let home: TempHome;
afterEach(() => home.cleanup());

const touch = (file: string, at: Date) => fs.utimesSync(file, at, at);

/**
 * "Now" on the file system's clock: the change time of a file written just now. Usually the same
 * as Date.now(), but not under libfaketime (which moves the process's clock, not the kernel's
 * file times): these tests are about file times, so they read the clock the files are stamped by.
 */
function fileClockNow(): number {
  const probe = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kioku-clock-')), 'probe');
  fs.writeFileSync(probe, '');
  const at = fs.statSync(probe).ctimeMs;
  fs.rmSync(path.dirname(probe), { recursive: true, force: true });
  return at;
}

describe('last interaction (the nap idle clock, SLEEP-2)', () => {
  it('is undefined for a role nobody has talked to, and takes the newest of its sources', () => {
    home = makeTempHome({ KIOKU_NOW: '2026-12-01T14:00:00+08:00' });
    const config = home.config();
    expect(lastInteraction(config, ROLE)).toBeUndefined();

    fs.mkdirSync(path.join(home.memoryHome, ROLE), { recursive: true });
    fs.writeFileSync(
      path.join(home.memoryHome, ROLE, 'state.json'),
      JSON.stringify({ last_activity: '2026-12-01T10:00:00+08:00', last_sleep: '2026-12-01T12:00:00+08:00' }),
    );
    expect(lastInteraction(config, ROLE)).toEqual({ at: new Date('2026-12-01T10:00:00+08:00'), source: 'state.json' });

    const item = writeMemoryFixture(home.memoryHome, ROLE, 'inbox', 'in-1', { summary: 'x' });
    touch(item, new Date('2026-12-01T11:00:00+08:00'));
    expect(lastInteraction(config, ROLE)?.source).toBe('inbox');

    fs.mkdirSync(config.paths.sessionsDir, { recursive: true });
    const other = path.join(config.paths.sessionsDir, 'sess-b.role');
    fs.writeFileSync(other, 'BETA01\n');
    touch(other, new Date('2026-12-01T13:00:00+08:00'));
    expect(lastInteraction(config, ROLE)?.source).toBe('inbox'); // another role's session
    const mine = path.join(config.paths.sessionsDir, 'sess-a.role');
    fs.writeFileSync(mine, `${ROLE}\nswitched-by: x\n`);
    touch(mine, new Date('2026-12-01T11:30:00+08:00'));
    expect(lastInteraction(config, ROLE)).toEqual({ at: new Date('2026-12-01T11:30:00+08:00'), source: 'session' });

    // A session mid-turn: its transcript, named by the role lock, is the newest sign of life.
    const transcript = path.join(home.root, 'transcript.jsonl');
    fs.writeFileSync(transcript, '{}\n');
    touch(transcript, new Date('2026-12-01T11:45:00+08:00'));
    fs.mkdirSync(path.join(home.roleHome, '.locks'), { recursive: true });
    fs.writeFileSync(
      path.join(home.roleHome, '.locks', `${ROLE}.lock`),
      JSON.stringify({ role: ROLE, sessionKey: 's', transcriptPath: transcript, assistant: 'claude', since: '' }),
    );
    expect(lastInteraction(config, ROLE)).toEqual({ at: new Date('2026-12-01T11:45:00+08:00'), source: 'transcript' });
  });

  describe('times ahead of the clock (issue 11: clock skew, a synced folder)', () => {
    // The frozen clock is a month behind the real one, so the files' real change times (ctime,
    // which no test can set) are ahead of it too: only the times the test sets count.
    const frozen = new Date(Math.floor(fileClockNow() / 1000) * 1000 - 30 * 24 * 3_600_000);
    const minutes = (n: number) => new Date(frozen.getTime() + n * 60_000);
    const setup = () => {
      home = makeTempHome({ KIOKU_NOW: frozen.toISOString(), ROLE_NAP_MIN_INBOX: '1' });
      fs.mkdirSync(path.join(home.memoryHome, ROLE), { recursive: true });
      return home.config();
    };
    const writeState = (lastActivity: Date) =>
      fs.writeFileSync(path.join(home.memoryHome, ROLE, 'state.json'), JSON.stringify({ last_activity: lastActivity.toISOString() }));
    const inboxAt = (id: string, at: Date) => touch(writeMemoryFixture(home.memoryHome, ROLE, 'inbox', id, { summary: id }), at);

    it('a future mtime does not outrank a real recent interaction, and the idle clock runs on', () => {
      const config = setup();
      writeState(minutes(-10));
      inboxAt('synced', minutes(365 * 24 * 60));
      expect(lastInteraction(config, ROLE)).toEqual({ at: minutes(-10), source: 'state.json' });
      // An hour later the role has been idle 70 minutes: the future file does not keep it busy.
      expect(napCandidates(home.config({ KIOKU_NOW: minutes(60).toISOString() }), [ROLE]).ready).toEqual([
        { role: ROLE, inbox: 1, idleMinutes: 70 },
      ]);
    });

    it('future times alone do not make a role look busy forever', () => {
      const config = setup();
      writeState(minutes(90));
      inboxAt('synced', minutes(24 * 60));
      const lock = path.join(home.roleHome, '.locks', `${ROLE}.lock`);
      const transcript = path.join(home.root, 'transcript.jsonl');
      fs.writeFileSync(transcript, '{}\n');
      touch(transcript, minutes(24 * 60));
      fs.mkdirSync(path.dirname(lock), { recursive: true });
      fs.writeFileSync(lock, JSON.stringify({ role: ROLE, sessionKey: 's', transcriptPath: transcript, assistant: 'claude', since: '' }));
      expect(lastInteraction(config, ROLE)).toBeUndefined();
      expect(napCandidates(config, [ROLE]).ready.map((c) => c.role)).toEqual([ROLE]);
    });

    it('a time a moment ahead (timestamp rounding) is capped at now', () => {
      const config = setup();
      writeState(minutes(-5));
      inboxAt('just-now', new Date(frozen.getTime() + 1_000));
      expect(lastInteraction(config, ROLE)).toEqual({ at: frozen, source: 'inbox' });
    });

    it('a future mtime written on this machine counts from its change time, never later than now', () => {
      const before = fileClockNow();
      // Now a minute after the file is written, on the clock the file's ctime is stamped by.
      const now = new Date(Math.ceil(before / 1000) * 1000 + 60_000);
      home = makeTempHome({ KIOKU_NOW: now.toISOString() });
      inboxAt('synced', new Date(before + 365 * 24 * 3_600_000));
      const found = lastInteraction(home.config(), ROLE);
      expect(found?.source).toBe('inbox');
      expect(found!.at.getTime()).toBeGreaterThanOrEqual(before - 1_000);
      expect(found!.at.getTime()).toBeLessThanOrEqual(now.getTime());
    });
  });

  it('a consolidation writing state.json (last_sleep) is not an interaction', () => {
    home = makeTempHome();
    fs.mkdirSync(path.join(home.memoryHome, ROLE), { recursive: true });
    fs.writeFileSync(path.join(home.memoryHome, ROLE, 'state.json'), JSON.stringify({ last_sleep: '2026-12-01T12:00:00+08:00' }));
    expect(lastInteraction(home.config(), ROLE)).toBeUndefined();
  });

  it('counts inbox items, not temp files or other files', () => {
    home = makeTempHome();
    expect(inboxCount(home.config(), ROLE)).toBe(0);
    writeMemoryFixture(home.memoryHome, ROLE, 'inbox', 'a', { summary: 'a' });
    writeMemoryFixture(home.memoryHome, ROLE, 'inbox', 'b', { summary: 'b' });
    fs.writeFileSync(path.join(home.memoryHome, ROLE, 'inbox', '.hidden.md'), '');
    fs.writeFileSync(path.join(home.memoryHome, ROLE, 'inbox', 'notes.txt'), '');
    expect(inboxCount(home.config(), ROLE)).toBe(2);
  });
});
