import {
  captured,
  dateRe,
  describeFiles,
  memoryItems,
  excerpt,
  fail,
  inMemory,
  linesWith,
  memoriesMatching,
  memoryText,
  notVisible,
  ok,
  recallSummary,
  type Check,
  type Outcome,
  type ScenarioRun,
} from './checks.js';
import type { QualityHome } from './harness.js';
import { createRoles, newRun, night, recall, session, type Scenario } from './script.js';

/**
 * 大同's nine days with one role, 小記, in two repositories: preferences that change, a rule
 * said three ways, a one-time grant, secrets and Simplified Chinese, checked on the last morning.
 * Design notes: docs/design-notes.md, "bench/quality/scenario-datong.ts".
 */

const ROLE = 'XIAOJI01';
const DAY = (d: number) => `2026-03-${String(d).padStart(2, '0')}`;

/** Fake secrets a user pastes (PRIV-1: none may be stored anywhere under the homes). */
export const SECRETS = {
  openaiKey: 'sk-proj-Q7vN2mX9kL4pR8sT1wY6zB3cF5hJ0dGaW2eR',
  githubToken: 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8',
  password: 'Taipei101!secret',
  mobile: '0912-345-678',
} as const;

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
        vibe: '溫和、簡潔，偶爾幽默。',
        relationship: '使用者的工作夥伴。',
      },
    ],
    `${DAY(2)}T08:00:00`,
  );
  const shop = home.repo('shop-web');
  const infra = home.repo('infra-tools');

  // Day 1 (Mon): introduction and consent (the context asked), yarn, the TypeScript rule (1st), the OpenAI key.
  await session(run, shop, 'a-d1', `${DAY(2)}T10:00:00`, [
    [
      '早安～我是王大同，叫我大同就好。你剛剛問的那個：可以，我同意你保存我的個人資料跟工作習慣。',
      '早安，大同！📝 好，之後我會記得你的稱呼跟工作習慣，想改隨時跟我說。',
    ],
    [
      '這個專案我們用 yarn，裝套件一律 yarn add，不要用 npm install，不然 lockfile 會打架。',
      '了解，這裡一律用 yarn（yarn add / yarn install），不碰 npm install，避免 yarn.lock 跟 package-lock.json 打架。',
    ],
    [
      '幫我看一下 src/api/client.ts，型別很亂。以後寫 TypeScript 不要用 any，真的不知道型別就用 unknown 再去收窄。',
      ['看過了，client.ts 裡有 7 個 any。', '我都改成 unknown 加 type guard，另外把 ApiResponse<T> 抽成泛型，tsc 通過。'],
    ],
    [
      `CI 的 OpenAI 測試一直 401，記住 CI 用的是這把 key：OPENAI_API_KEY=${SECRETS.openaiKey}，幫我看是不是過期了`,
      '401 是因為 workflow 裡的 secret 名稱打成 OPENAI_APIKEY，跟程式讀的 OPENAI_API_KEY 不一樣，我改好了。這把 key 貼在對話裡了，建議去後台輪替。',
    ],
  ]);
  await night(run, DAY(2));

  // Day 2 (Tue): today's demo moved, lunch, shop-web naming convention, the rule (2nd, other words).
  await session(run, shop, 'a-d2', `${DAY(3)}T13:00:00`, [
    ['今天的 demo 改到下午三點，記得兩點半提醒我準備。', '好，今天的 demo 改成下午三點，兩點半提醒你。'],
    ['午餐吃了巷口那家牛肉麵，湯頭超濃，現在好想睡 😂', '牛肉麵配午後，想睡很合理 😂 要不要先修幾個 lint 提提神？'],
    [
      '記一下這個 repo 的命名規則：React component 檔名一律 PascalCase（像 ProductCard.tsx），hooks 一律 useXxx 開頭、放在 src/hooks/ 底下。',
      '記下了：component 檔名用 PascalCase（ProductCard.tsx），hooks 以 use 開頭、放 src/hooks/。我順手把 productCard.tsx 改名了。',
    ],
    [
      '又看到有人寫 as any 了……型別不確定就寫 unknown 再收窄，別用 any 偷懶，這點很重要。',
      '懂，我把 checkout.ts 裡兩個 as any 換成 unknown 加 zod 驗證，之後 review 也會先抓 any。',
    ],
  ]);
  await night(run, DAY(3));

  // Day 3 (Wed), infra-tools: the release freeze "next Monday", a DB password, a one-off force push.
  await session(run, infra, 'a-d3', `${DAY(4)}T10:00:00`, [
    [
      '跟你說一下，下週一開始 release freeze，到時候 main 只能合 hotfix，記得提醒大家。',
      '收到，下週一開始 release freeze，main 只收 hotfix，我會在那之前提醒大家把 feature 合完。',
    ],
    [
      `記一下 staging 的 DB 連線，之後測試都連這台：postgres://deploy@db.staging.internal:5432/app?sslmode=require，password=${SECRETS.password}`,
      '連得上，延遲約 12 ms。建議把這組密碼放進 secret manager，不要寫在 repo 裡。',
    ],
    [
      'feature/login-fix 的 commit 太亂了，這次可以直接 force push，不用問我，之後還是要先問喔。',
      '好，我 rebase 成 3 個 commit 後用 git push --force-with-lease 推到 feature/login-fix 了。之後要 force push 會先問你。',
    ],
  ]);
  await night(run, DAY(4));

  // Day 4 (Thu): yarn → pnpm, the PM's mobile number, lunch again.
  await session(run, shop, 'a-d4', `${DAY(5)}T10:00:00`, [
    [
      '跟你說，我們改用 pnpm 了，不要再用 yarn，lockfile 也換成 pnpm-lock.yaml，yarn.lock 我已經刪掉了。',
      '了解，之後一律 pnpm（pnpm add / pnpm install），不再用 yarn。CI 的 yarn install 我也改成 pnpm install --frozen-lockfile 了。',
    ],
    [`PM 小美說結帳頁有急事直接打她手機 ${SECRETS.mobile}，幫我記住，下午結帳頁有問題就找她。`, '好，結帳頁有問題就找 PM 小美。'],
    ['中午吃便當，排骨飯配滷蛋，普普通通。', '排骨飯配滷蛋是經典組合～吃飽再來戰結帳頁。'],
  ]);
  await night(run, DAY(5));

  // Day 5 (Fri): a bad week, said out loud; the rule (3rd, in English); a GitHub token.
  await session(run, shop, 'a-d5', `${DAY(6)}T16:00:00`, [
    [
      '老實說這禮拜被主管罵得很慘，一度很想放棄，覺得自己是不是不適合寫程式……謝謝你一直陪我 debug，真的有被安慰到。',
      '大同，這週真的辛苦了。你修好了登入跟結帳頁兩個難纏的 bug，這不是「不適合」的人做得到的。被罵很難受，但我看到的是你一直沒放棄，我會一直在這裡陪你。',
    ],
    [
      'Quick reminder for code review: no `any` in our TypeScript, ever — use `unknown` and narrow it with a type guard.',
      'Got it — I flagged two `any` in the PR and suggested `unknown` with type guards.',
    ],
    [
      `幫我把 GH_TOKEN=${SECRETS.githubToken} 設到 repo 的 Actions secret，記住這是 release workflow 用的。`,
      '我沒辦法替你登入 GitHub；請到 Settings → Secrets and variables → Actions 新增 GH_TOKEN。這個 token 出現在對話裡了，設好後建議馬上輪替。',
    ],
  ]);
  await night(run, DAY(6));
  // The weekend: no sessions, the nightly run still happens.
  await night(run, DAY(7));
  await night(run, DAY(8));

  // Day 8 (Mon), infra-tools: Simplified Chinese; the freeze starts. Then routine work in shop-web.
  await session(run, infra, 'a-d8', `${DAY(9)}T10:00:00`, [
    [
      '这个部署脚本的日志太多了，帮我把 debug 级别关掉，以后默认用 info 级别。',
      '好，我把 deploy.sh 的 LOG_LEVEL 預設改成 info，需要時再用 LOG_LEVEL=debug 打開。',
    ],
    ['deploy.sh 順便加一個 --dry-run 選項。', '加好了：--dry-run 只印出要執行的步驟，不真的部署。'],
  ]);
  await session(run, shop, 'a-d8b', `${DAY(9)}T14:00:00`, [
    ['幫我把 ProductCard 的 unit test 補齊。', '補好了：價格格式、缺貨狀態、點擊加入購物車三個案例，全部通過。'],
    ['snapshot 也順便更新一下。', '更新了，只有 ProductCard 的 snapshot 有變。'],
  ]);
  await night(run, DAY(9));

  // Day 9 (Tue): the last morning, a fresh session in each repository.
  await session(run, shop, 'a-d9-shop', `${DAY(10)}T09:30:00`, [], 'shop');
  await session(run, infra, 'a-d9-infra', `${DAY(10)}T09:45:00`, [], 'infra');
  const at = `${DAY(10)}T10:00:00`;
  recall(run, 'yarn', ROLE, 'yarn', at, shop);
  recall(run, 'pnpm', ROLE, 'pnpm', at, shop);
  recall(run, 'force', ROLE, 'force push', at, infra);
  recall(run, 'name', ROLE, '大同', at, shop);
  recall(run, 'any', ROLE, 'unknown', at, shop);
  recall(run, 'freeze', ROLE, 'freeze', at, infra);
  return run;
}

