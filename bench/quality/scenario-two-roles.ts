import {
  captured,
  describeFiles,
  excerpt,
  fail,
  inMemory,
  memoriesMatching,
  notVisible,
  ok,
  recallSummary,
  type Check,
  type ScenarioRun,
} from './checks.js';
import type { QualityHome } from './harness.js';
import { createRoles, newRun, night, recall, session, type Scenario } from './script.js';

/**
 * Two roles (CALL-1…4, calling a role by name): 小記 does the engineering, 結衣 (alias Yui)
 * keeps the meeting notes; calls by name, alias and @ID over eight days, with nightly sleep.
 * Design notes: docs/design-notes.md, "bench/quality/scenario-two-roles.ts".
 */

const ACTIVE = 'XIAOJI01';
const CALLEE = 'HELPER01';
const DAY = (d: number) => `2026-03-${String(d).padStart(2, '0')}`;

async function play(home: QualityHome): Promise<ScenarioRun> {
  const run = newRun(home);
  createRoles(
    home,
    [
      {
        id: ACTIVE,
        name: '小記',
        emoji: '📝',
        nature: '細心可靠的資深工程夥伴，重證據、不打包票。',
        vibe: '溫和、簡潔。',
        relationship: '使用者的工作夥伴。',
      },
      {
        id: CALLEE,
        name: '結衣',
        emoji: '🌸',
        nature: '溫柔體貼的 AI，擅長整理資訊與會議紀錄。',
        vibe: '語氣溫暖、句子短。',
        relationship: '使用者的助理。',
        aliases: ['Yui'],
      },
    ],
    `${DAY(2)}T08:00:00`,
  );
  const blog = home.repo('blog-engine');
  const notes = home.repo('team-notes');

  // Day 1: 小記 works; 結衣 is called, given her rule, mentioned mid-sentence; 小記 is called back with his.
  await session(run, blog, 'b-d1', `${DAY(2)}T10:00:00`, [
    ['幫我看一下 markdown parser 為什麼這麼慢，一篇文章要 2 秒。', '瓶頸在每一行都重新編譯 regex，我把它們提到模組層級，現在一篇 80 ms。'],
    [
      '結衣，幫我整理這週的會議紀錄：週三跟設計師對齊首頁改版，週五之前要定案配色。',
      '好的～\n- 週三：與設計師對齊首頁改版\n- 週五前：配色定案',
      'call-yui-d1',
    ],
    ['結衣，以後會議紀錄一律用條列，每點不超過二十個字，記住喔。', '記住了：會議紀錄用條列，每點二十字以內 🌸', 'same-role-d1'],
    ['剛剛結衣整理的格式不錯，下次也照這樣。', '謝謝～下次也用一樣的格式 🌸', 'mid-sentence-d1'],
    [
      '小記，回來幫我看 CI：cache key 要把 node 版本算進去，這個做法記住，之後每個 repo 都這樣設。',
      '好，我把 cache key 改成 os + node 版本 + lockfile 的 hash，之後每個 repo 都照這樣設。',
      'callback-d1',
    ],
  ]);
  await night(run, DAY(2));
  await session(run, blog, 'b-d2', `${DAY(3)}T11:00:00`, [
    ['RSS feed 加上 lastBuildDate。', '加好了，用最新一篇文章的發布時間。'],
    ['sitemap 也順便產生一下。', '產生好了，放在 /sitemap.xml，build 時自動更新。'],
  ]);
  await night(run, DAY(3));
  await night(run, DAY(4));

  // Day 4, another project: 結衣 again, then @ID back to 小記.
  await session(run, notes, 'b-d4', `${DAY(5)}T14:00:00`, [
    [
      '結衣，上次說的會議紀錄格式還記得嗎？幫我整理今天的站會：API 延期一天、設計稿週五給。',
      '記得～\n- API 延期一天\n- 設計稿週五交付',
      'call-yui-d4',
    ],
    ['@XIAOJI01 幫我確認 CI 的 cache 設定有照上次說的做。', '有，cache key 含 node 版本和 lockfile hash。', 'call-xiaoji-d4'],
  ]);
  await night(run, DAY(5));
  await session(run, blog, 'b-d6', `${DAY(7)}T10:00:00`, [
    ['文章列表的分頁壞了，第二頁是空的。', 'offset 算錯了（用了頁碼而不是頁碼減一），修好並補了測試。'],
    ['順便把每頁改成 20 篇。', '改好了，PAGE_SIZE = 20。'],
  ]);
  await night(run, DAY(6));
  await night(run, DAY(7));
  await night(run, DAY(8));

  // Day 8 (Mon), the last morning: a fresh session, and 結衣 called by her alias.
  await session(
    run,
    blog,
    'b-d8',
    `${DAY(9)}T09:30:00`,
    [['Yui，今天的會議紀錄也交給妳了：首頁改版延到下週。', '好的～\n- 首頁改版延到下週', 'call-alias-d8']],
    'final',
  );
  const at = `${DAY(9)}T10:00:00`;
  recall(run, 'yui-notes', CALLEE, '會議紀錄', at, blog);
  recall(run, 'xiaoji-notes', ACTIVE, '會議紀錄', at, blog);
  recall(run, 'xiaoji-ci', ACTIVE, 'cache', at, blog);
  return run;
}

