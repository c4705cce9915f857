import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredMemory } from '../../../../common/memory.js';
import { readPlanAnswer } from './cli-planner/plan-answer.js';
import { SLEEP_PROMPT_NAME } from './cli-planner/sleep-prompt.js';
import { planProblems } from './sleep-plan.js';
import { supersedeProblems } from './supersede-validation.js';

/**
 * Issue 12, failure 2, the LLM side: the plan schema carries `supersede` (an LLM planner can say
 * that a new memory replaces an older preference), it is validated like the rest of a plan, and
 * the consolidation prompt asks for it.
 */
const FILL = { id: 'p1', role: 'TESTER01', planner: 'cli:claude', batch: ['a1'] };
const created = {
  key: 'n1',
  category: 'important',
  summary: '改用 pnpm',
  body: '主旨：改用 pnpm\n細節：不要再用 yarn',
  tags: ['pnpm'],
  priority: 4,
  cues: [],
  memory_type: 'preference',
  declarative: 'explicit',
  relevance: [],
  expires: '',
  links: [],
  sources: ['a1'],
};

function stored(id: string, memory_type: string, extra: Record<string, unknown> = {}): StoredMemory {
  return { id, memory_type, category: 'important', summary: id, extra } as unknown as StoredMemory;
}

describe('plan schema: supersede (issue 12)', () => {
  it('reads a model answer with supersede and checks its ids', () => {
    const answer = readPlanAnswer(
      { create: [created], supersede: [{ target: 'm-yarn', by: 'n1', reason: '改用 pnpm' }], digest: 'd' },
      FILL,
    );
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.plan.supersede).toEqual([{ target: 'm-yarn', by: 'n1', reason: '改用 pnpm' }]);
    expect(planProblems(answer.plan, new Set(['m-yarn']))).toEqual([]);
    expect(planProblems(answer.plan, new Set())).toEqual([expect.stringContaining('m-yarn is not an existing memory')]);
    const unknownBy = readPlanAnswer({ create: [created], supersede: [{ target: 'm-yarn', by: 'n9' }], digest: 'd' }, FILL);
    expect(unknownBy.ok && planProblems(unknownBy.plan, new Set(['m-yarn']))).toEqual([expect.stringContaining('unknown n9')]);
  });

  it('never supersedes an emotional memory, one already superseded, or one the plan also merges into', () => {
    const answer = readPlanAnswer(
      {
        create: [created],
        supersede: [
          { target: 'm-feel', by: 'n1' },
          { target: 'm-old', by: 'n1' },
          { target: 'm-ok', by: 'n1' },
        ],
        digest: 'd',
      },
      FILL,
    );
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    const existing = new Map([
      ['m-feel', stored('m-feel', 'emotional')],
      ['m-old', stored('m-old', 'preference', { superseded_by: 'm-x' })],
      ['m-ok', stored('m-ok', 'preference')],
    ]);
    const problems = supersedeProblems(answer.plan, existing);
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).toContain('m-feel is an emotional memory');
    expect(problems.join('\n')).toContain('m-old is already superseded');
  });

  it('the consolidation prompt asks the model for supersede', () => {
    const prompt = fs.readFileSync(path.join(__dirname, '../../../../resources/prompts', SLEEP_PROMPT_NAME), 'utf8');
    expect(prompt).toContain('"supersede":[{"target"');
    expect(prompt).toMatch(/改用.*不要再/u);
    // Issue 12 item 3: the user's own name and form of address (in the material only with consent)
    // are kept as a first-class fact, not forbidden as they were.
    expect(prompt).toMatch(/使用者自己說的姓名與希望的稱呼，只有素材裡已經寫著時才保留/u);
    expect(prompt).not.toMatch(/連線字串、Email、電話、姓名/u);
  });
});
