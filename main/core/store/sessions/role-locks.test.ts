import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY, hookEvent, lockFile, makeCallHome, readLock, writeTranscript, type CallHome } from '../../../../test/call/call-fixtures.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import { claimRole, holdsRole, releaseOwnLocks, unlockRoles } from './role-locks.js';

/** LOCK-1…3 and LOCK-5. */
let home: CallHome;
afterEach(() => home?.cleanup());

function twoSessions(holderIdleMinutes = 1, env: NodeJS.ProcessEnv = {}) {
  home = makeCallHome([], undefined, env);
  const config = home.config();
  writeTranscript(home, 'sess-a', holderIdleMinutes);
  writeTranscript(home, 'sess-b');
  const a = hookEvent(home, 'sess-a');
  const b = hookEvent(home, 'sess-b');
  expect(claimRole(config, 'SILICA01', a)).toMatchObject({ ok: true, how: 'created' });
  return { config, a, b };
}

describe('claimRole', () => {
  it('writes { role, sessionKey, transcriptPath, assistant, since } on the first claim', () => {
    const { a } = twoSessions();
    expect(readLock(home, 'SILICA01')).toEqual({
      role: 'SILICA01',
      sessionKey: 'sess-a',
      transcriptPath: a.transcriptPath,
      assistant: 'claude',
      since: expect.stringMatching(/^2026-03-10T14:00:00[+-]\d\d:\d\d$/),
    });
  });

  it('LOCK-1: the same session again (resume) is allowed and the lock refreshed', () => {
    const { config, a } = twoSessions();
    const moved = writeTranscript(home, 'sess-a-resumed');
    expect(claimRole(config, 'SILICA01', { ...a, transcriptPath: moved })).toMatchObject({ ok: true, how: 'refreshed' });
    expect(readLock(home, 'SILICA01')).toMatchObject({ sessionKey: 'sess-a', transcriptPath: moved });
  });

  it('LOCK-1: another live session is refused and the lock left alone', () => {
    const { config, b } = twoSessions(29);
    const before = fs.readFileSync(lockFile(home, 'SILICA01'), 'utf8');
    const result = claimRole(config, 'SILICA01', b);
    expect(result).toMatchObject({
      ok: false,
      holder: { sessionKey: 'sess-a' },
      remedies: { unlockCommand: 'kioku role unlock SILICA01' },
    });
    expect(fs.readFileSync(lockFile(home, 'SILICA01'), 'utf8')).toBe(before);
  });

  it("LOCK-2: the holder's transcript deleted → taken over", () => {
    const { config, a, b } = twoSessions();
    fs.rmSync(a.transcriptPath!);
    expect(claimRole(config, 'SILICA01', b)).toMatchObject({ ok: true, how: 'taken-over', previousHolder: { sessionKey: 'sess-a' } });
    expect(readLock(home, 'SILICA01')).toMatchObject({ sessionKey: 'sess-b' });
  });

  it('LOCK-2: the holder idle longer than ROLE_INSTANCE_IDLE_MINUTES (by mtime) → taken over', () => {
    const { config, b } = twoSessions(31);
    expect(claimRole(config, 'SILICA01', b)).toMatchObject({ ok: true, how: 'taken-over' });
    expect(readLock(home, 'SILICA01')).toMatchObject({ sessionKey: 'sess-b' });
  });

  it('LOCK-2: the idle limit follows ROLE_INSTANCE_IDLE_MINUTES', () => {
    const { b } = twoSessions(8);
    expect(claimRole(home.config({ ROLE_INSTANCE_IDLE_MINUTES: '10' }), 'SILICA01', b).ok).toBe(false);
    expect(claimRole(home.config({ ROLE_INSTANCE_IDLE_MINUTES: '5' }), 'SILICA01', b)).toMatchObject({ ok: true, how: 'taken-over' });
  });

  it('after a takeover a third session finds the new holder alive', () => {
    const { config, b } = twoSessions(45);
    claimRole(config, 'SILICA01', b);
    writeTranscript(home, 'sess-c');
    expect(claimRole(config, 'SILICA01', hookEvent(home, 'sess-c'))).toMatchObject({ ok: false, holder: { sessionKey: 'sess-b' } });
  });

  it('an unreadable lock file is replaced (a false allow beats a false lock)', () => {
    home = makeCallHome([]);
    fs.mkdirSync(`${home.roleHome}/.locks`, { recursive: true });
    fs.writeFileSync(lockFile(home, 'SILICA01'), '{not json');
    writeTranscript(home, 'sess-b');
    expect(claimRole(home.config(), 'SILICA01', hookEvent(home, 'sess-b'))).toMatchObject({ ok: true, how: 'taken-over' });
    expect(readLock(home, 'SILICA01')).toMatchObject({ sessionKey: 'sess-b' });
  });

  it.each([
    ['no transcript path', {}, { transcriptPath: undefined }],
    ['ROLE_SKIP_INSTANCE_LOCK=1', { ROLE_SKIP_INSTANCE_LOCK: '1' }, {}],
    ['ROLE_SINGLE_INSTANCE=0', { ROLE_SINGLE_INSTANCE: '0' }, {}],
  ])('LOCK-3: %s → allowed, and no lock is written', (_label, env, override) => {
    home = makeCallHome([]);
    writeTranscript(home, 'sess-a');
    const event = { ...hookEvent(home, 'sess-a'), ...override };
    expect(claimRole(home.config(env), 'SILICA01', event)).toEqual({ ok: true, how: 'skipped' });
    expect(fs.existsSync(`${home.roleHome}/.locks`)).toBe(false);
    expect(holdsRole(home.config(env), 'SILICA01', event)).toBe(true);
  });

  it('LOCK-3: a lock held elsewhere does not stop a session that locks do not apply to', () => {
    const { b } = twoSessions();
    expect(claimRole(home.config({ ROLE_SKIP_INSTANCE_LOCK: '1' }), 'SILICA01', b)).toEqual({ ok: true, how: 'skipped' });
    expect(readLock(home, 'SILICA01')).toMatchObject({ sessionKey: 'sess-a' });
  });

  it('refuses an invalid role ID before touching a path', () => {
    home = makeCallHome([]);
    expect(() => claimRole(home.config(), '../x', hookEvent(home, 'sess-a'))).toThrow(expect.objectContaining({ code: 'INVALID_ID' }));
  });
});

