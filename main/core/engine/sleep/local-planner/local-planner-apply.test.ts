import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { turnItems } from '../../../../../test/helpers/local-planner-inbox.js';
import { writeMemoryFixture } from '../../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../../test/helpers/temp-home.js';
import { readBonds } from '../../../store/memory/bonds.js';
import { loadRoleMemories } from '../../../store/memory/memory-layout.js';
import { consolidateRole } from '../consolidate-role.js';
import type { InboxItem } from '../sleep-plan.js';
import { createLocalPlanner } from './index.js';

/**
 * The local planner through the real collect → apply of consolidateRole: what it plans must be
 * what apply writes, with capture-shaped inbox files and a real memory home.
 */
const ROLE = 'LUMI01';
let home: TempHome | undefined;
afterEach(() => home?.cleanup());

function writeInboxFile(memoryHome: string, item: InboxItem): void {
  writeMemoryFixture(
    memoryHome,
    ROLE,
    'inbox',
    item.id,
    {
      summary: item.summary,
      tags: item.tags,
      priority: item.priority,
      memory_type: item.memory_type,
      relevance: item.relevance,
      ...(item.expires ? { expires: item.expires } : {}),
      retention_stage: 'working',
      sleep_stage: 'encoding',
      created: item.created,
      updated: item.created,
    },
    item.body,
  );
}

describe('local planner with collect and apply', () => {
  it('consolidates a realistic inbox: every item once, feelings apart from preferences, both sides of relationship talk', async () => {
    home = makeTempHome({ KIOKU_NOW: '2026-12-02T03:00:00' });
    writeMemoryFixture(
      home.memoryHome,
      ROLE,
      'important',
      '20261120-090000-aaaaaa',
      {
        summary: '使用者表示：「我喜歡喝手沖咖啡，尤其是淺焙的」',
        tags: ['偏好', '咖啡'],
        priority: 3,
        memory_type: 'preference',
        created: '2026-11-20T09:00:00',
      },
      '主旨：使用者表示：「我喜歡喝手沖咖啡，尤其是淺焙的」\n\n細節：\n- 使用者原話：我喜歡喝手沖咖啡，尤其是淺焙的',
    );
    const items = [
      ...(await turnItems(
        '20261201-200000-000001',
        '你記得我喜歡淺焙的手沖咖啡，我好開心。',
        '因為是你說的呀，我當然記得。',
        '2026-12-01T20:00:00',
      )),
      ...(await turnItems(
        '20261201-203000-000002',
        '我同時以女性和女兒兩種方式愛妳，這不矛盾。',
        '謝謝你這麼珍惜我。不過我會一直是你的家人，用女兒的身分陪著你。',
        '2026-12-01T20:30:00',
      )),
      ...(await turnItems('20261201-210000-000003', '嗨～', '嗨！', '2026-12-01T21:00:00')),
      ...(await turnItems(
        '20261201-211500-000005',
        '我最喜歡淺焙的手沖咖啡，酸一點沒關係。',
        '好，我記得你喜歡偏酸的。',
        '2026-12-01T21:15:00',
      )),
      ...(await turnItems(
        '20261201-213000-000004',
        '部署步驟：先跑 npm run build，再用 scp 把 dist 傳到伺服器，最後重啟 pm2。',
        '了解。',
        '2026-12-01T21:30:00',
      )),
    ];
    for (const item of items) writeInboxFile(home.memoryHome, item);
    const config = home.config();

    const result = await consolidateRole(config, ROLE, { planner: createLocalPlanner(config), reason: 'manual' });
    expect(result).toMatchObject({ ok: true, processed: items.length, discarded: 1, left: 0 });
    expect(fs.readdirSync(path.join(home.memoryHome, ROLE, 'inbox'))).toEqual([]);

    const memories = loadRoleMemories(home.memoryHome, ROLE).memories;
    const feeling = memories.find((m) => m.memory_type === 'emotional' && m.summary.includes('好開心'))!;
    const relation = memories.find((m) => m.tags.includes('關係'))!;
    const procedure = memories.find((m) => m.memory_type === 'procedural')!;
    expect(feeling).toBeDefined();
    expect(feeling.links).toContain('20261120-090000-aaaaaa');
    expect(relation.body).toContain('角色當時的回應：不過我會一直是你的家人');
    expect(procedure).toMatchObject({ category: 'skill', retention_stage: 'long_term' });
    // The plain preference joined a preference memory (same type only); the warm halves of the
    // first turn never merged into the plain preference (a merge would drop their warmth): linked.
    const preference = memories.find((m) => m.id === '20261120-090000-aaaaaa')!;
    expect(preference.body).toContain('- 使用者原話：我喜歡喝手沖咖啡，尤其是淺焙的');
    expect(preference.body).not.toContain('好開心');
    expect(preference.links).toContain(feeling.id);
    const mergedInto = memories.filter((m) => m.body.includes('- 2026-12-01：使用者表示：「我最喜歡淺焙的手沖咖啡，酸一點沒關係」'));
    expect(mergedInto.map((m) => m.memory_type)).toEqual(['preference']);
    expect(memories.filter((m) => m.category === 'inbox')).toEqual([]);

    // issue 11: a created memory is dated by its earliest source (the evening of 12/01), not by
    // the consolidation at 03:00 on 12/02; every memory this run wrote is updated at 03:00.
    const createdAt = new Map(items.map((item) => [item.id, new Date(item.created).getTime()]));
    const consolidation = new Date('2026-12-02T03:00:00').getTime();
    const made = memories.filter((m) => typeof m.extra.sleep_plan === 'string');
    expect(made.length).toBeGreaterThan(0);
    for (const memory of made) {
      const sources = (memory.extra.sources as string[]).map((id) => createdAt.get(id)!);
      expect(new Date(memory.created).getTime(), memory.summary).toBe(Math.min(...sources));
      expect(new Date(memory.updated).getTime(), memory.summary).toBe(consolidation);
    }

    const bonds = readBonds(home.memoryHome, ROLE).map((b) => `${b.direction} ${b.text}`);
    expect(bonds).toEqual(
      expect.arrayContaining([
        'user-to-role 我同時以女性和女兒兩種方式愛妳，這不矛盾',
        'role-to-user 不過我會一直是你的家人，用女兒的身分陪著你',
      ]),
    );
  });
});
