import { describe, expect, it } from 'vitest';
import { sleepPlanSchema } from '../sleep-plan.js';
import { extractJsonObject } from './extract-json.js';
import { readPlanAnswer } from './plan-answer.js';

const FILL = { id: 'p1', role: 'TESTER01', planner: 'cli:claude', batch: ['a1', 'a2'] };

const create = (source: string, extra: Record<string, unknown> = {}) => ({
  key: `n-${source}`,
  category: 'important',
  summary: '摘要',
  body: '主旨：x\n細節：y',
  tags: ['t'],
  priority: 4,
  cues: [],
  memory_type: 'preference',
  declarative: 'explicit',
  relevance: [],
  expires: '',
  links: [],
  sources: [source],
  ...extra,
});

describe('extractJsonObject', () => {
  it('finds the object after prose, inside a fence, and skips a broken span without taking its nested object', () => {
    expect(extractJsonObject('結果如下：{"a":1} 謝謝')).toEqual({ ok: true, value: { a: 1 } });
    expect(extractJsonObject('好的\n```json\n{"a":"}{"}\n```\n')).toEqual({ ok: true, value: { a: '}{' } });
    expect(extractJsonObject('{"a": {"b": 1}, oops} {"c":2}')).toEqual({ ok: true, value: { c: 2 } });
    expect(extractJsonObject('{"a": {"b": 1}, oops}')).toMatchObject({ ok: false, kind: 'invalid' });
  });

  it('an object that never closes is truncated; no object at all is invalid', () => {
    expect(extractJsonObject('{"create":[{"key":"n1","summary":"半')).toMatchObject({ ok: false, kind: 'truncated' });
    expect(extractJsonObject('```json\n{"create":[')).toMatchObject({ ok: false, kind: 'truncated' });
    expect(extractJsonObject('我不輸出 JSON')).toMatchObject({ ok: false, kind: 'invalid' });
    expect(extractJsonObject('[1,2]')).toMatchObject({ ok: false, kind: 'invalid' });
  });
});

describe('readPlanAnswer', () => {
  it('our fields overwrite the model’s; harmless slips are normalised', () => {
    const answer = readPlanAnswer(
      {
        id: 'model-id',
        batch: ['a1', 'a2', 'zz'],
        planner: 'me',
        create: [
          create('a1', {
            category: 'Important',
            memory_type: 'PREFERENCE',
            priority: '4',
            tags: '單一標籤',
            expires: null,
            relevance: null,
          }),
        ],
        discard: [{ source: 'a2', reason: null }],
        bonds: [{ direction: '使用者 -> 角色', text: '謝謝你', source: 'a1' }],
        links: [],
        digest: '整理完成',
      },
      FILL,
    );
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.plan).toMatchObject({ v: 1, id: 'p1', role: 'TESTER01', planner: 'cli:claude', batch: ['a1', 'a2'] });
    expect(answer.plan.create[0]).toMatchObject({
      category: 'important',
      memory_type: 'preference',
      priority: 4,
      tags: ['單一標籤'],
      expires: '',
      relevance: [],
    });
    expect(answer.plan.discard[0]!.reason).toBe('未說明');
    expect(answer.plan.bonds[0]!.direction).toBe('user-to-role');
    expect(sleepPlanSchema.parse(answer.plan)).toEqual(answer.plan);
  });

  it('a missing digest gets a factual one; meaning-changing errors still fail with the field named', () => {
    const ok = readPlanAnswer({ create: [create('a1'), create('a2')] }, FILL);
    expect(ok.ok && ok.plan.digest).toBe('整理 2 則工作記憶：新增 2、合併 0、捨棄 0。');
    const bad = readPlanAnswer({ create: [create('a1', { category: 'feelings' }), create('a2', { priority: 'high' })] }, FILL);
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.reason).toContain('create.0.category');
    expect(bad.reason).toContain('create.1.priority');
    const noSources = readPlanAnswer({ create: [create('a1', { sources: undefined })] }, FILL);
    expect(noSources.ok === false && noSources.reason).toContain('create.0.sources');
  });
});
