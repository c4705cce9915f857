import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { defaultMemoryState, memoryStateFile, readMemoryState, setPersonalMemoryConsent, updateMemoryState } from './memory-state.js';

const ROLE = 'TESTER01';
let home: TempHome;
let file: string;
beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: '2026-12-01T12:00:00+08:00' });
  file = memoryStateFile(home.memoryHome, ROLE);
});
afterEach(() => home.cleanup());

const write = (text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

describe('readMemoryState: tolerant (MEM-3)', () => {
  it('a missing file is the defaults, without a problem', () => {
    expect(readMemoryState(home.memoryHome, ROLE)).toEqual({ state: defaultMemoryState(), problems: [], corrupt: false });
  });

  it('a corrupt file is the defaults, with a problem naming it', () => {
    write('{"last_sleep": "2026-11-30", ');
    const read = readMemoryState(home.memoryHome, ROLE);
    expect(read.state).toEqual(defaultMemoryState());
    expect(read.corrupt).toBe(true);
    expect(read.problems[0]).toContain(file);
    expect(read.problems[0]).toMatch(/not valid JSON/);
  });

  it('a wrong field falls back alone; the rest and unknown keys are kept', () => {
    write(
      JSON.stringify({
        last_sleep: '2026-11-30T03:00:00+08:00',
        total_turns: 'many',
        personal_memory_consent: 'yes',
        active_days: 12,
        sleep_notes: { a: 1 },
      }),
    );
    const read = readMemoryState(home.memoryHome, ROLE);
    expect(read.state).toMatchObject({
      last_sleep: '2026-11-30T03:00:00+08:00',
      total_turns: 0,
      personal_memory_consent: 'unknown',
      active_days: 12,
      other: { sleep_notes: { a: 1 } },
    });
    expect(read.problems).toHaveLength(2);
    expect(read.problems.join('\n')).toMatch(/"total_turns" is "many"/);
    expect(read.problems.join('\n')).toMatch(/"personal_memory_consent" is "yes", expected accepted \| declined \| unknown/);
  });
});

describe('updateMemoryState', () => {
  it('writes atomically and keeps keys it does not know', () => {
    write(JSON.stringify({ personal_memory_consent: 'unknown', from_memory_js: 'keep me', total_turns: 3 }));
    updateMemoryState(home.memoryHome, ROLE, home.config().clock, (state) => ({ ...state, total_turns: state.total_turns + 1 }));
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(saved).toMatchObject({ from_memory_js: 'keep me', total_turns: 4, personal_memory_consent: 'unknown', last_sleep: null });
    expect(fs.readdirSync(path.dirname(file)).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock'))).toEqual([]);
  });

  it('keeps a copy of a corrupt file before replacing it', () => {
    write('not json at all');
    setPersonalMemoryConsent(home.memoryHome, ROLE, home.config().clock, 'declined');
    expect(readMemoryState(home.memoryHome, ROLE).state.personal_memory_consent).toBe('declined');
    const copies = fs.readdirSync(path.dirname(file)).filter((name) => name.startsWith('state.json.corrupt-'));
    expect(copies).toHaveLength(1);
    expect(fs.readFileSync(path.join(path.dirname(file), copies[0]!), 'utf8')).toBe('not json at all');
  });

  it('reads a quoted count as the number, and keeps a copy when a value had to be replaced', () => {
    const original = JSON.stringify({ total_turns: '12', active_days: 'a few' });
    write(original);
    updateMemoryState(home.memoryHome, ROLE, home.config().clock, (state) => ({ ...state, total_turns: state.total_turns + 1 }));
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).total_turns).toBe(13);
    const copies = fs.readdirSync(path.dirname(file)).filter((name) => name.startsWith('state.json.corrupt-'));
    expect(copies.map((name) => fs.readFileSync(path.join(path.dirname(file), name), 'utf8'))).toEqual([original]);
  });
});