describe('clock skew (issue 11)', () => {
  const MINUTE = 60_000;

  it('with the clock a day ahead of every transcript, six sessions claiming one after another leave one holder', () => {
    home = makeCallHome([]);
    const config = home.config({ KIOKU_NOW: new Date(DAY.getTime() + 24 * 60 * MINUTE).toISOString() });
    const results = Array.from({ length: 6 }, (_, i) => {
      writeTranscript(home, `racer-${i}`); // written "now" on the files' clock: DAY
      return claimRole(config, 'SILICA01', hookEvent(home, `racer-${i}`));
    });
    expect(results[0]).toMatchObject({ ok: true, how: 'created' });
    for (const result of results.slice(1)) expect(result).toMatchObject({ ok: false, holder: { sessionKey: 'racer-0' } });
    expect(readLock(home, 'SILICA01')).toMatchObject({ sessionKey: 'racer-0' });
  });

  it('LOCK-2 still frees the role under that skew once the holder claimed longer ago than the idle limit', () => {
    home = makeCallHome([]);
    const now = new Date(DAY.getTime() + 24 * 60 * MINUTE);
    const config = home.config({ KIOKU_NOW: now.toISOString() });
    writeTranscript(home, 'sess-a');
    writeTranscript(home, 'sess-b');
    expect(claimRole(config, 'SILICA01', hookEvent(home, 'sess-a'), new Date(now.getTime() - 31 * MINUTE))).toMatchObject({
      how: 'created',
    });
    expect(claimRole(config, 'SILICA01', hookEvent(home, 'sess-b'))).toMatchObject({ ok: true, how: 'taken-over' });
  });

  it('a holder claim dated ahead of the clock is no sign of life', () => {
    home = makeCallHome([]);
    const config = home.config();
    writeTranscript(home, 'sess-a', 40);
    writeTranscript(home, 'sess-b', 40); // the claimant's own transcript looks idle too
    fs.mkdirSync(`${home.roleHome}/.locks`, { recursive: true });
    const a = hookEvent(home, 'sess-a');
    const future = formatLocalIso(new Date(DAY.getTime() + 24 * 60 * MINUTE));
    fs.writeFileSync(
      lockFile(home, 'SILICA01'),
      JSON.stringify({ role: 'SILICA01', sessionKey: 'sess-a', transcriptPath: a.transcriptPath, assistant: 'claude', since: future }),
    );
    expect(claimRole(config, 'SILICA01', hookEvent(home, 'sess-b'))).toMatchObject({ ok: true, how: 'taken-over' });
  });

  describe('a transcript whose times are ahead of the clock', () => {
    // The clock a month behind the real one: the files' real change times (ctime, which no test
    // can set) are ahead of it too, so only what is seen counts.
    const frozen = new Date(Math.floor(Date.now() / 1000) * 1000 - 30 * 24 * 60 * MINUTE);
    const at = (minutes: number) => new Date(frozen.getTime() + minutes * MINUTE);
    const setup = () => {
      home = makeCallHome([], frozen);
      const config = home.config();
      const holder = writeTranscript(home, 'sess-a', -365 * 24 * 60, frozen); // mtime a year ahead
      writeTranscript(home, 'sess-b', 0, frozen);
      expect(claimRole(config, 'SILICA01', hookEvent(home, 'sess-a'), at(-120))).toMatchObject({ how: 'created' });
      return { config, holder, b: hookEvent(home, 'sess-b') };
    };

    it('keeps the holder while the transcript is seen changing, and frees the role once it is seen unchanged for the idle limit', () => {
      const { config, holder, b } = setup();
      expect(claimRole(config, 'SILICA01', b, at(0))).toMatchObject({ ok: false, holder: { sessionKey: 'sess-a' } });
      expect(claimRole(config, 'SILICA01', b, at(20))).toMatchObject({ ok: false });
      // Written again (still with a future mtime): seen changing, so active again from here.
      fs.appendFileSync(holder, '{"type":"assistant"}\n');
      const future = new Date(frozen.getTime() + 365 * 24 * 60 * MINUTE);
      fs.utimesSync(holder, future, future);
      expect(claimRole(config, 'SILICA01', b, at(40))).toMatchObject({ ok: false });
      expect(claimRole(config, 'SILICA01', b, at(69))).toMatchObject({ ok: false });
      expect(claimRole(config, 'SILICA01', b, at(71))).toMatchObject({ ok: true, how: 'taken-over' });
      // The sightings go with the lock they were about.
      expect(fs.readdirSync(`${home.roleHome}/.locks`)).toEqual(['SILICA01.lock']);
    });
  });
});

describe('releaseOwnLocks and unlockRoles', () => {
  it("releases only locks recorded with this session's transcript", () => {
    const { config, a, b } = twoSessions();
    claimRole(config, 'YUI01', b);
    expect(releaseOwnLocks(config, b)).toEqual(['YUI01']);
    expect(readLock(home, 'SILICA01')).toMatchObject({ sessionKey: 'sess-a' });
    expect(releaseOwnLocks(config, a)).toEqual(['SILICA01']);
  });

  it('LOCK-5: unlock one role, or every role', () => {
    const { config, b } = twoSessions();
    claimRole(config, 'YUI01', b);
    claimRole(config, 'MUSE01', b);
    expect(unlockRoles(config, 'YUI01')).toEqual([{ role: 'YUI01', holder: expect.objectContaining({ sessionKey: 'sess-b' }) }]);
    expect(unlockRoles(config, 'YUI01')).toEqual([]);
    expect(unlockRoles(config).map((entry) => entry.role)).toEqual(['MUSE01', 'SILICA01']);
    expect(fs.readdirSync(`${home.roleHome}/.locks`)).toEqual([]);
  });
});
