import type { MemoryCategory } from '../../../../common/memory.js';
import { KiokuError } from '../../../../common/errors.js';
import { formatLocalIso } from '../../platform/config/clock.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { derivedIdCandidates, inspectDerivedSlot } from '../../store/memory/derived-id.js';
import { categoryDir } from '../../store/memory/memory-layout.js';
import { memoryFilePath, writeMemory, type MemoryDraft, type WrittenMemory } from '../../store/memory/memory-writer.js';

/**
 * Idempotent writes for capture: a spooled event can be ingested twice (the daemon crashed after
 * writing, before deleting the spool file), so a captured memory's id is derived from its event and
 * a replay finds its file and writes nothing. The file says which event made it (`capture_event`):
 * another event of the same second can draw the same short hash, and its memory is not ours — the
 * next, longer candidate is used (derived-id.ts). A memory captured before the mark existed reads
 * as another event's: a replay across that upgrade could write a turn twice, but never loses one.
 * `created` is the turn's time, so a memory written from the spool a day later still says when it
 * was said.
 */
const MARK_KEY = 'capture_event';

const markOf = (eventId: string, index: number) => `${eventId}#${index}`;

/** The ids memory `index` of an event may have, in the order they are tried. */
export function capturedIdCandidates(eventId: string, index: number, at: Date): string[] {
  return derivedIdCandidates(markOf(eventId, index), at);
}

/** Whether memory `index` of this event is in `category` already (a replay of the event). */
export function isCaptured(
  config: KiokuConfig,
  roleId: string,
  category: MemoryCategory,
  eventId: string,
  index: number,
  at: Date,
): boolean {
  for (const id of capturedIdCandidates(eventId, index, at)) {
    const slot = inspectDerivedSlot(memoryFilePath(config.paths.memoryHome, roleId, category, id), MARK_KEY, markOf(eventId, index));
    if (slot === 'ours') return true;
    if (slot === 'free') return false;
  }
  return false;
}

/** Write memory `index` of an event; `written: false` when a replay finds it there already. */
export async function writeCapturedMemory(
  config: KiokuConfig,
  roleId: string,
  event: { eventId: string; index: number; at: Date },
  draft: MemoryDraft,
): Promise<WrittenMemory> {
  const stamp = formatLocalIso(event.at);
  const mark = markOf(event.eventId, event.index);
  const verbatimExtra = { ...draft.verbatimExtra, [MARK_KEY]: mark };
  for (const id of capturedIdCandidates(event.eventId, event.index, event.at)) {
    // Exclusive create first: a clash costs a read only when it happens.
    const written = await writeMemory(config, roleId, { ...draft, id, created: stamp, updated: stamp, verbatimExtra });
    if (written.written || inspectDerivedSlot(written.memory.path, MARK_KEY, mark) === 'ours') return written;
  }
  // Five clashes in one second cannot happen by chance: somebody copied files under these names.
  const dir = categoryDir(config.paths.memoryHome, roleId, draft.category);
  throw new KiokuError('IO', `every file name for memory ${event.index} of event ${event.eventId} is taken by another memory in ${dir}`, {
    path: dir,
    hint: 'look in that folder for copied memory files and move them out',
  });
}