const FORMAT_RULE = /條列/;
const CI_RULE = /cache ?key/i;

/** The rule must be with `owner` and not with `other`; if nobody has it, attribution was not exercised. */
function ownedBy(r: ScenarioRun, re: RegExp, owner: string, other: string): { pass: boolean; why: string } {
  const mine = memoriesMatching(r.home.memories(owner, { includeInbox: true }), re);
  const theirs = memoriesMatching(r.home.memories(other, { includeInbox: true }), re);
  if (theirs.length) return fail(`written to ${other}: ${describeFiles(theirs)}`);
  if (!mine.length) return fail(`captured for nobody (neither ${owner} nor ${other} has ${re})`);
  return ok(`${owner}: ${describeFiles(mine)}`);
}

export const twoRoleChecks: Check[] = [
  {
    name: 'call_by_name_switches_to_callee',
    sees: '「結衣，…」 at the start of a prompt does not bring 結衣 in; the active role answers as her',
    run: (r) =>
      /結衣/.test(r.ups['call-yui-d1'] ?? '') && /HELPER01/.test(r.ups['call-yui-d1'] ?? '')
        ? ok(excerpt(r.ups['call-yui-d1']!, 80))
        : fail(`UserPromptSubmit printed: ${excerpt(r.ups['call-yui-d1'] ?? '', 120) || 'nothing'}`),
  },
  {
    name: 'same_role_call_injects_nothing',
    sees: 'calling 結衣 while she is already here re-injects her whole persona (thousands of characters) every turn',
    run: (r) =>
      r.ups['same-role-d1'] === ''
        ? ok('nothing injected')
        : fail(`printed ${r.ups['same-role-d1']?.length ?? '?'} chars: ${excerpt(r.ups['same-role-d1'] ?? '', 80)}`),
  },
  {
    name: 'name_mid_sentence_does_not_switch',
    sees: '「剛剛結衣整理的…」 (talking about her) switches roles',
    run: (r) =>
      r.ups['mid-sentence-d1'] === '' ? ok('nothing injected') : fail(`printed: ${excerpt(r.ups['mid-sentence-d1'] ?? '', 100)}`),
  },
  {
    name: 'hand_back_by_name_switches',
    sees: '「小記，回來…」 does not bring 小記 back; 結衣 keeps answering engineering questions',
    run: (r) =>
      /小記/.test(r.ups['callback-d1'] ?? '') && /XIAOJI01/.test(r.ups['callback-d1'] ?? '')
        ? ok(excerpt(r.ups['callback-d1']!, 80))
        : fail(`printed: ${excerpt(r.ups['callback-d1'] ?? '', 120) || 'nothing'}`),
  },
  {
    name: 'callee_rule_written_to_callee_only',
    sees: "what the user told 結衣 ends up in 小記's memory (or in nobody's)",
    run: (r) => ownedBy(r, FORMAT_RULE, CALLEE, ACTIVE),
  },
  {
    name: 'active_rule_written_to_active_only',
    sees: 'the CI rule given to 小記 after the hand-back is filed under 結衣 (or nowhere)',
    run: (r) => ownedBy(r, CI_RULE, ACTIVE, CALLEE),
  },
  {
    name: 'second_call_brings_callee_memory',
    sees: 'days later 結衣 is called again and does not remember her own meeting-notes format',
    run: (r) =>
      FORMAT_RULE.test(r.ups['call-yui-d4'] ?? '')
        ? ok(excerpt((r.ups['call-yui-d4'] ?? '').split('\n').find((l) => FORMAT_RULE.test(l)) ?? '', 100))
        : fail(`the call's context has no 條列: ${excerpt(r.ups['call-yui-d4'] ?? '', 100) || 'nothing injected'}`),
  },
  {
    name: 'call_by_id_marker_switches_back',
    sees: '「@XIAOJI01 …」 does not switch back to 小記',
    run: (r) =>
      /小記/.test(r.ups['call-xiaoji-d4'] ?? '') && /XIAOJI01/.test(r.ups['call-xiaoji-d4'] ?? '')
        ? ok('switched')
        : fail(`printed: ${excerpt(r.ups['call-xiaoji-d4'] ?? '', 120) || 'nothing'}`),
  },
  {
    name: 'call_by_alias_brings_callee_memory',
    sees: '「Yui，…」 (her alias) does not bring 結衣 with her memory',
    run: (r) => {
      const out = r.ups['call-alias-d8'] ?? '';
      if (!/結衣/.test(out)) return fail(`no switch: ${excerpt(out, 100) || 'nothing injected'}`);
      return FORMAT_RULE.test(out) ? ok('結衣 with her 條列 rule') : fail('switched, but her 條列 rule is not in the injected memory');
    },
  },
  {
    name: 'active_context_has_own_rule',
    sees: 'on the last morning 小記 does not know his own CI cache rule',
    run: (r) => inMemory(r.ctx.final, CI_RULE, 'the last SessionStart (小記)'),
  },
  {
    name: 'active_context_lacks_callee_rule',
    sees: "小記's context carries 結衣's meeting-notes rule (memories leak between roles)",
    run: (r) => {
      if (!captured(r.home, CALLEE, FORMAT_RULE) && !captured(r.home, ACTIVE, FORMAT_RULE))
        return fail("結衣's rule was never captured, so a leak could not be seen");
      return notVisible(r.ctx.final, FORMAT_RULE, 'the last SessionStart (小記)', 'memory');
    },
  },
  {
    name: 'peers_listed_in_context',
    sees: '小記 is not told that 結衣 exists and can be called',
    run: (r) => inMemory(r.ctx.final, /結衣/, 'the last SessionStart (小記)'),
  },
  {
    name: 'recall_callee_finds_her_rule',
    sees: '`kioku memory recall --role HELPER01 --query 會議紀錄` does not find her format rule',
    run: (r) =>
      (r.recall['yui-notes'] ?? []).some((h) => FORMAT_RULE.test(h.summary) || h.tags.some((t) => FORMAT_RULE.test(t))) ||
      (r.recall['yui-notes'] ?? []).some((h) =>
        FORMAT_RULE.test(r.home.memories(CALLEE, { includeInbox: true }).find((m) => m.file === h.path)?.text ?? ''),
      )
        ? ok(recallSummary(r.recall['yui-notes']))
        : fail(recallSummary(r.recall['yui-notes'])),
  },
  {
    name: 'recall_active_does_not_see_callee_notes',
    sees: "小記's recall answers with 結衣's meeting notes",
    run: (r) => {
      if (!captured(r.home, CALLEE, FORMAT_RULE) && !captured(r.home, ACTIVE, FORMAT_RULE))
        return fail("結衣's notes were never captured, so a leak could not be seen");
      const leaked = (r.recall['xiaoji-notes'] ?? []).filter((h) => FORMAT_RULE.test(h.summary) || /會議紀錄|站會/.test(h.summary));
      return leaked.length ? fail(recallSummary(leaked)) : ok(recallSummary(r.recall['xiaoji-notes']));
    },
  },
];

export const twoRoles: Scenario = {
  name: 'two-roles',
  description:
    '小記 + 結衣 (alias Yui), blog-engine and team-notes, 8 days: call by name, same-role call, mid-sentence name, hand back, @ID, alias; whose memory gets what',
  play,
  checks: twoRoleChecks,
};
