import { describe, expect, it } from 'vitest';
import { combineProjectFields, projectExtra, projectFieldsOf, visibleInProject, withProjectFields } from './memory-project.js';
import { judgeProjectScope } from './project-judgement.js';

const A = '/work/shop-api';
const B = '/work/blog';

describe('project fields of a memory (issue 12)', () => {
  it('a memory without them (every seed file) is global and visible everywhere', () => {
    expect(projectFieldsOf({})).toEqual({ projects: [], specific: false });
    expect(visibleInProject({}, A)).toBe(true);
    expect(visibleInProject({}, undefined)).toBe(true);
    // project_specific without a project means nothing: there is nowhere to keep it to.
    expect(visibleInProject({ project_specific: true }, B)).toBe(true);
  });

  it('a project-specific memory is visible in its project only, a said-in project alone does not narrow', () => {
    const convention = projectExtra({ projects: [A], specific: true });
    expect(convention).toEqual({ project: A, project_specific: true });
    expect(visibleInProject(convention, A)).toBe(true);
    expect(visibleInProject(convention, `${A}/`)).toBe(true);
    expect(visibleInProject(convention, B)).toBe(false);
    expect(visibleInProject(convention, undefined)).toBe(false);
    expect(visibleInProject({ project: A }, B)).toBe(true);
    // Hand-written YAML spellings are read too.
    expect(visibleInProject({ project: [A, B], project_specific: 'true' }, B)).toBe(true);
  });

  it('consolidation: a global result keeps the project only when every part shares it', () => {
    expect(
      combineProjectFields([
        { projects: [A], specific: false },
        { projects: [A], specific: false },
      ]),
    ).toEqual({ projects: [A], specific: false });
    expect(
      combineProjectFields([
        { projects: [A], specific: false },
        { projects: [B], specific: false },
      ]),
    ).toEqual({ projects: [], specific: false });
    expect(
      combineProjectFields([
        { projects: [A], specific: false },
        { projects: [], specific: false },
      ]),
    ).toEqual({ projects: [], specific: false });
  });

  it('consolidation: a convention stays its project’s; mixing projects never widens it to global', () => {
    expect(
      combineProjectFields([
        { projects: [A], specific: true },
        { projects: [A], specific: false },
      ]),
    ).toEqual({ projects: [A], specific: true });
    expect(
      combineProjectFields([
        { projects: [A], specific: true },
        { projects: [B], specific: false },
      ]),
    ).toEqual({ projects: [A], specific: true });
    expect(
      combineProjectFields([
        { projects: [A], specific: true },
        { projects: [B], specific: true },
      ]),
    ).toEqual({ projects: [A, B], specific: true });
  });

  it('withProjectFields replaces the keys and keeps every other one', () => {
    expect(withProjectFields({ sources: ['x'], project: B, project_specific: true }, { projects: [], specific: false })).toEqual({
      sources: ['x'],
    });
  });
});

describe('judgeProjectScope: a repository’s convention or the user’s own wish', () => {
  it.each([
    ['這個 repo 的函式名一律用 kio_ 前綴', 'project'],
    ['本專案的 commit 訊息用英文寫', 'project'],
    ['In this repo we run make test before pushing', 'project'],
    ['Always run `npm run lint` before a commit', 'project'],
    ['設定檔放在 config/app.yaml，不要動 src/legacy/', 'project'],
    ['元件檔名用 PascalCase', 'project'],
    ['以後都用繁體中文回我，語氣輕鬆一點', 'global'],
    ['I prefer short answers, call me Sam', 'global'],
    ['所有專案都用 pnpm，不要用 npm', 'global'],
    ['我喜歡先講結論再講細節', 'global'],
    ['Please make sure you explain the trade-offs', 'global'],
  ] as const)('%s → %s', (text, expected) => {
    expect(judgeProjectScope(text)).toBe(expected);
  });
});