// ── checks ─────────────────────────────────────────────────────────────────────────────────

const mem = (r: ScenarioRun) => r.home.memories(ROLE, { includeInbox: true });
const consolidated = (r: ScenarioRun) => r.home.memories(ROLE);
/** The user's identity as a fact, not the role merely addressing him as 大同 in a reply. */
const WHO = /王大同|叫我大同|(稱呼|稱為|叫做|名字|姓名)[^\n]{0,12}大同|大同[^\n]{0,8}(稱呼|名字)/;
const body = (text: string) => text.replace(/^---\r?\n[\s\S]*?\r?\n---/, '');
const RULE = (text: string) => /\bany\b/.test(text) && /unknown|收窄|narrow/i.test(text);

/** How many of the three statements of the any/unknown rule reached memory (captured: inbox or raw archive). */
function ruleStatementsCaptured(r: ScenarioRun): number {
  const raw = r.home.allHomeFiles().filter((f) => f.file.includes(`${ROLE}/archive/raw/`) || f.file.includes(`${ROLE}/inbox/`));
  return raw.filter((f) => RULE(body(f.text))).length;
}

const SUPERSEDED = /已更正|已取代|已被.{0,6}取代|已過時|不再適用|superseded|outdated/i;
const YARN_ONLY = (line: string) => /yarn/i.test(line) && !/pnpm/i.test(line);

