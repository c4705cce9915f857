import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeMemoryFixture } from '../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../test/helpers/temp-home.js';
import { inboxCount, lastInteraction } from './last-interaction.js';

const ROLE = 'ALPHA01';
let home: TempHome;
afterEach(() => home.cleanup());

const touch = (file: string, at: Date) => fs.utimesSync(file, at, at);

describe('last interaction (the nap idle clock, SLEEP-2)', () => {
  it('is undefined for a role nobody has talked to, and takes the newest of its sources', () => {
    home = makeTempHome();
    const config = home.config();
    expect(lastInteraction(config, ROLE)).toBeUndefined();

    fs.mkdirSync(path.join(home.memoryHome, ROLE), { recursive: true });
    fs.writeFileSync(path.join(home.memoryHome, ROLE, 'state.json'), JSON.stringify({ last_activity: '2026-12-01T10:00:00+08:00', last_sleep: '2026-12-01T12:00:00+08:00' }));
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
    fs.writeFileSync(path.join(home.roleHome, '.locks', `${ROLE}.lock`), JSON.stringify({ role: ROLE, sessionKey: 's', transcriptPath: transcript, assistant: 'claude', since: '' }));
    expect(lastInteraction(config, ROLE)).toEqual({ at: new Date('2026-12-01T11:45:00+08:00'), source: 'transcript' });
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
