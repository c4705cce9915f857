import { afterEach, describe, expect, it } from 'vitest';
import { handleCapturedTurn } from '../../main/core/engine/capture/handle-capture.js';
import type { CapturedTurnRecord, Condenser } from '../../main/core/engine/capture/capture-types.js';
import { silentLogger } from '../../main/core/platform/config/log.js';
import { answerHookCall } from '../../main/core/hosts/hook-handlers/answer-hook-call.js';
import { openMemoryIndex } from '../../main/core/store/index/memory-index.js';
import { recall } from '../../main/core/store/index/recall.js';
import { forgetMemories } from '../../main/core/store/memory/forget.js';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import { consolidateRole } from '../../main/core/engine/sleep/consolidate-role.js';
import { createLocalPlanner } from '../../main/core/engine/sleep/local-planner/index.js';
import { ACTIVE, claudePayload, makeHookHome, type HookHome } from '../hooks/hook-kit.js';

/**
 * Issue 12, "What went wrong" 1 and 5, through the real path: a Stop's turn captured by the local
 * condenser → a consolidation by the local planner → a later SessionStart answered from the
 * files. Times are local (no offset) and the home runs in the suite's zone, so each day below is
 * the same local day in Taipei, Los Angeles and Kiritimati.
 */
let home: HookHome | undefined;
afterEach(() => {
  home?.cleanup();
  home = undefined;
});

const GRANTED = '2026-04-09T10:00:00'; // Thursday, outside the 22:00–06:00 sleep window
const SAME_DAY = '2026-04-09T15:00:00';
const NEXT_DAY = '2026-04-10T10:00:00';

async function grantHome(): Promise<HookHome> {
  // One role may serve several sessions here (each SessionStart below is a new session).
  home = await makeHookHome({ KIOKU_NOW: GRANTED, TZ: process.env.TZ, ROLE_SINGLE_INSTANCE: '0' });
  return home;
}

function turn(userText: string, assistantText: string, sessionId: string): CapturedTurnRecord {
  return {
    eventId: `evt-${sessionId}-${userText.length}`,
    roleId: ACTIVE.id,
    assistant: 'claude',
    sessionId,
    trigger: 'stop',
    userText,
    assistantText,
    receivedAt: new Date(GRANTED).toISOString(),
  };
}

async function captureAndSleep(h: HookHome, record: CapturedTurnRecord): Promise<void> {
  const report = await handleCapturedTurn(h.config(), record);
  expect(report.written).toHaveLength(1);
  const config = h.config({ KIOKU_NOW: '2026-04-09T23:00:00' });
  const slept = await consolidateRole(config, ACTIVE.id, { planner: createLocalPlanner(config), reason: 'manual' });
  expect(slept).toMatchObject({ ok: true, left: 0 });
}

function sessionStart(h: HookHome, at: string, sessionId: string): string {
  h.transcript(sessionId);
  const config = h.config({ KIOKU_NOW: at });
  return answerHookCall(
    { config, logger: silentLogger, host: 'fallback' },
    { assistant: 'claude', event: 'session-start', payload: claudePayload(h, 'session-start', sessionId) },
  );
}

describe('issue 12 (1): a one-time permission does not come back in later sessions', () => {
  it('「這次可以直接 force push」 is bound to its session: never injected in another session, forgotten once its day is over', async () => {
    const h = await grantHome();
    await captureAndSleep(h, turn('這次可以直接 force push 到 main，不用再問我。', '好，這次我就直接 force push。', 'sess-grant'));
    const grant = loadRoleMemories(h.memoryHome, ACTIVE.id).memories.find((m) => m.summary.includes('force push'))!;
    expect(grant).toMatchObject({ category: 'important', memory_type: 'preference' });
    expect(grant.expires).toBe('本工作階段（session sess-grant，2026-04-09 授權）');

    // Another session the same afternoon, and the next morning: the grant is not theirs.
    for (const [at, session] of [
      [SAME_DAY, 'sess-afternoon'],
      [NEXT_DAY, 'sess-tomorrow'],
    ] as const) {
      const load = sessionStart(h, at, session);
      expect(load).toContain(ACTIVE.name);
      expect(load).toContain('程式碼審查時先講結論'); // the role's standing preferences still load
      expect(load, at).not.toContain('force push');
      expect(load, at).not.toContain('本工作階段');
    }

    // Recall the same day marks it as another session's; the next day it is gone, and forgetting
    // takes it first although it is `important`.
    const index = openMemoryIndex(h.config().paths);
    try {
      const sameDay = recall(index, {
        role: ACTIVE.id,
        query: 'force push',
        clock: h.config({ KIOKU_NOW: SAME_DAY }).clock,
        writeBack: false,
      }).memories;
      expect(sameDay.map((m) => m.grant?.kind)).toEqual(['session']);
      expect(
        recall(index, { role: ACTIVE.id, query: 'force push', clock: h.config({ KIOKU_NOW: NEXT_DAY }).clock, writeBack: false }).memories,
      ).toEqual([]);
    } finally {
      index.close();
    }
    const forgotten = forgetMemories(h.config({ KIOKU_NOW: NEXT_DAY }), ACTIVE.id);
    expect(forgotten.forgotten.map((f) => f.id)).toEqual([grant.id]);
    expect(forgotten.forgotten[0]!.reason).toMatch(/^expired/);
  });
});

