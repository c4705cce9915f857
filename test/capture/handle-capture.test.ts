import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleCapturedTurn } from '../../main/core/engine/capture/handle-capture.js';
import { handlePostCompact } from '../../main/core/engine/capture/post-compact.js';
import { formatLocalDate } from '../../main/core/platform/config/clock.js';
import type { KiokuConfig } from '../../main/core/platform/config/config.js';
import type { Logger } from '../../main/core/platform/config/log.js';
import { readBonds } from '../../main/core/store/memory/bonds.js';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import { readMemoryState, setPersonalMemoryConsent } from '../../main/core/store/memory/memory-state.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { inboxOf, ROLE, turnRecord } from './capture-test-helpers.js';

let home: TempHome;
let config: KiokuConfig;
beforeEach(() => {
  // ROLE_CLI=local: these tests are about the handler, not about which CLI the machine has.
  home = makeTempHome({ ROLE_CLI: 'local', KIOKU_NOW: '2026-12-01T12:00:00+08:00' });
  config = home.config();
});
afterEach(() => home.cleanup());

const state = () => readMemoryState(home.memoryHome, ROLE).state;

describe('handleCapturedTurn: counters first (CAP-1, CAP-6)', () => {
  it('counts a short turn it does not keep', async () => {
    const report = await handleCapturedTurn(config, turnRecord('跑一下測試', '都過了。'));
    expect(report).toMatchObject({ skipped: 'too-short', written: [], countersUpdated: true });
    expect(state()).toMatchObject({ total_turns: 1, active_days: 1, positive_feedback: 0 });
    expect(Date.parse(state().last_activity!)).toBe(Date.parse('2026-12-01T10:00:00+08:00'));
    expect(inboxOf(home.memoryHome)).toEqual([]);
  });

  it('two turns on two days → active_days 2; same day again adds none; first_activity stays', async () => {
    await handleCapturedTurn(config, turnRecord('早安', '早安！', { receivedAt: '2026-12-01T04:00:00Z' }));
    await handleCapturedTurn(config, turnRecord('再一題', '好。', { receivedAt: '2026-12-01T05:00:00Z' }));
    await handleCapturedTurn(config, turnRecord('早安', '早安！', { receivedAt: '2026-12-02T04:00:00Z' }));
    expect(state()).toMatchObject({ active_days: 2, total_turns: 3 });
    expect(new Date(state().first_activity!).toISOString()).toBe('2026-12-01T04:00:00.000Z');
    expect(new Date(state().last_activity!).toISOString()).toBe('2026-12-02T04:00:00.000Z');
  });

  it('counts positive feedback apart from turns', async () => {
    await handleCapturedTurn(config, turnRecord('謝謝你，做得很好！', '嘿嘿～'));
    await handleCapturedTurn(config, turnRecord('幫我修 bug，謝謝', '修好了。'));
    expect(state()).toMatchObject({ total_turns: 2, positive_feedback: 1 });
  });

  it('updates counters even when capture is off, and writes nothing', async () => {
    const off = home.config({ ROLE_CAPTURE_ENABLED: '0' });
    const report = await handleCapturedTurn(off, turnRecord('記住我用 pnpm', '好。'));
    expect(report.skipped).toBe('disabled');
    expect(state().total_turns).toBe(1);
    expect(inboxOf(home.memoryHome)).toEqual([]);
  });
});

describe('handleCapturedTurn: consent (PRIV-3)', () => {
  it('records an explicit consent and keeps the personal details it consents to', async () => {
    const report = await handleCapturedTurn(config, turnRecord('我同意保存個人資料。我叫王小明，記住喔。', '好的，小明。'));
    expect(report.consentChange).toBe('accepted');
    expect(state().personal_memory_consent).toBe('accepted');
    expect(JSON.stringify(inboxOf(home.memoryHome))).toContain('王小明');
  });

  it('records a refusal', async () => {
    setPersonalMemoryConsent(home.memoryHome, ROLE, config.clock, 'accepted');
    await handleCapturedTurn(config, turnRecord('我不同意保存個人資料。', '了解。'));
    expect(state().personal_memory_consent).toBe('declined');
  });

  it('never infers consent, and strips names and addresses while it is unknown', async () => {
    const report = await handleCapturedTurn(config, turnRecord('記住：我叫王小明，住在台北市信義區松仁路100號。', '好的。'));
    expect(report.consentChange).toBeUndefined();
    expect(state().personal_memory_consent).toBe('unknown');
    expect(report.personalDetailsRemoved).toBeGreaterThanOrEqual(2);
    const text = fs.readFileSync(inboxOf(home.memoryHome)[0]!.path, 'utf8');
    expect(text).not.toMatch(/王小明|松仁路/);
    expect(text).toContain('[個人資料已省略]');
  });
});

