import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { parseMemory } from '../../main/core/store/memory/memory-file.js';
import { rememberText } from '../../main/core/engine/capture/remember.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/** Issue 12: an explicit "remember this" (CAP-7, CLI and MCP) records its project like capture does. */
const ROLE = 'SILICA01';
const A = '/work/shop-api';
let home: TempHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

async function remembered(text: string, project?: string) {
  home ??= makeTempHome({ KIOKU_NOW: '2026-03-10T14:00:00' });
  const { memory } = await rememberText(home.config(), ROLE, { text, ...(project ? { project } : {}) });
  return parseMemory(fs.readFileSync(memory.path, 'utf8')).extra;
}

describe('remember in a project (issue 12)', () => {
  it('a convention of the project is kept to it; a wish of the user only records where it was said; no project, no keys', async () => {
    expect(await remembered('這個 repo 用 `pnpm run build` 建置，不要用 npm', A)).toMatchObject({ project: A, project_specific: true });
    const wish = await remembered('我喜歡簡短、先講結論的回答', A);
    expect(wish).toMatchObject({ project: A });
    expect(wish.project_specific).toBeUndefined();
    // A folder named in Simplified Chinese stays that folder: a path is not text to script-guard (PRIV-2).
    expect(await remembered('本專案的檔名用 kebab-case', '/home/u/项目/后端')).toMatchObject({
      project: '/home/u/项目/后端',
      project_specific: true,
    });
    // Without a project nothing is added: the memory is global as before.
    const extra = await remembered('這個 repo 用 pnpm run build 建置');
    expect(extra.project).toBeUndefined();
    expect(extra.project_specific).toBeUndefined();
  });
});