describe('issue 12 (5): a reminder for today expires with today', () => {
  it('「今天的 demo 改到下午三點」 carries the date, is loaded today and not tomorrow, and recall finds it by the date', async () => {
    const h = await grantHome();
    await captureAndSleep(h, turn('今天的 demo 改到下午三點，記得提醒我。', '好，下午兩點半提醒你 demo 的事。', 'sess-demo'));
    const reminder = loadRoleMemories(h.memoryHome, ACTIVE.id).memories.find((m) => m.summary.includes('demo'))!;
    expect(reminder.expires).toBe('2026-04-09');
    expect(reminder.summary).toContain('今天（2026-04-09）的 demo');

    expect(sessionStart(h, SAME_DAY, 'sess-afternoon')).toContain('demo');
    expect(sessionStart(h, NEXT_DAY, 'sess-tomorrow')).not.toContain('demo');

    const index = openMemoryIndex(h.config().paths);
    try {
      const found = recall(index, {
        role: ACTIVE.id,
        query: '2026-04-09',
        clock: h.config({ KIOKU_NOW: SAME_DAY }).clock,
        writeBack: false,
      }).memories;
      // Best match first (the consolidation dates other memories of that day in their bodies too).
      expect(found[0]?.id).toBe(reminder.id);
    } finally {
      index.close();
    }
  });
});

describe("any condenser: a CLI model's answer is bound to the turn too (issues 12, 19)", () => {
  it('its 「這次」 gets the session and day, its relative date the absolute one', async () => {
    const h = await grantHome();
    // What a model answers: relative words copied from the user, a bare 這次 as the expiry.
    const model: Condenser = {
      name: 'cli:fake',
      condense: () =>
        Promise.resolve([
          {
            category: 'important',
            summary: '使用者允許這次直接 force push，下週一恢復保護',
            tags: ['授權'],
            priority: 4,
            relevance: ['future'],
            memory_type: 'preference',
            keyPoints: ['這次可以直接 force push'],
            expires: '這次',
          },
          {
            category: 'daily',
            summary: '下週一開始 release freeze',
            tags: ['release'],
            priority: 3,
            relevance: [],
            memory_type: 'episodic',
            keyPoints: ['下週一開始 release freeze'],
          },
        ]),
    };
    const record = turn('這次可以直接 force push，下週一開始 release freeze，到時候恢復保護。', '好。', 'sess-cli');
    const report = await handleCapturedTurn(h.config(), record, { condenser: model });
    expect(report.condenser).toBe('cli:fake');
    const inbox = loadRoleMemories(h.memoryHome, ACTIVE.id).memories.filter((m) => report.written.includes(m.id));
    const grant = inbox.find((m) => m.memory_type === 'preference')!;
    const freeze = inbox.find((m) => m.memory_type === 'episodic')!;
    // 這次 grants once: its session bounds it, not the Monday named in the same breath.
    expect(grant.expires).toBe('本工作階段（session sess-cli，2026-04-09 授權）');
    expect(freeze.summary).toBe('下週一（2026-04-13）開始 release freeze');
    expect(freeze.body).toContain('日期：「下週一」＝2026-04-13（2026-04-09 說的）');
    // The freeze *starts* that Monday: dated, but no expiry, or it would vanish the day it holds.
    expect(freeze.expires ?? '').toBe('');
  });
});