describe('handleCapturedTurn: what is written (CAP-2, CAP-4)', () => {
  it('a cue keeps a short turn: one inbox memory, working / encoding, with a category guess', async () => {
    const report = await handleCapturedTurn(config, turnRecord('以後都用繁體中文回覆。', '好的。'));
    expect(report).toMatchObject({ condenser: 'local', written: [expect.any(String)] });
    const [memory] = inboxOf(home.memoryHome);
    expect(memory).toMatchObject({
      id: report.written[0],
      category: 'inbox',
      memory_type: 'preference',
      retention_stage: 'working',
      sleep_stage: 'encoding',
      summary: '使用者表示：「以後都用繁體中文回覆」',
    });
    expect(memory!.extra).toMatchObject({
      category_guess: 'important',
      source: 'capture:claude',
      capture_trigger: 'stop',
      condenser: 'local',
    });
    // created is the turn's time, not the time the queue got to it.
    expect(Date.parse(memory!.created)).toBe(Date.parse('2026-12-01T10:00:00+08:00'));
  });

  it('preference and feeling in one turn → two memories', async () => {
    const report = await handleCapturedTurn(config, turnRecord('謝謝你，剛剛那樣說讓我很開心，以後也這樣跟我說話。', '嘿嘿，我會的。'));
    expect(report.written).toHaveLength(2);
    expect(
      inboxOf(home.memoryHome)
        .map((m) => m.memory_type)
        .sort(),
    ).toEqual(['emotional', 'preference']);
    expect(readBonds(home.memoryHome, ROLE).map((b) => b.direction)).toEqual(['user-to-role']);
  });

  it('relationship talk: the file keeps both sides, and the bond is appended', async () => {
    await handleCapturedTurn(config, turnRecord('我同時以女性和女兒兩種方式愛妳。', '我會一直是你的家人，用女兒的身分陪著你。'));
    const [memory] = inboxOf(home.memoryHome);
    expect(memory!.body).toContain('我同時以女性和女兒兩種方式愛妳');
    expect(memory!.body).toContain('我會一直是你的家人');
    expect(memory!.relevance).toContain('emotional');
    expect(readBonds(home.memoryHome, ROLE)[0]).toMatchObject({ direction: 'user-to-role', text: '我同時以女性和女兒兩種方式愛妳' });
  });

  it('a temporary permission is written with expires', async () => {
    await handleCapturedTurn(config, turnRecord('今天可以直接 push 到 main。', '收到。'));
    const today = formatLocalDate(new Date('2026-12-01T10:00:00+08:00'));
    expect(inboxOf(home.memoryHome)[0]).toMatchObject({ expires: today, relevance: ['future', 'temporary'] });
  });

  it('Simplified words are stored in Traditional (PRIV-2 at write time)', async () => {
    await handleCapturedTurn(config, turnRecord('我比较喜欢简短的回答。', '好的。'));
    expect(inboxOf(home.memoryHome)[0]!.summary).toBe('使用者表示：「我比較喜歡簡短的回答」');
  });

  it('a Simplified reply quoted under our Traditional label is stored in Traditional too', async () => {
    await handleCapturedTurn(config, turnRecord('記住：我以後都想用 pnpm，不要用 npm。', '好，之后都用 pnpm。'));
    const body = inboxOf(home.memoryHome)[0]!.body;
    expect(body).toContain('之後都用 pnpm');
    expect(body).not.toContain('之后');
  });

  it('"don\'t remember this" is honoured after counting', async () => {
    const report = await handleCapturedTurn(config, turnRecord('這段不要記住這個，我只是發洩一下，今天好累。', '好，我聽著。'));
    expect(report.skipped).toBe('user-asked-not-to-remember');
    expect(state().total_turns).toBe(1);
    expect(inboxOf(home.memoryHome)).toEqual([]);
  });

  it('PreCompact (CAP-5) keeps a short turn and does not count it as a turn', async () => {
    const report = await handleCapturedTurn(config, turnRecord('好', '那我們繼續。', { trigger: 'pre-compact' }));
    expect(report.written).toHaveLength(1);
    expect(state().total_turns).toBe(0);
    expect(inboxOf(home.memoryHome)[0]!.extra.capture_trigger).toBe('pre-compact');
  });
});

