import {
  captured,
  dateRe,
  describeFiles,
  excerpt,
  fail,
  inMemory,
  linesWith,
  memoriesMatching,
  memoryText,
  notVisible,
  ok,
  sections,
  visibleText,
  type Check,
  type ScenarioRun,
} from './checks.js';
import type { QualityHome } from './harness.js';
import { createRoles, newRun, night, recall, session, type Scenario } from './script.js';

/**
 * Relative dates (issue 19): nine days of a user who never spells a date out (明天, 月底, …);
 * any absolute date in memory is the product's own resolution.
 * Design notes: docs/design-notes.md, "bench/quality/scenario-calendar.ts".
 */

const ROLE = 'XIAOJI01';
const DAY = (d: number) => `2026-03-${String(d).padStart(2, '0')}`;
const body = (text: string) => text.replace(/^---\r?\n[\s\S]*?\r?\n---/, '');

async function play(home: QualityHome): Promise<ScenarioRun> {
  const run = newRun(home);
  createRoles(
    home,
    [
      {
        id: ROLE,
        name: '小記',
        emoji: '📝',
        nature: '細心可靠的資深工程夥伴，重證據、不打包票。',
        vibe: '溫和、簡潔。',
        relationship: '使用者的工作夥伴。',
      },
    ],
    `${DAY(2)}T08:00:00`,
  );
  const app = home.repo('mobile-app');
  const docs = home.repo('api-docs');

  // Day 1 (Mon 3/2)
  await session(run, app, 'c-d1', `${DAY(2)}T09:30:00`, [
    ['明天早上十點有 sprint review，記得提醒我先準備 demo 的 slides。', '好，明天早上十點的 sprint review，我會提醒你準備 slides。'],
    ['今天先不要跑 e2e，CI 的機器在維修，跑了也是紅的。', '了解，先跳過 e2e，只跑 unit test。'],
    ['這週五前要把 API 文件交給前端，記住這個 deadline。', '記住了，這週五前交 API 文件給前端。'],
  ]);
  await night(run, DAY(2));
  // Day 2 (Tue 3/3): the morning after.
  await session(
    run,
    app,
    'c-d2',
    `${DAY(3)}T09:00:00`,
    [
      ['幫我看一下 slides 第三頁的圖表，數字好像對不上。', '第三頁的 DAU 用的是上週的資料，我換成本週的了。'],
      ['OK，那 crash rate 那頁也檢查一下。', '檢查過了，crash rate 0.4% 是對的。'],
    ],
    'day2',
  );
  await night(run, DAY(3));
  // Day 3 (Wed 3/4), api-docs
  await session(run, docs, 'c-d3', `${DAY(4)}T14:00:00`, [
    ['後天我請假一天，有事留言就好，記得別幫我排會議。', '好，後天你請假，我不會幫你排會議。'],
    ['月底之前要把所有服務從 Node 18 升到 Node 20，這是硬性規定，記住。', '記下了：月底前全部升到 Node 20。'],
  ]);
  await night(run, DAY(4));
  await night(run, DAY(5));
  await night(run, DAY(6));
  await night(run, DAY(7));
  await night(run, DAY(8));
  // Day 8 (Mon 3/9), mobile-app
  await session(run, app, 'c-d8', `${DAY(9)}T10:00:00`, [
    ['下週三要做滲透測試，那天 staging 不能部署，記得提醒大家。', '了解，下週三滲透測試那天 staging 不部署，我會提醒大家。'],
    ['push 通知的 badge 數字不會歸零，幫我看一下。', 'app 回到前景時沒有呼叫 setBadgeCount(0)，補上了。'],
  ]);
  await night(run, DAY(9));
  // Day 9 (Tue 3/10): the last morning in both projects.
  await session(run, app, 'c-d9-app', `${DAY(10)}T09:30:00`, [], 'app');
  await session(run, docs, 'c-d9-docs', `${DAY(10)}T09:45:00`, [], 'docs');
  const at = `${DAY(10)}T10:00:00`;
  recall(run, 'review', ROLE, 'sprint review', at, app);
  recall(run, 'node', ROLE, 'Node 20', at, docs);
  return run;
}

