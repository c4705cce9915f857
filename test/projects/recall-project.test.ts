import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../main/core/platform/config/clock.js';
import { openMemoryIndex, type MemoryIndex } from '../../main/core/store/index/memory-index.js';
import { recall } from '../../main/core/store/index/recall.js';
import { otherProjectLabel } from '../../main/core/store/index/recall-project.js';
import { ROLE, writeMemory } from '../cli/recall-test-fixtures.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * Issue 12: `kioku memory recall` in a project ranks that project's memories first and labels
 * other projects' conventions with their project. Here the other project's convention matches
 * the query best (its words repeat it), so plain score order would put it first.
 */
const A = '/work/shop-api';
const B = '/work/blog';
let home: TempHome;
let index: MemoryIndex;
const clock = fixedClock(new Date(2026, 2, 10, 12, 0));

beforeEach(() => {
  home = makeTempHome();
  index = openMemoryIndex(home.config().paths);
  writeMemory(home.memoryHome, 'important', {
    id: 'blog-rule',
    summary: '函式命名：前綴 blog_，函式命名一律如此',
    memory_type: 'rule',
    project: B,
    project_specific: true,
  });
  writeMemory(home.memoryHome, 'important', {
    id: 'shop-rule',
    summary: '函式命名用 kio_ 前綴',
    memory_type: 'rule',
    project: A,
    project_specific: true,
  });
  writeMemory(home.memoryHome, 'important', { id: 'general', summary: '函式命名要看得懂，不縮寫', memory_type: 'preference' });
});
afterEach(() => {
  index.close();
  home.cleanup();
});

describe('recall in a project (issue 12)', () => {
  it('puts the current project’s memories first, user-wide ones next, other projects’ conventions last and labelled', () => {
    const found = recall(index, { role: ROLE, query: '函式命名', clock, writeBack: false, project: A }).memories;
    expect(found.map((m) => m.id)).toEqual(['shop-rule', 'general', 'blog-rule']);
    expect(found[0]?.project).toEqual({ projects: [A], specific: true, here: true });
    expect(found[1]?.project).toBeUndefined();
    expect(otherProjectLabel(found[2]?.project)).toContain(B);
    expect(otherProjectLabel(found[0]?.project)).toBe('');
  });

  it('cuts to the limit after ranking, so a project’s own memory is not lost behind better-scoring others', () => {
    const found = recall(index, { role: ROLE, query: '函式命名', clock, writeBack: false, project: A, limit: 1 }).memories;
    expect(found.map((m) => m.id)).toEqual(['shop-rule']);
  });

  it('outside any project: score order, the conventions still say whose they are', () => {
    const found = recall(index, { role: ROLE, query: '函式命名', clock, writeBack: false }).memories;
    expect(found[0]?.id).toBe('blog-rule');
    expect(otherProjectLabel(found[0]?.project)).toContain(B);
  });
});
