import { startWithin } from './context-block.js';
import { say, type ContextLanguage } from '../../platform/text/context-language.js';

/**
 * CTX-3: Claude Code replaces any one hook output over 10,000 characters with a short preview and
 * a file path, so no part may exceed KIOKU_HOOK_OUTPUT_LIMIT (9,800). Blocks are laid into parts
 * in order, one after another; each part is the output of one registered SessionStart command.
 */
const BLOCK_SEPARATOR = '\n\n';

export function partHeader(language: ContextLanguage, index: number, total: number): string {
  return say(language, `〔Kioku 角色載入 ${index}/${total}〕`, `[Kioku session context ${index}/${total}]`);
}

/** Room for text in one part: the limit less the largest header it could carry. */
export function partRoom(limit: number, language: ContextLanguage): number {
  return limit - partHeader(language, 99, 99).length - BLOCK_SEPARATOR.length;
}

/**
 * A text longer than a whole part (a very long role file or project memory) is split at its
 * paragraph ends, then line ends, then sentence ends — never inside a sentence unless one single
 * sentence is longer than a part. Nothing is dropped.
 */
export function splitToFit(text: string, room: number, separators: readonly string[] = ['\n\n', '\n']): string[] {
  if (text.length <= room) return [text];
  const [separator, ...finer] = separators;
  if (separator === undefined) {
    const size = Math.max(1, room);
    const pieces: string[] = [];
    let rest = text;
    while (rest.length > size) {
      const head = startWithin(rest, size) || rest.slice(0, size);
      pieces.push(head);
      rest = rest.slice(head.length).replace(/^\s+/, '');
    }
    if (rest) pieces.push(rest);
    return pieces;
  }
  const chunks: string[] = [];
  let current = '';
  for (const piece of text.split(separator).flatMap((p) => splitToFit(p, room, finer))) {
    if (!current) current = piece;
    else if (current.length + separator.length + piece.length <= room) current += separator + piece;
    else {
      chunks.push(current);
      current = piece;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

/** Lay block texts into parts in order; empty texts are skipped. One part carries no header. */
export function packParts(texts: readonly string[], limit: number, language: ContextLanguage): string[] {
  const room = partRoom(limit, language);
  const bodies: string[] = [];
  let current = '';
  for (const text of texts) {
    if (!text) continue;
    for (const piece of splitToFit(text, room)) {
      if (!current) current = piece;
      else if (current.length + BLOCK_SEPARATOR.length + piece.length <= room) current += BLOCK_SEPARATOR + piece;
      else {
        bodies.push(current);
        current = piece;
      }
    }
  }
  if (current) bodies.push(current);
  if (bodies.length <= 1) return bodies;
  return bodies.map((body, i) => `${partHeader(language, i + 1, bodies.length)}${BLOCK_SEPARATOR}${body}`);
}