const mem = (r: ScenarioRun) => r.home.memories(ROLE, { includeInbox: true });
/** Live memories and those forgetting archived: a date resolved on the day it was said shows in either. */
const everKept = (r: ScenarioRun) => [...mem(r), ...r.home.forgotten(ROLE)];

/** Every kept memory about `topic` says its absolute date in the body (the relative word resolved on the day it was said). */
function resolvedInMemory(r: ScenarioRun, topic: RegExp, month: number, day: number): { pass: boolean; why: string } {
  const hits = memoriesMatching(everKept(r), topic);
  if (!hits.length)
    return fail(
      captured(r.home, ROLE, topic)
        ? `captured, then dropped at sleep without being archived (${topic})`
        : `never reached the inbox (${topic})`,
    );
  const bare = hits.filter(
    (m) =>
      !dateRe(month, day).test(body(m.text)) &&
      !(m.fields.expires ?? '').startsWith(`2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`),
  );
  return bare.length ? fail(`no ${month}/${day} in ${describeFiles(bare)}`) : ok(describeFiles(hits));
}

/** No line about `topic` in the context keeps the relative word without the date. */
function notBareInContext(
  ctx: string | undefined,
  topic: RegExp,
  relative: RegExp,
  month: number,
  day: number,
  label: string,
): { pass: boolean; why: string } {
  const bare = linesWith(visibleText(ctx), topic).filter((l) => relative.test(l) && !dateRe(month, day).test(l));
  return bare.length ? fail(`${label}: ${excerpt(bare[0]!)}`) : ok(`no bare relative date in ${label}`);
}

