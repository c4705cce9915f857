/**
 * Issue 16: a memory merged by several consolidations can carry the same sentence twice (once in
 * the gist, again in the detail; or once per merge). The detail panel shows each sentence once:
 * a Markdown line, or a sentence within a paragraph line, that repeats an earlier one (ignoring
 * list markers, spacing and end punctuation) is left out. The file itself is not changed.
 */
const SENTENCE = /[^。！？!?]+[。！？!?]*|[。！？!?]+/gu;

function normalize(text: string): string {
  return text
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/u, '')
    .replace(/^(?:主旨|細節|gist|detail)\s*[:：]\s*/iu, '')
    .replace(/[\s。！？!?.，,；;：:、]+/gu, '')
    .toLowerCase();
}

/** `text` without sentences already said in `seen` or earlier in itself; `seen` grows. */
export function withoutRepeats(text: string, seen: Set<string> = new Set()): string {
  const lines: string[] = [];
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/u.test(line)) inFence = !inFence;
    // Code is said as written; headings and blank lines keep the structure.
    if (inFence || /^\s*(```|~~~|#|\|)/u.test(line) || !line.trim()) {
      lines.push(line);
      continue;
    }
    const marker = /^\s*(?:[-*+]|\d+[.)]|>)\s+/u.exec(line)?.[0] ?? '';
    const kept = (line.slice(marker.length).match(SENTENCE) ?? []).filter((sentence) => {
      const key = normalize(sentence);
      if (!key) return true;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const rest = kept.join('').trim();
    if (rest) lines.push(`${marker}${rest}`);
  }
  return lines
    .join('\n')
    .replace(/\n{3,}/gu, '\n\n')
    .trim();
}
