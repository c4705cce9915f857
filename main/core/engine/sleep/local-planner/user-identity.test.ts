import { afterEach, describe, expect, it } from 'vitest';
import { turnItems, writeInboxItem } from '../../../../../test/helpers/local-planner-inbox.js';
import { writeMemoryFixture } from '../../../../../test/helpers/memory-fixtures.js';
import { makeTempHome, type TempHome } from '../../../../../test/helpers/temp-home.js';
import { shouldCondense } from '../../capture/capture-filter.js';
import { localCondenser } from '../../capture/local-condenser.js';
import { fixedClock } from '../../../platform/config/clock.js';
import { loadSettings } from '../../../platform/config/load-settings.js';
import { resolvePaths } from '../../../platform/config/paths.js';
import { assembleSessionContext } from '../../context/assemble-session-context.js';
import { loadRoleMemories } from '../../../store/memory/memory-layout.js';
import { defaultMemoryState } from '../../../store/memory/memory-state.js';
import { parseSplitRole } from '../../../store/roles/role-definition.js';
import { consolidateRole } from '../consolidate-role.js';
import type { InboxItem } from '../sleep-plan.js';
import { createLocalPlanner } from './index.js';

/**
 * Issue 12, failure 3: 「我是王大同，叫我大同就好」 (consent accepted) became an ordinary
 * priority-3 event whose gist was the turn's first sentence (「早安！」), the first thing the budget
 * cut. Through capture → inbox → local planner → SessionStart: the name becomes a high-priority
 * semantic memory in important/ whose gist states it, inside the long-term budget however full.
 */
const ROLE = 'LUMI01';
let home: TempHome | undefined;
afterEach(() => home?.cleanup());

const role = parseSplitRole(
  ROLE,
  { path: '/r/i.md', text: `---\nid: ${ROLE}\nname: 露米\nemoji: 🌙\n---\n\n# 露米\n` },
  { path: '/r/s.md', text: `---\nid: ${ROLE}\n---\n\n## 本質（nature）\n\n溫柔的工程夥伴。\n\n## 氛圍（vibe）\n\n輕鬆。\n` },
);

const writeInbox = (memoryHome: string, item: InboxItem) => writeInboxItem(memoryHome, item, ROLE);

describe("the user's name reaches the context (issue 12)", () => {
  it('a self-introduction with consent is an important semantic memory whose gist is the name, loaded before a full budget', async () => {
    home = makeTempHome({ KIOKU_NOW: '2026-12-02T03:00:00' });
    // A budget already full of short important rules (100 × ~90 characters against 4,000): no gap
    // left where a later item would still fit.
    for (let i = 0; i < 100; i++) {
      writeMemoryFixture(
        home.memoryHome,
        ROLE,
        'important',
        `20261101-09${String(i).padStart(4, '0')}-a${String(i).padStart(5, '0')}`,
        {
          summary: `專案規範第 ${i} 條`,
          tags: ['規範'],
          priority: 5,
          memory_type: 'rule',
          created: '2026-11-01T09:00:00',
          updated: '2026-11-01T09:00:00',
        },
        `主旨：專案規範第 ${i} 條\n\n細節：\n- 提交前要跑完整的測試。`,
      );
    }
    const user = '早安！我是王大同，叫我大同就好。';
    const reply = '早安，大同！很高興認識你。';
    const { settings } = loadSettings({}, {});
    expect(shouldCondense({ userText: user, assistantText: reply }, settings).condense).toBe(true);
    const items = await turnItems('20261201-090000-000001', user, reply, '2026-12-01T09:00:00');
    for (const item of items) writeInbox(home.memoryHome, item);
    const config = home.config();
    expect(await consolidateRole(config, ROLE, { planner: createLocalPlanner(config), reason: 'manual' })).toMatchObject({ ok: true });

    const memories = loadRoleMemories(home.memoryHome, ROLE).memories;
    const name = memories.find((m) => m.summary.includes('王大同'))!;
    expect(name).toMatchObject({ category: 'important', memory_type: 'semantic', priority: 5 });
    expect(name.summary).not.toContain('早安');
    expect(name.summary).toContain('大同');

    const ctx = { settings, paths: resolvePaths(settings, { HOME: '/home/u' }), clock: fixedClock('2026-12-02T09:00:00') };
    const state = { ...defaultMemoryState(), personal_memory_consent: 'accepted' as const };
    const text = assembleSessionContext({
      config: ctx,
      role,
      memories,
      state,
      bonds: [],
      dialog: [],
      facts: '',
      journalEntries: 0,
      peers: [role],
    }).parts.join('\n');
    expect(text).toContain('使用者名叫王大同');
    expect(text).toContain('希望被稱呼「大同」');
  });

  it('without consent no name memory is made; any turn gist is its salient statement, not a greeting', async () => {
    const now = new Date('2026-12-01T09:00:00');
    const base = { roleId: ROLE, roleName: '露米', now, trigger: 'stop' as const };
    const unknown = await localCondenser.condense({
      ...base,
      userText: '早安！我是[個人資料已省略]，叫我[個人資料已省略]就好。',
      assistantText: '早安！',
      consent: 'unknown',
    });
    expect(unknown.every((m) => m.memory_type !== 'semantic' && !m.relevance.includes('identity'))).toBe(true);
    const plain = await localCondenser.condense({
      ...base,
      userText: '早安！今天要把部署腳本改成用 docker compose 跑。',
      assistantText: '好，我們開始吧。',
      consent: 'accepted',
    });
    expect(plain[0]!.summary).toContain('部署腳本');
    expect(plain[0]!.summary).not.toContain('早安');
  });
});
