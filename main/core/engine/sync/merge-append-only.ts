import { BONDS_KEPT, parseBondLine } from '../../store/memory/bonds-reader.js';
import { DIGESTS_KEPT } from '../../store/memory/digests.js';
import { mergeBlocks, timeOf, type Block } from './merge-blocks.js';

/**
 * The three append-only files as git merge drivers see them (base, ours, theirs → result):
 * BONDS.md (oldest first, newest 500 kept, the same words once), DIGESTS.md (newest first, last
 * 100 kept) and JOURNAL.jsonl (one JSON object a line, no limit).
 */
const sameWords = (text: string) => text.replace(/\s+/g, ' ').trim();

function lines(text: string): string[] {
  const all = text.split(/\r?\n/);
  if (all[all.length - 1] === '') all.pop();
  return all;
}

/** BONDS.md: the lines before the first bond, then one block per bond with the prose under it. */
function bondBlocks(text: string): { preamble: string[]; blocks: Block[] } {
  const preamble: string[] = [];
  const blocks: Block[] = [];
  for (const line of lines(text)) {
    const bond = parseBondLine(line);
    if (bond) blocks.push({ key: sameWords(bond.text), time: bond.time ? timeOf(bond.time) : undefined, text: line });
    else if (blocks.length) blocks[blocks.length - 1]!.text += `\n${line}`;
    else preamble.push(line);
  }
  return { preamble, blocks };
}

export function mergeBonds(base: string, ours: string, theirs: string): string {
  const o = bondBlocks(ours);
  const t = bondBlocks(theirs);
  const merged = mergeBlocks(bondBlocks(base).blocks, o.blocks, t.blocks, 'oldest-first');
  const kept = merged.slice(Math.max(0, merged.length - BONDS_KEPT));
  const preamble = o.preamble.length || !t.preamble.length ? o.preamble : t.preamble;
  const body = kept.map((b) => b.text.replace(/\n+$/, ''));
  return `${[...preamble, ...body].join('\n').replace(/\n+$/, '')}\n`;
}

function digestBlocks(text: string): { preamble: string; blocks: Block[] } {
  const parts = text.split(/^(?=## )/m);
  const preamble = parts[0]?.startsWith('## ') ? '' : (parts.shift() ?? '');
  const blocks = parts.map((part) => {
    const section = `${part.replace(/\s+$/, '')}\n`;
    return { key: section, time: timeOf(section.split('\n')[0] ?? ''), text: section };
  });
  return { preamble, blocks };
}

export function mergeDigests(base: string, ours: string, theirs: string): string {
  const o = digestBlocks(ours);
  const t = digestBlocks(theirs);
  const merged = mergeBlocks(digestBlocks(base).blocks, o.blocks, t.blocks, 'newest-first').slice(0, DIGESTS_KEPT);
  const preamble = (o.preamble.trim() ? o.preamble : t.preamble).replace(/\s+$/, '');
  const parts = [...(preamble ? [`${preamble}\n`] : []), ...merged.map((b) => b.text)];
  return `${parts.join('\n').replace(/\n+$/, '')}\n`;
}

function journalTime(line: string): number | undefined {
  try {
    const ts = (JSON.parse(line) as { ts?: unknown }).ts;
    if (typeof ts === 'number') return ts < 1e11 ? ts * 1000 : ts;
    if (typeof ts === 'string') {
      const ms = Date.parse(ts);
      return Number.isNaN(ms) ? undefined : ms;
    }
  } catch {
    /* a broken line keeps its place after the line before it */
  }
  return undefined;
}

function journalBlocks(text: string): Block[] {
  return lines(text)
    .filter((line) => line.trim() !== '')
    .map((line) => ({ key: line, time: journalTime(line), text: line }));
}

export function mergeJournal(base: string, ours: string, theirs: string): string {
  const merged = mergeBlocks(journalBlocks(base), journalBlocks(ours), journalBlocks(theirs), 'oldest-first');
  return merged.length ? `${merged.map((b) => b.text).join('\n')}\n` : '';
}
