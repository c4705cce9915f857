import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capturedIdCandidates } from '../../main/core/engine/capture/capture-writer.js';
import { handleCapturedTurn } from '../../main/core/engine/capture/handle-capture.js';
import { handlePostCompact } from '../../main/core/engine/capture/post-compact.js';
import type { KiokuConfig } from '../../main/core/platform/config/config.js';
import { loadRoleMemories } from '../../main/core/store/memory/memory-layout.js';
import { writeMemory } from '../../main/core/store/memory/memory-writer.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { inboxOf, ROLE, turnRecord } from './capture-test-helpers.js';

/**
 * Captured ids are a time to the second plus 6 hex digits of a hash of the event: two events in
 * one second can share one. Before, capture read the other event's file as its own and dropped the
 * turn as "already captured" (the no-turn-lost test caught it, 400 turns in one frozen second).
 * These tests make real clashes: event ids are searched until two first candidates are equal.
 */
const AT = '2026-12-01T10:00:00+08:00';
const KEPT = ['謝謝你，剛剛那樣說讓我很開心，以後也這樣。', '好～'] as const;

/** Two event ids whose memory `index` draws the same first id in one second (about 6,000 tries). */
function clashingEventIds(index = 0): [string, string] {
  const seen = new Map<string, string>();
  for (let n = 0; ; n++) {
    const eventId = `clash-${n}`;
    const first = capturedIdCandidates(eventId, index, new Date(AT))[0]!;
    const earlier = seen.get(first);
    if (earlier) return [earlier, eventId];
    seen.set(first, eventId);
  }
}

let home: TempHome;
let config: KiokuConfig;
beforeEach(() => {
  home = makeTempHome({ ROLE_CLI: 'local', KIOKU_NOW: AT });
  config = home.config();
});
afterEach(() => home.cleanup());

const inboxFiles = () => fs.readdirSync(path.join(home.memoryHome, ROLE, 'inbox')).sort();

describe('captured ids: a clash with another event costs a longer name, never the turn', () => {
  it('two events of one second with equal first ids are both captured, and each replay writes nothing', async () => {
    const [a, b] = clashingEventIds();
    const first = await handleCapturedTurn(config, turnRecord(...KEPT, { eventId: a, receivedAt: AT }));
    const second = await handleCapturedTurn(config, turnRecord(...KEPT, { eventId: b, receivedAt: AT }));
    expect(first.skipped).toBeUndefined();
    expect(second.skipped).toBeUndefined();
    expect(first.written[0]).toBe(capturedIdCandidates(a, 0, new Date(AT))[0]);
    // The shared name holds a's memory: b's index 0 takes its next, longer candidate.
    expect(second.written[0]).toBe(capturedIdCandidates(b, 0, new Date(AT))[1]);
    expect(second.written).toHaveLength(first.written.length);
    const marks = inboxOf(home.memoryHome).map((memory) => memory.extra.capture_event);
    expect(marks).toEqual(expect.arrayContaining([`${a}#0`, `${b}#0`]));

    const before = inboxFiles();
    for (const eventId of [a, b]) {
      const again = await handleCapturedTurn(config, turnRecord(...KEPT, { eventId, receivedAt: AT }));
      expect(again).toMatchObject({ skipped: 'already-captured', written: [] });
    }
    expect(inboxFiles()).toEqual(before);
  });

  it('a replay after a partial write finds the memory at its longer name', async () => {
    const [a, b] = clashingEventIds();
    await handleCapturedTurn(config, turnRecord(...KEPT, { eventId: a, receivedAt: AT }));
    const second = await handleCapturedTurn(config, turnRecord(...KEPT, { eventId: b, receivedAt: AT }));
    // The crash came after index 1 was written and before index 0 was.
    fs.rmSync(path.join(home.memoryHome, ROLE, 'inbox', `${second.written[0]}.md`));
    const again = await handleCapturedTurn(config, turnRecord(...KEPT, { eventId: b, receivedAt: AT }));
    expect(again.written).toEqual([second.written[0]]);
    expect(again.existing).toEqual(second.written.slice(1));
  });

  it('a memory without a capture mark (written by hand or before the mark) is not taken for the event', async () => {
    const record = turnRecord(...KEPT, { receivedAt: AT });
    const [taken] = capturedIdCandidates(record.eventId, 0, new Date(AT));
    await writeMemory(config, ROLE, { id: taken, category: 'inbox', summary: '手寫的一筆', body: '手寫的一筆' });
    const report = await handleCapturedTurn(config, record);
    expect(report.skipped).toBeUndefined();
    expect(report.written[0]).toBe(capturedIdCandidates(record.eventId, 0, new Date(AT))[1]);
    expect(inboxOf(home.memoryHome).find((memory) => memory.id === taken)?.summary).toBe('手寫的一筆');
  });

  it('PostCompact summaries of two events of one second are both kept', async () => {
    const [a, b] = clashingEventIds();
    const base = { roleId: ROLE, assistant: 'claude', receivedAt: AT, trigger: 'auto' };
    const first = await handlePostCompact(config, { ...base, eventId: a, compactSummary: '修好了 CI。' });
    const second = await handlePostCompact(config, { ...base, eventId: b, compactSummary: '補了測試。' });
    expect(second.written).toEqual([capturedIdCandidates(b, 0, new Date(AT))[1]]);
    const daily = loadRoleMemories(home.memoryHome, ROLE).memories.filter((memory) => memory.category === 'daily');
    expect(daily.map((memory) => memory.body.split('\n')[0]).sort()).toEqual(['修好了 CI。', '補了測試。']);
    expect((await handlePostCompact(config, { ...base, eventId: b, compactSummary: '補了測試。' })).existing).toEqual(second.written);
    expect(first.written).toHaveLength(1);
  });
});
