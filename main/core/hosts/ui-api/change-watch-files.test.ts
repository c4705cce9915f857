import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FilesChanged } from '../../../../common/ui-contract.js';
import { makeTempHome, type TempHome } from '../../../../test/helpers/temp-home.js';
import { createChangeWatch } from './change-watch.js';
import { noteProjectInView } from './watched-projects.js';

/**
 * The files views show outside the memory folders — FACT.md, JOURNAL.jsonl, an open project's
 * MEMORY.md, a role's DIGESTS.md and state.json — are watched like the memory folders, so a
 * change made with the CLI or an editor reaches the open view.
 */
let home: TempHome;
afterEach(() => home?.cleanup());

/** Write with a file time of its own, so each change is seen whatever the file system's time resolution. */
let tick = Date.parse('2026-11-30T10:00:00+08:00');
function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  tick += 1000;
  fs.utimesSync(file, new Date(tick), new Date(tick));
}

function watch() {
  home = makeTempHome();
  const config = home.config();
  const seen: FilesChanged[] = [];
  const changeWatch = createChangeWatch({
    config,
    source: { status: () => ({ pid: 1, startedAt: '', version: 'test', memoryHome: config.paths.memoryHome, spoolPending: 0 }) },
    onMemoriesChanged: () => undefined,
    onStateMaybeChanged: () => undefined,
    onFilesChanged: (change) => void seen.push(change),
  });
  return { config, seen, check: () => changeWatch.check() };
}

describe('change-watch: files outside the memory folders', () => {
  it('reports FACT.md and JOURNAL.jsonl changes, and nothing when nothing changed', () => {
    const { config, seen, check } = watch();
    check();
    check();
    expect(seen).toEqual([]);
    write(config.paths.factsFile, '- 使用者偏好繁體中文\n');
    check();
    write(config.paths.journalFile, '{"ts":"2026-11-30T10:00:00+08:00","tags":[],"text":"一則"}\n');
    check();
    expect(seen).toEqual([
      { facts: true, journal: false, projects: [], roles: [] },
      { facts: false, journal: true, projects: [], roles: [] },
    ]);
  });

  it("reports an open project's MEMORY.md and a role's DIGESTS.md / state.json", () => {
    const { config, seen, check } = watch();
    const project = path.join(home.root, '專案');
    fs.mkdirSync(project);
    write(path.join(config.paths.memoryHome, 'ENGINEER01', 'state.json'), '{}\n');
    noteProjectInView(project);
    check();
    write(path.join(project, 'MEMORY.md'), '# 專案\n');
    check();
    write(path.join(config.paths.memoryHome, 'ENGINEER01', 'DIGESTS.md'), '# 整理摘要\n');
    check();
    expect(seen).toEqual([
      { facts: false, journal: false, projects: [project], roles: [] },
      { facts: false, journal: false, projects: [], roles: ['ENGINEER01'] },
    ]);
  });

  it('reports a MEMORY.md changed between a window reading it and the next look', () => {
    const { config, seen, check } = watch();
    const project = path.join(home.root, '另一個專案');
    write(path.join(project, 'MEMORY.md'), '# 專案\n');
    check();
    noteProjectInView(project); // the window reads the file…
    write(path.join(project, 'MEMORY.md'), '# 專案\n- 測試一律跑 vitest\n'); // …and the CLI changes it before the next look
    check();
    check();
    expect(seen).toEqual([{ facts: false, journal: false, projects: [project], roles: [] }]);
    void config;
  });
});
