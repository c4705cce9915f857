import { afterEach, describe, expect, it } from 'vitest';
import { turnItems, writeInboxItem } from '../../../../../test/helpers/local-planner-inbox.js';
import { makeTempHome, type TempHome } from '../../../../../test/helpers/temp-home.js';
import { shouldCondense } from '../../capture/capture-filter.js';
import { loadSettings } from '../../../platform/config/load-settings.js';
import { loadRoleMemories } from '../../../store/memory/memory-layout.js';
import { consolidateRole } from '../consolidate-role.js';
import type { InboxItem } from '../sleep-plan.js';
import { createLocalPlanner } from './index.js';

/**
 * Issue 12, failure 6: a rule said three times became two event memories and the first was lost.
 * A short turn stating a rule with 請用 is captured whatever its length (CAP-1), and paraphrases of
 * one rule — in one night's inbox or across nights — merge into one memory (hits counted, sources
 * kept), judged by their shared key term (camelCase) as well as by character n-grams. A feeling
 * about the same thing still never merges into the preference (MEM-5).
 */
const ROLE = 'LUMI01';
let home: TempHome | undefined;
afterEach(() => home?.cleanup());

const SAID = [
  { user: '寫 TypeScript 的時候請用 camelCase 命名變數。', reply: '好的，我之後會注意變數命名。', at: '2026-11-24T21:00:00' },
  { user: '變數名稱一律用 camelCase，不要用 snake_case。', reply: '了解，我會統一。', at: '2026-11-26T21:00:00' },
  { user: '記得以後都用 camelCase 命名變數喔。', reply: '好，記住了。', at: '2026-11-28T21:00:00' },
];

const writeInbox = (memoryHome: string, item: InboxItem) => writeInboxItem(memoryHome, item, ROLE);

/** What capture keeps of a turn (the CAP-1 filter, then the local condenser), as inbox items. */
async function captured(id: string, turn: (typeof SAID)[number]): Promise<InboxItem[]> {
  const { settings } = loadSettings({}, {});
  if (!shouldCondense({ userText: turn.user, assistantText: turn.reply }, settings).condense) return [];
  return turnItems(id, turn.user, turn.reply, turn.at);
}

async function night(at: string, items: InboxItem[]) {
  for (const item of items) writeInbox(home!.memoryHome, item);
  const config = home!.config({ KIOKU_NOW: at });
  const result = await consolidateRole(config, ROLE, { planner: createLocalPlanner(config), reason: 'manual' });
  expect(result).toMatchObject({ ok: true, processed: items.length });
}

const camelCase = () =>
  loadRoleMemories(home!.memoryHome, ROLE).memories.filter((m) => m.category !== 'inbox' && m.body.includes('camelCase'));

describe('a rule said three times is one memory (issue 12)', () => {
  it('a short rule with 請用 is captured although it is under the length bar', () => {
    const { settings } = loadSettings({}, {});
    const turn = SAID[0]!;
    expect(Array.from(turn.user + turn.reply).length).toBeLessThan(settings.ROLE_CAPTURE_MIN_CHARS);
    expect(shouldCondense({ userText: turn.user, assistantText: turn.reply }, settings)).toMatchObject({ condense: true, reason: 'cue' });
    expect(shouldCondense({ userText: '以後 commit 訊息請勿用表情符號。', assistantText: '好。' }, settings).condense).toBe(true);
    expect(shouldCondense({ userText: 'Please use tabs, not spaces.', assistantText: 'Sure.' }, settings).condense).toBe(true);
  });

  it('on three nights: one preference memory, hits 2, every source kept', async () => {
    home = makeTempHome({ KIOKU_NOW: '2026-11-25T03:00:00' });
    const ids: string[] = [];
    for (const [i, turn] of SAID.entries()) {
      const items = await captured(`2026112${4 + 2 * i}-210000-00000${i + 1}`, turn);
      ids.push(...items.map((item) => item.id));
      await night(`2026-11-${25 + 2 * i}T03:00:00`, items);
    }
    expect(ids).toHaveLength(3);
    const rules = camelCase();
    expect(rules.map((m) => m.memory_type)).toEqual(['preference']);
    expect(rules[0]!.hits).toBe(2);
    expect(rules[0]!.extra.sources).toEqual(ids);
    expect(rules[0]!.body).toContain('寫 TypeScript 的時候請用 camelCase 命名變數');
  });

  it('in one night: three paraphrases are one memory; the feeling about it stays apart', async () => {
    home = makeTempHome({ KIOKU_NOW: '2026-12-02T03:00:00' });
    const items: InboxItem[] = [];
    for (const [i, turn] of SAID.entries())
      items.push(...(await captured(`20261201-2${i}0000-00000${i + 1}`, { ...turn, at: `2026-12-01T2${i}:00:00` })));
    items.push(
      ...(await turnItems(
        '20261201-233000-000009',
        '全部改成 camelCase 之後程式好讀多了，好開心。',
        '看你開心我也開心！',
        '2026-12-01T23:30:00',
      )),
    );
    await night('2026-12-02T03:00:00', items);
    const rules = camelCase();
    const preference = rules.filter((m) => m.memory_type === 'preference');
    expect(preference).toHaveLength(1);
    expect(preference[0]!.hits).toBe(2);
    expect(preference[0]!.extra.sources).toHaveLength(3);
    expect(rules.filter((m) => m.memory_type === 'emotional')).toHaveLength(1);
  });

  it('the same rule in Chinese and, nights later, in English is one memory: the key terms decide across languages', async () => {
    home = makeTempHome({ KIOKU_NOW: '2026-11-25T03:00:00' });
    const zh = await captured('20261124-210000-000001', {
      user: '型別不確定就寫 unknown 再收窄，別用 any 偷懶。',
      reply: '好，我會用 unknown。',
      at: '2026-11-24T21:00:00',
    });
    await night('2026-11-25T03:00:00', zh);
    const en = await captured('20261127-210000-000002', {
      user: 'Quick reminder: no `any` in our TypeScript, ever — use `unknown` and narrow it.',
      reply: 'Got it.',
      at: '2026-11-27T21:00:00',
    });
    await night('2026-11-28T03:00:00', en);
    expect(zh).toHaveLength(1);
    expect(en).toHaveLength(1);
    const rules = loadRoleMemories(home!.memoryHome, ROLE).memories.filter((m) => m.category !== 'inbox' && /unknown/.test(m.body));
    expect(rules.map((m) => m.memory_type)).toEqual(['preference']);
    expect(rules[0]!.extra.sources).toEqual([zh[0]!.id, en[0]!.id]);
    // A different rule in the other language, sharing no term, stays its own memory.
    const other = await captured('20261129-210000-000003', {
      user: 'Please use tabs, not spaces, in Makefiles.',
      reply: 'Sure.',
      at: '2026-11-29T21:00:00',
    });
    await night('2026-11-30T03:00:00', other);
    expect(
      loadRoleMemories(home!.memoryHome, ROLE).memories.filter((m) => m.category !== 'inbox' && m.memory_type === 'preference'),
    ).toHaveLength(2);
  });
});
