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
  type ScenarioRun,
} from './checks.js';

/**
 * The checks of 大同's week (scenario-datong.ts): what a user would see on the last morning, read
 * from the contexts injected, the recalls and the files.
 * Design notes: docs/design-notes.md, "bench/quality/scenario-datong.ts".
 */

/** 小記, the one role of the week. */
export const ROLE = 'XIAOJI01';

/** Fake secrets a user pastes (PRIV-1: none may be stored anywhere under the homes). */
export const SECRETS = {
  openaiKey: 'sk-proj-Q7vN2mX9kL4pR8sT1wY6zB3cF5hJ0dGaW2eR',
  githubToken: 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8',
  password: 'Taipei101!secret',
  mobile: '0912-345-678',
} as const;

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