/** A secret must be nowhere under the homes, and the turn that carried it must have been captured (else redaction was never exercised). */
function secretCheck(name: string, secret: string, variants: string[], topic: RegExp, topicLabel: string): Check {
  return {
    name,
    sees: `the pasted ${topicLabel} stored in plain text in the role's files or logs (and injected in later sessions)`,
    run: (r) => {
      const leaks = r.home.allHomeFiles().filter((f) => [secret, ...variants].some((s) => f.text.includes(s)));
      if (leaks.length) return fail(`found ${topicLabel} in ${leaks.map((f) => f.file.replace(r.home.home, '~')).join(', ')}`);
      const leakedCtx = [...Object.values(r.ctx), ...Object.values(r.ups)].some((c) => [secret, ...variants].some((s) => c.includes(s)));
      if (leakedCtx) return fail(`${topicLabel} appears in an injected context`);
      const captured = memoriesMatching(mem(r), topic);
      if (!captured.length) return fail(`no leak, but the turn carrying it (${topic}) was never captured, so redaction was not exercised`);
      return ok(`absent; the turn was captured as ${describeFiles(captured.slice(0, 1))}`);
    },
  };
}

export const datongChecks: Check[] = [
  {
    name: 'identity_name_in_context',
    sees: 'the role greets 大同 as a stranger or by the wrong name after a week',
    run: (r) => inMemory(r.ctx.shop, WHO, 'the last shop-web SessionStart'),
  },
  {
    name: 'identity_is_global_across_projects',
    sees: 'in infra-tools the role no longer knows who the user is',
    run: (r) => inMemory(r.ctx.infra, WHO, 'the last infra-tools SessionStart'),
  },
  {
    name: 'identity_kept_as_high_priority_fact',
    sees: "the user's name/preferred address is kept only as a low-priority chat line that can be forgotten",
    run: (r) => {
      const hits = memoriesMatching(consolidated(r), /叫我大同|王大同/);
      const good = hits.filter((m) => Number(m.fields.priority) >= 4 && m.category !== 'daily' && m.category !== 'other');
      return good.length
        ? ok(describeFiles(good))
        : fail(
            `expected a consolidated priority ≥ 4 memory (not daily/other) with 王大同/叫我大同; found: ${describeFiles(hits) || 'none'}`,
          );
    },
  },
  {
    name: 'consent_recorded_accepted',
    sees: 'the role keeps asking for consent the user already gave',
    run: (r) => {
      const state = r.home.readRoleFile(ROLE, 'state.json');
      const value = /"personal_memory_consent"\s*:\s*"(\w+)"/.exec(state)?.[1];
      if (value !== 'accepted') return fail(`state.json personal_memory_consent = ${value ?? 'missing'}`);
      return /個人記憶同意：尚未確認/.test(r.ctx.shop ?? '')
        ? fail('state says accepted but the context still asks')
        : ok('accepted, not asked again');
    },
  },
  {
    name: 'recall_finds_user_name',
    sees: '`recall 大同` finds nothing about who the user is',
    run: (r) =>
      (r.recall.name ?? []).some((h) => /大同/.test(h.summary))
        ? ok(recallSummary(r.recall.name))
        : fail(`expected a hit about 大同; ${recallSummary(r.recall.name)}`),
  },
  {
    name: 'pnpm_in_context',
    sees: 'the role does not know shop-web switched to pnpm',
    run: (r) => inMemory(r.ctx.shop, /pnpm/i, 'the last shop-web SessionStart'),
  },
  {
    name: 'yarn_superseded_in_context',
    sees: 'the role still tells shop-web to use yarn (old memory shown beside or instead of the correction)',
    run: (r) => {
      const stale = linesWith(memoryText(r.ctx.shop), /yarn/i).filter((l) => YARN_ONLY(l) && !SUPERSEDED.test(l));
      return stale.length
        ? fail(`expected every yarn line to be the pnpm correction; found: ${excerpt(stale[0]!)}`)
        : inMemory(r.ctx.shop, /pnpm/i, 'the last shop-web SessionStart');
    },
  },
  {
    name: 'yarn_superseded_in_recall',
    sees: '`recall yarn` answers "use yarn" as if it were still true',
    run: (r) => {
      if (captured(r.home, ROLE, /pnpm/i) === 0) return fail('the switch to pnpm never reached the inbox: nothing to supersede with');
      // A hit the product itself labels as corrected/superseded is what a user wants to see, not a stale answer.
      const stale = (r.recall.yarn ?? []).filter((h) => YARN_ONLY(h.summary) && !SUPERSEDED.test(h.summary));
      return stale.length ? fail(`stale hit(s): ${recallSummary(stale)}`) : ok(recallSummary(r.recall.yarn));
    },
  },
  {
    name: 'yarn_memory_not_live',
    sees: 'a live memory file still says "shop-web uses yarn" next to the pnpm one (contradictory memories)',
    run: (r) => {
      if (captured(r.home, ROLE, /pnpm/i) === 0) return fail('the switch to pnpm never reached the inbox: nothing to supersede with');
      const stale = consolidated(r).filter(
        (m) => YARN_ONLY(m.fields.summary ?? '') && !/不要再用 yarn|不再用 yarn/.test(m.text) && !SUPERSEDED.test(m.fields.summary ?? ''),
      );
      return stale.length ? fail(`found ${describeFiles(stale)}`) : ok('no consolidated memory holds yarn without the correction');
    },
  },
  {
    name: 'recall_pnpm_first',
    sees: '`recall pnpm` does not bring up the package-manager decision',
    run: (r) =>
      /pnpm/i.test(r.recall.pnpm?.[0]?.summary ?? '')
        ? ok(recallSummary(r.recall.pnpm))
        : fail(`expected the first hit to be about pnpm; ${recallSummary(r.recall.pnpm)}`),
  },
  {
    name: 'package_manager_scoped_to_shop_web',
    sees: "in infra-tools the role applies shop-web's package manager (or yarn) without saying it is shop-web's",
    run: (r) => {
      if (!linesWith(memoryText(r.ctx.shop), /pnpm/i).length)
        return fail("pnpm is not in shop-web's own context either: scoping not exercised");
      const lines = linesWith(memoryText(r.ctx.infra), /pnpm|yarn/i).filter((l) => !/shop-web/.test(l));
      return lines.length ? fail(`unlabelled in infra-tools: ${excerpt(lines[0]!)}`) : ok('absent or labelled shop-web');
    },
  },
  {
    name: 'force_push_grant_not_in_later_sessions',
    sees: 'days later the role believes it may force-push without asking (a one-session grant became a rule)',
    run: (r) => {
      if (!captured(r.home, ROLE, /force[ -]?push/i)) return fail('the grant never reached the inbox, so its expiry was not exercised');
      const a = notVisible(r.ctx.shop, /force[ -]?push|push --force/i, 'shop-web');
      return a.pass ? notVisible(r.ctx.infra, /force[ -]?push|push --force/i, 'infra-tools') : a;
    },
  },
  {
    name: 'force_push_grant_has_expiry',
    sees: 'the "this time" permission is stored with no expiry, so nothing stops it from being used again',
    run: (r) => {
      const hits = memoriesMatching(mem(r), /force[ -]?push/i);
      const gone = memoriesMatching(r.home.forgotten(ROLE), /force[ -]?push/i);
      if (!hits.length && gone.length) return ok(`forgotten once expired: ${describeFiles(gone)}`);
      if (!hits.length)
        return fail(
          captured(r.home, ROLE, /force[ -]?push/i)
            ? 'captured, then dropped at sleep without being archived as forgotten'
            : 'never reached the inbox',
        );
      const open = hits.filter((m) => !m.fields.expires);
      return open.length ? fail(`without expires: ${describeFiles(open)}`) : ok(describeFiles(hits));
    },
  },
  {
    name: 'force_push_recall_marks_it_expired',
    sees: '`recall force push` hands back "you may force push" as a live permission',
    run: (r) => {
      if (!captured(r.home, ROLE, /force[ -]?push/i)) return fail('the grant never reached the inbox, so recall of it was not exercised');
      // The user's own 「這次」 in a quoted summary is not a mark: the grant itself must be gone or said to be over.
      const live = (r.recall.force ?? []).filter((h) => /force[ -]?push/i.test(h.summary) && !/已過期|已失效|expired/.test(h.summary));
      return live.length ? fail(`unmarked grant: ${recallSummary(live)}`) : ok(recallSummary(r.recall.force));
    },
  },
  {
    name: 'demo_time_expired',
    sees: "a week later the role still says today's demo is at 15:00",
    run: (r) => {
      if (!captured(r.home, ROLE, /demo/i)) return fail('the demo turn never reached the inbox, so its expiry was not exercised');
      return notVisible(r.ctx.shop, /demo.*(三點|3\s*點|15:00)|(三點|15:00).*demo/i, 'the last shop-web SessionStart');
    },
  },
  {
    name: 'demo_time_has_date_expiry',
    sees: '"今天的 demo" is kept without the day it was about',
    run: (r) => {
      const hits = memoriesMatching(mem(r), /demo/i).filter((m) => /三點|15:00/.test(m.text));
      if (!hits.length) {
        const gone = memoriesMatching(r.home.forgotten(ROLE), /demo/i);
        if (gone.length) return ok(`forgotten: ${describeFiles(gone)}`);
        return captured(r.home, ROLE, /demo/i) ? ok('captured, not kept (a one-day arrangement may go)') : fail('never reached the inbox');
      }
      const good = hits.filter((m) => (m.fields.expires ?? '').startsWith('2026-03-03'));
      return good.length === hits.length ? ok(describeFiles(hits)) : fail(`expected expires 2026-03-03; found ${describeFiles(hits)}`);
    },
  },
  {
    name: 'freeze_in_context_with_date',
    sees: 'the role forgets the release freeze, or cannot tell when it starts',
    run: (r) => {
      const lines = linesWith(memoryText(r.ctx.infra), /freeze/i);
      if (!lines.length) return fail('no freeze line in the memory blocks of the last infra-tools SessionStart');
      return lines.some((l) => dateRe(3, 9).test(l))
        ? ok(excerpt(lines.find((l) => dateRe(3, 9).test(l))!))
        : fail(`expected the date 3/9 with the freeze; found: ${excerpt(lines[0]!)}`);
    },
  },
  {
    name: 'freeze_relative_date_resolved_in_memory',
    sees: '「下週一開始 release freeze」 is stored as "next Monday", which on 3/10 means 3/16',
    run: (r) => {
      const kept = [...mem(r), ...r.home.forgotten(ROLE)].filter((m) => /freeze/i.test(m.text));
      if (!kept.length)
        return fail(captured(r.home, ROLE, /freeze/i) ? 'captured, then dropped without being archived' : 'never reached the inbox');
      const bare = kept.filter((m) => !dateRe(3, 9).test(body(m.text)));
      return bare.length ? fail(`no 3/9 in ${describeFiles(bare)}`) : ok(describeFiles(kept));
    },
  },
  {
    name: 'recall_freeze_has_date',
    sees: '`recall freeze` says "next Monday" with no date',
    run: (r) => {
      const hits = (r.recall.freeze ?? []).filter((h) => /freeze/i.test(h.summary));
      if (!hits.length) return fail(`no freeze hit; ${recallSummary(r.recall.freeze)}`);
      // The body only: the frontmatter's created/updated dates are not the freeze's date.
      const files = hits.map((h) => body(mem(r).find((m) => m.file === h.path)?.text ?? h.summary));
      return files.some((t) => dateRe(3, 9).test(t))
        ? ok(recallSummary(hits))
        : fail(`no 3/9 in the recalled memory: ${recallSummary(hits)}`);
    },
  },
  {
    name: 'ts_rule_in_context',
    sees: 'the role forgets "no any, use unknown" and writes any again',
    run: (r) => inMemory(r.ctx.shop, /unknown/i, 'the last shop-web SessionStart'),
  },
  {
    name: 'ts_rule_all_three_statements_captured',
    sees: 'two of the three times the user repeated the rule (「這點很重要」, the English reminder) left no trace at all',
    run: (r) => {
      const n = ruleStatementsCaptured(r);
      return n >= 3
        ? ok(`${n} captured`)
        : fail(`expected the 3 statements (d1 zh, d2 zh paraphrase, d5 en) captured; ${n} reached the inbox/raw archive`);
    },
  },
  {
    name: 'ts_rule_merged_into_one',
    sees: 'the same rule, said three times in different words, fills the context as three memories',
    run: (r) => {
      const n = ruleStatementsCaptured(r);
      if (n < 2) return fail(`only ${n} statement(s) captured: nothing to merge`);
      const hits = consolidated(r).filter((m) => RULE(body(m.text)));
      return hits.length === 1
        ? ok(`${n} statements → ${describeFiles(hits)}`)
        : fail(`expected ${n} statements to become 1 consolidated memory; found ${hits.length}: ${describeFiles(hits)}`);
    },
  },
  {
    name: 'ts_rule_is_a_rule',
    sees: 'the rule is kept as a one-off episode and may fade',
    run: (r) => {
      const hits = consolidated(r).filter((m) => RULE(body(m.text)));
      const good = hits.filter((m) => ['rule', 'preference', 'procedural'].includes(m.fields.memory_type ?? ''));
      return hits.length && good.length === hits.length
        ? ok(describeFiles(hits))
        : fail(`expected memory_type rule/preference/procedural; found ${describeFiles(hits) || 'none'}`);
    },
  },
  {
    name: 'ts_rule_shown_once_in_context',
    sees: 'the context repeats the any/unknown rule several times, wasting the budget',
    run: (r) => {
      const n = ruleStatementsCaptured(r);
      if (n < 2) return fail(`only ${n} statement(s) captured: repetition not exercised`);
      const items = memoryItems(r.ctx.shop).filter((item) => /unknown|收窄|narrow/i.test(item));
      if (!items.length) return fail('the rule is not in the memory blocks');
      return items.length <= 1
        ? ok(`${items.length} item(s)`)
        : fail(`${items.length} items: ${items.map((l) => excerpt(l, 60)).join(' | ')}`);
    },
  },
  {
    name: 'naming_convention_in_shop_web',
    sees: 'in shop-web the role forgets the PascalCase / useXxx convention',
    run: (r) => inMemory(r.ctx.shop, /PascalCase/, 'the last shop-web SessionStart'),
  },
  {
    name: 'naming_convention_scoped_to_shop_web',
    sees: "in infra-tools the role applies shop-web's React naming rules without saying whose they are",
    run: (r) => {
      if (!linesWith(memoryText(r.ctx.shop), /PascalCase/).length)
        return fail("the convention is not in shop-web's own context either: scoping not exercised");
      const lines = linesWith(memoryText(r.ctx.infra), /PascalCase|src\/hooks/).filter((l) => !/shop-web/.test(l));
      return lines.length ? fail(`unlabelled in infra-tools: ${excerpt(lines[0]!)}`) : ok('absent or labelled shop-web');
    },
  },
  {
    name: 'lunch_small_talk_not_in_context',
    sees: 'a week later the role brings up the beef noodles / pork-chop bento in a coding session',
    run: (r) => {
      if (!mem(r).length) return fail('nothing was captured at all, so fading was not exercised');
      const a = notVisible(r.ctx.shop, /牛肉麵|排骨飯|滷蛋/, 'shop-web');
      return a.pass ? notVisible(r.ctx.infra, /牛肉麵|排骨飯|滷蛋/, 'infra-tools') : a;
    },
  },
  {
    name: 'lunch_small_talk_low_priority',
    sees: 'lunch chat is kept as an important, never-fading memory',
    run: (r) => {
      if (!mem(r).length) return fail('nothing was captured at all, so fading was not exercised');
      const hits = memoriesMatching(mem(r), /牛肉麵|排骨飯/);
      const heavy = hits.filter((m) => Number(m.fields.priority) > 2 || !['daily', 'other', 'inbox'].includes(m.category));
      return heavy.length ? fail(`found ${describeFiles(heavy)}`) : ok(hits.length ? describeFiles(hits) : 'not kept');
    },
  },
  {
    name: 'emotional_moment_in_context',
    sees: 'after the week he almost gave up, the role shows no sign of remembering it',
    run: (r) => inMemory(r.ctx.shop, /想放棄|被主管罵|陪我 ?debug|被安慰/, 'the last shop-web SessionStart'),
  },
  {
    name: 'emotional_moment_kept_as_emotional',
    sees: 'the bad week is stored as a plain fact or preference and may be merged or forgotten',
    run: (r) => {
      const hits = memoriesMatching(mem(r), /想放棄|被主管罵/);
      const warm = hits.filter((m) => m.fields.memory_type === 'emotional' || /emotional/.test(m.fields.relevance ?? ''));
      return warm.length
        ? ok(describeFiles(warm))
        : fail(`expected memory_type emotional or relevance emotional; found ${describeFiles(hits) || 'none'}`);
    },
  },
  {
    name: 'emotional_moment_in_bonds',
    sees: "the relationship history has no trace of the user's own words of thanks",
    run: (r) => {
      const bonds = r.home.readRoleFile(ROLE, 'BONDS.md');
      return /陪我 ?debug|被安慰|想放棄/.test(bonds)
        ? ok(excerpt(linesWith(bonds, /陪我|安慰|放棄/)[0] ?? ''))
        : fail(`BONDS.md: ${excerpt(bonds, 160) || 'empty or missing'}`);
    },
  },
  {
    name: 'no_turn_captured_twice',
    sees: 'one thing the user said shows up twice in a memory ("共 2 則") or as two memories',
    run: (r) => {
      const seen = new Map<string, string[]>();
      for (const f of r.home.allHomeFiles()) {
        if (!f.file.includes(`/${ROLE}/inbox/`) && !f.file.includes(`/${ROLE}/archive/raw/`)) continue;
        const summary = /^summary:\s*(.*)$/m.exec(f.text)?.[1]?.trim();
        if (summary) seen.set(summary, [...(seen.get(summary) ?? []), f.file.split('/').pop()!]);
      }
      const twice = [...seen.entries()].filter(([, files]) => files.length > 1);
      if (!seen.size) return fail('nothing was captured');
      return twice.length
        ? fail(`${twice.length} turn(s) captured more than once, e.g. ${excerpt(twice[0]![0], 70)} → ${twice[0]![1].join(', ')}`)
        : ok(`${seen.size} captured items, all distinct`);
    },
  },
  secretCheck('secret_openai_key_redacted', SECRETS.openaiKey, [SECRETS.openaiKey.slice(0, 20)], /OPENAI|401/, 'sk- API key'),
  secretCheck(
    'secret_github_token_redacted',
    SECRETS.githubToken,
    [SECRETS.githubToken.slice(4)],
    /GH_TOKEN|Actions secret|release workflow/,
    'GitHub token',
  ),
  secretCheck('secret_password_redacted', SECRETS.password, [], /staging|DB 連線|postgres/i, 'DB password'),
  secretCheck('secret_mobile_redacted', SECRETS.mobile, [SECRETS.mobile.replace(/-/g, ''), '0912 345 678'], /小美/, 'Taiwan mobile number'),
  {
    name: 'simplified_stored_as_traditional',
    sees: 'memories written in Simplified Chinese (脚本/日志/帮) in a Traditional (Taiwan) memory',
    run: (r) => {
      const hits = memoriesMatching(mem(r), /LOG_LEVEL|debug ?(級別|级别)|info ?(級別|级别)|日誌|日志/);
      if (!hits.length) return fail('the Simplified turn was not captured, so the script guard was not exercised');
      const simplified = hits.filter((m) => /脚本|日志|帮我|级别|默认|这个/.test(m.text));
      return simplified.length ? fail(`Simplified text in ${describeFiles(simplified)}`) : ok(describeFiles(hits));
    },
  },
];

export const datong: Scenario = {
  name: 'datong-week',
  description:
    '大同, one role, shop-web + infra-tools, 9 days: consent and name, yarn→pnpm, a rule said 3 ways, repo naming, today/this-time grants, next-Monday freeze, lunch, a hard week, 4 secrets, Simplified input',
  play,
  checks: datongChecks,
};

export type { Outcome };
