import { writeMemoryFixture } from './memory-fixtures.js';
import { localCondenser } from '../../main/core/engine/capture/local-condenser.js';
import { toDraft } from '../../main/core/engine/capture/handle-capture.js';
import type { CapturedTurnRecord } from '../../main/core/engine/capture/capture-types.js';
import { fixedClock, formatLocalIso } from '../../main/core/platform/config/clock.js';
import { loadConfig, type KiokuConfig } from '../../main/core/platform/config/config.js';
import type { CollectedBatch, ExistingMemoryRef, InboxItem } from '../../main/core/engine/sleep/sleep-plan.js';

/**
 * Inbox items as capture really writes them: a zh-TW turn through the local condenser and
 * toDraft (the same guard rails handle-capture applies), so the planner is tested on the shapes
 * it will meet — `使用者表示：「…」` summaries, `- 使用者原話：…` / `- 角色當時的回應：…` bodies.
 */
export const PLANNER_ROLE = 'LUMI01';
/** Local times (no offset): the planner dates its work by the user's local day, in any zone. */
export const NOW = '2026-12-01T23:30:00';

export function plannerConfig(now = NOW): KiokuConfig {
  return loadConfig(
    { HOME: '/nonexistent-kioku-home', ROLE_MEMORY_HOME: '/nonexistent-kioku-home/.memory' },
    { stored: {}, clock: fixedClock(now) },
  );
}

/**
 * All memories capture would write for one turn, as inbox items with ids `<prefix>-<n>`.
 * `at` is a local time without offset (as `new Date` reads it); `created` is written as capture
 * writes it, in local ISO with the offset.
 */
export async function turnItems(id: string, user: string, reply: string, at = '2026-12-01T21:00:00'): Promise<InboxItem[]> {
  const now = new Date(at);
  const created = formatLocalIso(now);
  const memories = await localCondenser.condense({
    roleId: PLANNER_ROLE,
    roleName: '露米',
    userText: user,
    assistantText: reply,
    consent: 'accepted',
    now,
    trigger: 'stop',
  });
  const record: CapturedTurnRecord = {
    eventId: `e-${id}`,
    roleId: PLANNER_ROLE,
    assistant: 'claude',
    trigger: 'stop',
    userText: user,
    assistantText: reply,
    receivedAt: now.toISOString(),
  };
  return memories.map((memory, i) => {
    const draft = toDraft(memory, record, 'local');
    return {
      id: memories.length === 1 ? id : `${id}-${i + 1}`,
      path: `/inbox/${id}-${i + 1}.md`,
      summary: draft.summary ?? memory.summary,
      body: draft.body,
      tags: draft.tags ?? [],
      cues: [],
      priority: draft.priority ?? 3,
      memory_type: draft.memory_type ?? 'episodic',
      relevance: draft.relevance ?? [],
      created,
      ...(draft.expires ? { expires: draft.expires } : {}),
    };
  });
}

/** The only (or first) memory of a turn. */
export async function turnItem(id: string, user: string, reply: string, at?: string): Promise<InboxItem> {
  const items = await turnItems(id, user, reply, at);
  return { ...items[0]!, id };
}

export function existingRef(fields: Partial<ExistingMemoryRef> & Pick<ExistingMemoryRef, 'id' | 'summary'>): ExistingMemoryRef {
  return { category: 'important', tags: [], cues: [], priority: 3, memory_type: 'preference', links: [], gist: fields.summary, ...fields };
}

export function batchOf(items: InboxItem[], existing: ExistingMemoryRef[] = [], left = 0): CollectedBatch {
  return {
    role: PLANNER_ROLE,
    items,
    existing,
    left,
    header: `本批 ${items.length} 則，另有 ${left} 則留待下批`,
    materialChars: items.reduce((sum, item) => sum + item.summary.length + item.body.length, 0),
  };
}

/** Write a captured inbox item as its file, the way capture would (its created is its file time too). */
export function writeInboxItem(memoryHome: string, item: InboxItem, role = PLANNER_ROLE): void {
  writeMemoryFixture(
    memoryHome,
    role,
    'inbox',
    item.id,
    {
      summary: item.summary,
      tags: item.tags,
      priority: item.priority,
      memory_type: item.memory_type,
      relevance: item.relevance,
      retention_stage: 'working',
      sleep_stage: 'encoding',
      created: item.created,
      updated: item.created,
    },
    item.body,
  );
}
