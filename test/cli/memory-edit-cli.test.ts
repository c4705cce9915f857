import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeMemoryFixture } from '../helpers/memory-fixtures.js';
import { runKioku, runKiokuJson } from '../helpers/run-cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/** `kioku memory edit|pin|unpin|wrong|forget <id>` (issue 16). Needs `node scripts/build.mjs` first. */
const ROLE = 'TESTER01';
let home: TempHome;
beforeEach(() => {
  home = makeTempHome({ KIOKU_NOW: '2026-12-01T12:00:00+08:00' });
  fs.writeFileSync(path.join(home.roleHome, `${ROLE}.identity.md`), `---\nid: ${ROLE}\nname: 測試\nemoji: 🧪\n---\n\n# 測試\n`);
  fs.writeFileSync(path.join(home.roleHome, '.active'), `${ROLE}\n`);
});
afterEach(() => home.cleanup());

const write = (category: string, id: string, fields: Record<string, unknown> = {}) =>
  writeMemoryFixture(
    home.memoryHome,
    ROLE,
    category,
    id,
    {
      summary: `摘要 ${id}`,
      priority: 3,
      memory_type: 'semantic',
      created: '2026-11-01T09:00:00+08:00',
      updated: '2026-11-01T09:00:00+08:00',
      ...fields,
    },
    '舊的內容',
  );

describe('memory edit', () => {
  it('changes the given fields, takes the body on stdin and moves the file on a category change', () => {
    const file = write('inbox', 'port');
    const answer = runKiokuJson<{ changed: string[]; path: string; movedFrom: string }>(
      [
        'memory',
        'edit',
        'port',
        '--summary',
        '服務埠改成 8080',
        '--tags',
        '設定，埠',
        '--priority',
        '5',
        '--category',
        'important',
        '--body-stdin',
      ],
      home.env,
      '- 第一點\n- 第二點\n',
    );
    expect(answer.changed).toEqual(['summary', 'body', 'tags', 'priority', 'category']);
    expect(answer.movedFrom).toBe(file);
    expect(fs.existsSync(file)).toBe(false);
    const text = fs.readFileSync(answer.path, 'utf8');
    expect(text).toContain('summary: 服務埠改成 8080');
    expect(text).toContain('tags: [設定, 埠]');
    expect(text).toContain('- 第一點\n- 第二點');
  });

  it('refuses an edit with nothing to change, a bad value, or an unknown ID: exit 2 or 1 and the value named', () => {
    write('daily', 'x');
    expect(runKioku(['memory', 'edit', 'x'], home.env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/nothing to change/) });
    expect(runKioku(['memory', 'edit', 'x', '--priority', '7'], home.env)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/priority "7" must be a whole number from 1 to 5/),
    });
    const missing = runKioku(['memory', 'edit', 'nope', '--priority', '2'], home.env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/no memory "nope" in TESTER01/);
    expect(missing.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it('--expires none removes the expiry', () => {
    const file = write('daily', 'grant', { expires: '2026-12-31' });
    runKiokuJson(['memory', 'edit', 'grant', '--expires', 'none'], home.env);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^expires: *(null|~|'')?$/m);
    expect(fs.readFileSync(file, 'utf8')).not.toContain('2026-12-31');
  });
});

describe('memory pin / unpin', () => {
  it('pins so that forget leaves it, and unpin lets forget take it again', () => {
    const file = write('daily', 'old', { priority: 1, memory_type: 'episodic', updated: '2026-09-01T09:00:00+08:00' });
    expect(runKioku(['memory', 'pin', 'old'], home.env).stdout).toMatch(/pinned daily\/old \(pinned\)/);
    expect(runKiokuJson<{ forgotten: unknown[] }>(['memory', 'forget', '--dry-run'], home.env).forgotten).toEqual([]);
    runKioku(['memory', 'unpin', 'old'], home.env);
    expect(fs.readFileSync(file, 'utf8')).not.toContain('pinned');
    expect(runKiokuJson<{ forgotten: { id: string }[] }>(['memory', 'forget', '--dry-run'], home.env).forgotten.map((f) => f.id)).toEqual([
      'old',
    ]);
  });
});

describe('memory forget <id> and restore', () => {
  it('forgets one memory now and prints how to undo it; restore brings the same bytes back', () => {
    const file = write('important', 'keep-me', { priority: 5 });
    const bytes = fs.readFileSync(file);
    const result = runKioku(['memory', 'forget', 'keep-me'], home.env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`undo: kioku memory restore keep-me --role ${ROLE}`);
    expect(fs.existsSync(file)).toBe(false);
    expect(runKioku(['memory', 'restore', 'keep-me'], home.env).code).toBe(0);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it('without an ID still forgets only faded memories, as before', () => {
    const fresh = write('important', 'fresh', { priority: 5 });
    const faded = write('daily', 'faded', { priority: 1, memory_type: 'episodic', updated: '2026-09-01T09:00:00+08:00' });
    runKiokuJson(['memory', 'forget'], home.env);
    expect(fs.existsSync(fresh)).toBe(true);
    expect(fs.existsSync(faded)).toBe(false);
  });
});

describe('memory wrong', () => {
  it('labels the memory as corrected and writes the correction as a new memory', () => {
    const file = write('important', 'yarn', { memory_type: 'preference' });
    const answer = runKiokuJson<{ correction: { id: string; path: string } }>(
      ['memory', 'wrong', 'yarn', '--correction', '改用 pnpm'],
      home.env,
    );
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('summary: 〔已更正〕摘要 yarn');
    expect(text).toContain(`superseded_by: ${answer.correction.id}`);
    expect(fs.readFileSync(answer.correction.path, 'utf8')).toContain('改用 pnpm');
  });
});