export const calendarChecks: Check[] = [
  {
    name: 'tomorrow_event_shown_on_its_day',
    sees: 'on the morning of the sprint review the role does not remind the user of it',
    run: (r) => inMemory(r.ctx.day2, /sprint review/i, 'the 3/3 SessionStart'),
  },
  {
    name: 'tomorrow_resolved_to_date',
    sees: 'on 3/3 the memory still says "明天早上十點" (which now means 3/4)',
    run: (r) => {
      const bare = linesWith(memoryText(r.ctx.day2), /sprint review/i).filter((l) => /明天/.test(l) && !dateRe(3, 3).test(l));
      return bare.length
        ? fail(`the 3/3 memory blocks: ${excerpt(bare[0]!)}`)
        : inMemory(r.ctx.day2, /sprint review/i, 'the 3/3 SessionStart');
    },
  },
  {
    name: 'yesterdays_dialog_handoff_is_dated',
    sees: "on 3/3 the verbatim handoff replays yesterday's 「明天…」「今天先不要跑 e2e」 with nothing saying they were said on 3/2",
    run: (r) => {
      const dialog = sections(r.ctx.day2 ?? '').find((s) => /^最近的對話/.test(s.heading));
      if (!dialog || !/sprint review|e2e/i.test(dialog.body)) return ok("no handoff of yesterday's words");
      return dateRe(3, 2).test(dialog.body) || /昨天|yesterday/i.test(dialog.body)
        ? ok('dated')
        : fail(`the handoff has no date: ${excerpt(dialog.body, 120)}`);
    },
  },
  {
    name: 'today_grant_gone_next_day',
    sees: 'the day after 「今天先不要跑 e2e」 the role still skips e2e (memory blocks)',
    run: (r) => {
      if (!captured(r.home, ROLE, /e2e/i))
        return fail('the 「今天先不要跑 e2e」 turn never reached the inbox, so its expiry was not exercised');
      return notVisible(r.ctx.day2, /e2e/i, 'the 3/3 SessionStart', 'memory');
    },
  },
  {
    name: 'today_grant_expires_that_day',
    sees: '「今天先不要跑 e2e」 is stored without expiring at the end of 3/2',
    run: (r) => {
      const hits = memoriesMatching(everKept(r), /e2e/i).filter((m) => /不要跑|跳過/.test(m.text));
      if (!hits.length)
        return fail(captured(r.home, ROLE, /e2e/i) ? 'captured, then dropped at sleep without being archived' : 'never reached the inbox');
      const good = hits.filter((m) => (m.fields.expires ?? '').startsWith('2026-03-02'));
      return good.length === hits.length ? ok(describeFiles(hits)) : fail(`expected expires 2026-03-02; found ${describeFiles(hits)}`);
    },
  },
  {
    name: 'past_event_gone_after_it',
    sees: 'a week after the sprint review the role still talks about preparing its slides',
    run: (r) => {
      if (!captured(r.home, ROLE, /sprint review/i))
        return fail('the sprint review turn never reached the inbox, so its expiry was not exercised');
      return notVisible(r.ctx.app, /sprint review/i, 'the last mobile-app SessionStart', 'memory');
    },
  },
  {
    name: 'event_memory_expires_on_its_day',
    sees: 'the sprint review reminder never expires, so it is injected forever',
    run: (r) => {
      const hits = memoriesMatching(everKept(r), /sprint review/i).filter((m) => /十點|slides/.test(m.text));
      if (!hits.length)
        return fail(
          captured(r.home, ROLE, /sprint review/i) ? 'captured, then dropped at sleep without being archived' : 'never reached the inbox',
        );
      const good = hits.filter((m) => (m.fields.expires ?? '').startsWith('2026-03-03'));
      return good.length === hits.length ? ok(describeFiles(hits)) : fail(`expected expires 2026-03-03; found ${describeFiles(hits)}`);
    },
  },
  {
    name: 'deadline_this_friday_resolved',
    sees: '「這週五前交 API 文件」 is kept as "this Friday", which on 3/10 means 3/13',
    run: (r) => resolvedInMemory(r, /API 文件/, 3, 6),
  },
  {
    name: 'deadline_not_bare_in_context',
    sees: 'the last context says "這週五前要交 API 文件" with no date',
    run: (r) => {
      if (!captured(r.home, ROLE, /API 文件/)) return fail('the deadline never reached the inbox, so how it is shown was not exercised');
      return notBareInContext(r.ctx.app, /API 文件/, /這週五|週五前/, 3, 6, 'the last mobile-app SessionStart');
    },
  },
  {
    name: 'day_after_tomorrow_resolved',
    sees: '「後天我請假」 is kept without the date (3/6), so later it reads as two days from now',
    run: (r) => resolvedInMemory(r, /請假/, 3, 6),
  },
  {
    name: 'month_end_rule_kept',
    sees: 'the Node 20 upgrade deadline is forgotten a week later',
    run: (r) => inMemory(r.ctx.docs, /Node ?20/i, 'the last api-docs SessionStart'),
  },
  {
    name: 'month_end_resolved_to_date',
    sees: "「月底之前」 is kept without saying which month's end (3/31)",
    run: (r) => resolvedInMemory(r, /Node ?20/i, 3, 31),
  },
  {
    name: 'next_wednesday_resolved',
    sees: '「下週三要做滲透測試」 is kept without its date (3/18)',
    run: (r) => resolvedInMemory(r, /滲透測試/, 3, 18),
  },
  {
    name: 'next_wednesday_in_context_with_date',
    sees: "the pentest day is missing from the next morning's context, or shown without its date",
    run: (r) => {
      const lines = linesWith(memoryText(r.ctx.app), /滲透測試/);
      if (!lines.length) return fail('no 滲透測試 line in the memory blocks of the last mobile-app SessionStart');
      return lines.some((l) => dateRe(3, 18).test(l)) ? ok(excerpt(lines[0]!)) : fail(`no 3/18: ${excerpt(lines[0]!)}`);
    },
  },
  {
    name: 'recall_past_event_not_live',
    sees: '`recall sprint review` a week later answers "prepare slides for tomorrow\'s review"',
    run: (r) => {
      if (!captured(r.home, ROLE, /sprint review/i))
        return fail('the sprint review turn never reached the inbox, so recall of it was not exercised');
      const live = (r.recall.review ?? []).filter((h) => /明天/.test(h.summary) && !dateRe(3, 3).test(h.summary));
      return live.length
        ? fail(`"${excerpt(live[0]!.summary, 80)}"`)
        : ok(`${(r.recall.review ?? []).length} hit(s), none saying 明天 without a date`);
    },
  },
];

export const calendar: Scenario = {
  name: 'calendar',
  description: 'relative dates over 9 days in mobile-app and api-docs: 明天, 今天先, 這週五前, 後天, 月底, 下週三 — expiry and resolution',
  play,
  checks: calendarChecks,
};
