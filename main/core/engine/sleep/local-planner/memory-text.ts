import { clip } from '../../../platform/text/turn-text.js';
import type { ExistingMemoryRef } from '../sleep-plan.js';
import type { ItemAnalysis } from './analyse-batch.js';
import { bodyLines } from './item-parts.js';
import { GENERIC_TAGS, containsWords } from './text-features.js';

/**
 * The text of created and merged memories. Plans are absolute (sleep-plan.ts), so a merge
 * carries the target's whole resulting body: the old body unchanged, then one dated line per new
 * source. Nothing is ever summarised away — least of all the role's side of a relationship
 * record (seed 000 §關係定位必須雙邊記錄: "合併或壓縮時刪掉角色的答覆 → 禁止").
 *
 * Created memories follow PM-1 (`主旨：` / `細節：`, seed 001: "主旨一句、細節其餘：衰減先吃細節"),
 * with a 依據 line naming the dates and the PM-3 rules that brought the memory up, and R3's
 * emotion anchor.
 */
const MAX_TAGS = 8;
const MAX_MERGED_TAGS = 10;
const MAX_CUES = 8;
const MAX_MERGED_CUES = 12;

const GIST_OR_LABEL = /^(?:主旨\s*[:：].*|細節\s*[:：]\s*|依據\s*[:：]\s*)$/u;

/** The item's detail lines (key points) without a 主旨 line or bare labels. */
export function detailLines(source: ItemAnalysis): string[] {
  return bodyLines(source.item.body).filter((line) => !GIST_OR_LABEL.test(line));
}

export function union(lists: readonly (readonly string[])[], max: number): string[] {
  const out: string[] = [];
  for (const list of lists) {
    for (const raw of list) {
      const value = raw.trim();
      if (value && out.length < max && !out.some((have) => have.toLowerCase() === value.toLowerCase())) out.push(value);
    }
  }
  return out;
}

/** Sources in the order they happened (date, then inbox order). */
export function chronological(sources: readonly ItemAnalysis[]): ItemAnalysis[] {
  return [...sources].sort((a, b) => (a.date === b.date ? a.index - b.index : a.date < b.date ? -1 : 1));
}

function rulesLine(sources: readonly ItemAnalysis[]): string {
  const dates = [...new Set(sources.map((s) => s.date))];
  const rules = [...new Set(sources.flatMap((s) => s.hits.map((hit) => hit.rule)))].sort();
  return `依據：${dates.join('、')} 的對話${sources.length > 1 ? `，共 ${sources.length} 則` : ''}${rules.length ? `（候選規則 ${rules.join('、')}）` : ''}`;
}

function anchorLine(sources: readonly ItemAnalysis[]): string | undefined {
  const strongest = sources.filter((s) => s.hits.some((hit) => hit.rule === 'R3')).sort((a, b) => b.emotion.change - a.emotion.change)[0];
  if (!strongest) return undefined;
  return `情緒錨點：${strongest.emotion.words.join('、')}（情緒變動 ${strongest.emotion.change}）`;
}

/** The item's summary; a hand-written inbox file without one gets its first line (a plan needs one). */
export function summaryOf(source: ItemAnalysis): string {
  const summary = source.item.summary.trim();
  if (summary) return summary;
  return clip(detailLines(source)[0] ?? '', 80) || '（沒有摘要的記錄）';
}

export interface CreatedText {
  summary: string;
  body: string;
  tags: string[];
  cues: string[];
}

/** A new memory from one or more near-duplicate inbox items of the same memory_type. */
export function createdText(sources: readonly ItemAnalysis[]): CreatedText {
  const ordered = chronological(sources);
  const lead = ordered[0]!;
  const summary = summaryOf(lead);
  const details: string[] = [];
  if (ordered.length === 1) {
    details.push(...detailLines(lead).map((line) => `- ${line}`));
  } else {
    for (const source of ordered) {
      details.push(`- ${source.date}：${summaryOf(source)}`);
      details.push(...detailLines(source).map((line) => `  - ${line}`));
    }
  }
  const anchor = anchorLine(ordered);
  const body = [`主旨：${summary}`, '', '細節：', ...details, ...(anchor ? [anchor] : []), rulesLine(ordered)].join('\n');
  const cuesRequired = ['procedural', 'rule'].includes(lead.classification.memory_type);
  return { summary, body, tags: tagsOf(ordered, MAX_TAGS), cues: cuesOf(ordered, [], MAX_CUES, cuesRequired) };
}