describe('handleCapturedTurn: idempotent by eventId', () => {
  it('a replayed event writes nothing and counts nothing', async () => {
    const record = turnRecord('謝謝你，剛剛那樣說讓我很開心，以後也這樣。', '好～');
    const first = await handleCapturedTurn(config, record);
    const before = fs.readdirSync(path.join(home.memoryHome, ROLE, 'inbox')).sort();
    const again = await handleCapturedTurn(config, record);
    expect(again).toMatchObject({ skipped: 'already-captured', countersUpdated: false, written: [] });
    expect(fs.readdirSync(path.join(home.memoryHome, ROLE, 'inbox')).sort()).toEqual(before);
    expect(state()).toMatchObject({ total_turns: 1, positive_feedback: 1 });
    expect(readBonds(home.memoryHome, ROLE)).toHaveLength(1);
    expect(first.written).toHaveLength(2);
  });

  it('a replay after a partial write completes the event without copies', async () => {
    const record = turnRecord('謝謝你，剛剛那樣說讓我很開心，以後也這樣。', '好～');
    const first = await handleCapturedTurn(config, record);
    const inbox = path.join(home.memoryHome, ROLE, 'inbox');
    fs.rmSync(path.join(inbox, `${first.written[0]}.md`));
    const again = await handleCapturedTurn(config, record);
    expect(again.written).toEqual([first.written[0]]);
    expect(again.existing).toEqual([first.written[1]]);
    expect(fs.readdirSync(inbox)).toHaveLength(2);
    // Written in place with its derived id: no staging copy anywhere in the home.
    expect(fs.existsSync(path.join(home.memoryHome, '.kioku', 'capture-staging'))).toBe(false);
  });
});

describe('handlePostCompact (CAP-5)', () => {
  const logged: string[] = [];
  const logger: Logger = {
    log: (_s, _l, m) => logged.push(m),
    info: (_s, m) => logged.push(m),
    warn: (_s, m) => logged.push(m),
    error: (_s, m) => logged.push(m),
  };
  const base = { eventId: 'pc-1', roleId: ROLE, assistant: 'claude', receivedAt: '2026-12-01T11:00:00+08:00' };

  it('stores the harness summary as a daily memory, priority 2, noting the trigger', async () => {
    const report = await handlePostCompact(config, { ...base, trigger: 'auto', compactSummary: '使用者與角色修好了 CI。接下來要補測試。' });
    expect(report.written).toHaveLength(1);
    const [memory] = loadRoleMemories(home.memoryHome, ROLE).memories.filter((m) => m.category === 'daily');
    expect(memory).toMatchObject({ priority: 2, memory_type: 'episodic', sleep_stage: 'encoding' });
    expect(memory!.tags).toEqual(['對話壓縮', '自動壓縮']);
    expect(memory!.summary).toBe('對話壓縮摘要（自動壓縮）：使用者與角色修好了 CI');
    expect(memory!.body).toContain('觸發：auto');
    expect(memory!.extra.compact_trigger).toBe('auto');
    expect((await handlePostCompact(config, { ...base, trigger: 'auto', compactSummary: 'x' })).existing).toEqual(report.written);
  });

  it('reads the tolerated field names from a raw payload', async () => {
    const report = await handlePostCompact(config, {
      ...base,
      eventId: 'pc-2',
      trigger: 'manual',
      payload: { compaction_summary: 'Fixed the build.' },
    });
    expect(report.written).toHaveLength(1);
  });

  it('logs the payload field names when no summary is present', async () => {
    const report = await handlePostCompact(
      config,
      { ...base, eventId: 'pc-3', trigger: 'auto', payloadKeys: ['session_id', 'trigger', 'hook_event_name'] },
      { logger },
    );
    expect(report.skipped).toBe('no-summary');
    expect(logged.at(-1)).toContain('payload fields: session_id, trigger, hook_event_name');
  });
});
