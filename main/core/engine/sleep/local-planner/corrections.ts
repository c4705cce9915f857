import { clip } from '../../../platform/text/turn-text.js';
import type { PlanCorrection } from '../sleep-plan.js';
import type { ItemAnalysis } from './analyse-batch.js';
import type { ExistingAnalysis } from './existing-index.js';
import { firstQuote } from './item-parts.js';
import { LINK_SIMILARITY, type Score } from './duplicates.js';

/**
 * PM-4: a memory whose probe was denied is rewritten at the next consolidation as
 * 「原本以為…後來發現…」 (PM-4: a denied memory had its gist wrong; rewrite it and note in the detail
 * "I thought…, it turned out…").
 *
 * What was found comes from, in order: the note the user gave when denying the probe
 * (`correctionNote`, their own words), else the most similar item of this batch on the same
 * topic (it contradicts or confirms the memory — either way it is what the user said since).
 * With neither, the memory is left as it is and stays flagged for a later consolidation: a
 * correction without a fact would have to invent one, and persona-memory asks for "the corrected version",
 * not a guess. The old wording is kept in the body, marked as corrected, never silently deleted.
 */
/** Capture's framing ("使用者表示：") reads badly after 原本以為. */
const CAPTURE_FRAME = /^(?:使用者(?:表示|提到|表達的感受|對角色的互動方式給出回饋)|user (?:said|mentioned|expressed))\s*[:：]?\s*/iu;

function stripQuotes(text: string): string {
  return text
    .replace(/[「」“”"]/gu, '')
    .replace(/[。．.！!？?\s]+$/u, '')
    .trim();
}

function findingOf(ref: ExistingAnalysis, kept: readonly ItemAnalysis[], score: Score): { text: string; basis: string } | undefined {
  const note = ref.ref.correctionNote?.trim();
  if (note) return { text: stripQuotes(note), basis: '使用者否認了試探並說明' };
  let best: { item: ItemAnalysis; score: number } | undefined;
  for (const item of kept) {
    const value = score(item, ref);
    if (value >= LINK_SIMILARITY && (!best || value > best.score)) best = { item, score: value };
  }
  if (!best) return undefined;
  const words = best.item.parts.userWords[0] ?? firstQuote(best.item.item.summary) ?? best.item.item.summary;
  return { text: stripQuotes(words), basis: `${best.item.date} 的對話（${best.item.item.id}）` };
}

export function correctionsFor(
  existing: readonly ExistingAnalysis[],
  kept: readonly ItemAnalysis[],
  today: string,
  score: Score,
): PlanCorrection[] {
  const out: PlanCorrection[] = [];
  for (const ref of existing) {
    if (!ref.ref.needsCorrection) continue;
    const finding = findingOf(ref, kept, score);
    if (!finding) continue;
    const before = stripQuotes(ref.ref.summary.replace(CAPTURE_FRAME, ''));
    const summary = clip(`原本以為${before}，後來發現${finding.text}`, 200);
    const previous = (ref.ref.body ?? ref.ref.gist).trim();
    const body = [
      `主旨：${summary}`,
      '',
      '細節：',
      `- 原本以為：${before}`,
      `- 後來發現：${finding.text}`,
      `- 依據：${today} 整理時更正；${finding.basis}`,
      ...(previous ? ['', '先前的紀錄（已更正，留作回溯）：', previous] : []),
    ].join('\n');
    out.push({ target: ref.ref.id, summary, body });
  }
  return out;
}