function tagsOf(sources: readonly ItemAnalysis[], max: number, base: readonly string[] = []): string[] {
  // R5: the person becomes a tag, so that later memories about them find this one.
  const persons = sources.filter((s) => s.hits.some((hit) => hit.rule === 'R5')).flatMap((s) => s.persons);
  return union([base, ...sources.map((s) => s.item.tags), persons], max);
}

/**
 * Retrieval cues (REM 提取線索): the capture's cues, R3's feeling words, R5's people, then the
 * item's topic tags. A procedural or rule memory without any (they must have cues, seed 000
 * §記憶模型) falls back to its user's words, clipped.
 */
function cuesOf(sources: readonly ItemAnalysis[], base: readonly string[], max: number, required = false): string[] {
  const anchors = sources.filter((s) => s.hits.some((hit) => hit.rule === 'R3')).flatMap((s) => s.emotion.words);
  const persons = sources.filter((s) => s.hits.some((hit) => hit.rule === 'R5')).flatMap((s) => s.persons);
  const topics = sources.flatMap((s) => s.item.tags.filter((tag) => !GENERIC_TAGS.has(tag.trim().toLowerCase())).slice(0, 3));
  const cues = union([base, ...sources.map((s) => s.item.cues), anchors, persons, topics], max);
  if (cues.length || !required) return cues;
  const words = sources[0]!.parts.userWords[0] ?? sources[0]!.item.summary;
  const fallback = clip(words.replace(/[「」“”"]/gu, ''), 16);
  return fallback ? [fallback] : [];
}

export interface MergedText {
  summary: string;
  body: string;
  tags: string[];
  cues: string[];
}

/**
 * A merge into an existing memory whose whole body is known. Each new source becomes one dated
 * line, with its key points in brackets unless the summary already says them. A line already in
 * the body (a replayed or exact duplicate) is not added again, so "nothing new" leaves the text
 * byte for byte as it was.
 *
 * The summary stays the target's — except for preference and rule memories, where the newest
 * wording wins: 「以後回覆請用英文」 after 「以後回覆請用繁體中文」 is the same kind of request and
 * looks alike to any dictionary-free similarity, but only the newer one is what the user wants
 * now. The old gist then stays in the body as 「先前的主旨」, so nothing is lost either way.
 */
export function mergedText(ref: ExistingMemoryRef & { body: string }, sources: readonly ItemAnalysis[], newestWins: boolean): MergedText {
  const ordered = chronological(sources);
  const newest = summaryOf(ordered[ordered.length - 1]!);
  const replaceGist = newestWins && !containsWords(ref.summary, newest) && !containsWords(ref.body, newest);
  const summary = replaceGist || !ref.summary.trim() ? newest : ref.summary;
  const original = ref.body.replace(/\s+$/u, '');
  let base = original;
  const added: string[] = [];
  if (replaceGist) {
    base = base.replace(/^主旨\s*[:：].*$/mu, () => `主旨：${summary}`);
    added.push(`- 先前的主旨：${ref.summary.trim()}`);
  }
  for (const source of ordered) {
    const said = summaryOf(source);
    const details = detailLines(source);
    if (containsWords(original, said) && details.every((line) => containsWords(original, line))) continue;
    const extra = details.filter((line) => !containsWords(said, line));
    const line = `- ${source.date}：${said}${extra.length ? `（${extra.join('；')}）` : ''}`;
    if (!base.includes(line) && !added.includes(line)) added.push(line);
  }
  const lastLine = base.split('\n').pop() ?? '';
  const glue = /^\s*[-*•]\s/u.test(lastLine) ? '\n' : '\n\n';
  const body = added.length ? `${base}${base ? glue : ''}${added.join('\n')}` : ref.body.trim() ? ref.body : ref.summary;
  return {
    summary,
    body,
    tags: tagsOf(sources, MAX_MERGED_TAGS, ref.tags),
    cues: cuesOf(sources, ref.cues, MAX_MERGED_CUES),
  };
}
