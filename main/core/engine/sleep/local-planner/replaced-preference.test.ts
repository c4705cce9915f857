import { afterEach, describe, expect, it } from 'vitest';
import { turnItems, writeInboxItem } from '../../../../../test/helpers/local-planner-inbox.js';
import { makeTempHome, type TempHome } from '../../../../../test/helpers/temp-home.js';
import { loadSettings } from '../../../platform/config/load-settings.js';
import { resolvePaths } from '../../../platform/config/paths.js';
import { fixedClock } from '../../../platform/config/clock.js';
import { assembleSessionContext } from '../../context/assemble-session-context.js';
import { defaultMemoryState } from '../../../store/memory/memory-state.js';
import { loadRoleMemories } from '../../../store/memory/memory-layout.js';
import { parseSplitRole } from '../../../store/roles/role-definition.js';
import { openMemoryIndex } from '../../../store/index/memory-index.js';
import { recall } from '../../../store/index/recall.js';
import { consolidateRole } from '../consolidate-role.js';
import type { InboxItem } from '../sleep-plan.js';
import { createLocalPlanner } from './index.js';

/**
 * Issue 12, failure 2: 「我們用 yarn」, days later 「改用 pnpm 了，不要再用 yarn」 — both ended as
 * 〔重要〕 rules in the context. Through the real path (local condenser → inbox files → local planner
 * with collect and apply, two nights → SessionStart assembly): the older memory is superseded,
 * kept for history and labelled, and only the new wish is injected.
 */
const ROLE = 'LUMI01';
let home: TempHome | undefined;
afterEach(() => home?.cleanup());

const writeInbox = (memoryHome: string, item: InboxItem) => writeInboxItem(memoryHome, item, ROLE);

async function night(memoryHome: string, at: string, items: InboxItem[]) {
  for (const item of items) writeInbox(memoryHome, item);
  const config = home!.config({ KIOKU_NOW: at });
  const result = await consolidateRole(config, ROLE, { planner: createLocalPlanner(config), reason: 'manual' });
  expect(result).toMatchObject({ ok: true, processed: items.length });
}

const role = parseSplitRole(
  ROLE,
  { path: '/r/i.md', text: `---\nid: ${ROLE}\nname: 露米\nemoji: 🌙\n---\n\n# 露米\n` },
  { path: '/r/s.md', text: `---\nid: ${ROLE}\n---\n\n## 本質（nature）\n\n溫柔的工程夥伴。\n\n## 氛圍（vibe）\n\n輕鬆。\n` },
);

function contextText(memoryHome: string, now: string): string {
  const { settings } = loadSettings({}, {});
  const config = { settings, paths: resolvePaths(settings, { HOME: '/home/u' }), clock: fixedClock(now) };
  const memories = loadRoleMemories(memoryHome, ROLE).memories;
  const result = assembleSessionContext({
    config,
    role,
    memories,
    state: defaultMemoryState(),
    bonds: [],
    dialog: [],
    facts: '',
    journalEntries: 0,
    peers: [role],
  });
  return result.parts.join('\n');
}

describe('a corrected preference stays current (issue 12)', () => {
  it('the older preference is superseded, kept as history, and never injected as current', async () => {
    home = makeTempHome({ KIOKU_NOW: '2026-11-25T03:00:00' });
    const first = await turnItems(
      '20261124-210000-000001',
      '我們這個專案一律用 yarn 管理套件。',
      '好，我會用 yarn。',
      '2026-11-24T21:00:00',
    );
    await night(home.memoryHome, '2026-11-25T03:00:00', first);
    const before = loadRoleMemories(home.memoryHome, ROLE).memories;
    const yarn = before.find((m) => m.memory_type === 'preference' && m.summary.includes('yarn'))!;
    expect(yarn).toBeDefined();

    const second = await turnItems(
      '20261128-100000-000002',
      '改用 pnpm 了，不要再用 yarn。',
      '了解，之後都用 pnpm。',
      '2026-11-28T10:00:00',
    );
    await night(home.memoryHome, '2026-11-29T03:00:00', second);

    const after = loadRoleMemories(home.memoryHome, ROLE).memories;
    const pnpm = after.find((m) => m.id !== yarn.id && m.memory_type === 'preference' && m.summary.includes('pnpm'))!;
    expect(pnpm).toBeDefined();
    const old = after.find((m) => m.id === yarn.id)!;
    // Kept for history, marked and labelled as past.
    expect(old.extra.superseded_by).toBe(pnpm.id);
    expect(old.summary).toMatch(/^〔已更正〕/u);
    expect(old.body).toContain('我們這個專案一律用 yarn 管理套件');
    expect(pnpm.links).toContain(yarn.id);

    // Recall still finds it, shown as past.
    const index = openMemoryIndex(home.config().paths);
    try {
      const found = recall(index, {
        role: ROLE,
        query: 'yarn',
        clock: fixedClock('2026-11-29T09:00:00'),
        writeBack: false,
        limit: 10,
      }).memories;
      expect(found.find((m) => m.id === yarn.id)?.summary).toMatch(/^〔已更正〕/u);
    } finally {
      index.close();
    }

    const text = contextText(home.memoryHome, '2026-11-29T09:00:00');
    expect(text).toContain('改用 pnpm 了');
    expect(text).not.toContain('一律用 yarn');
  });
});
