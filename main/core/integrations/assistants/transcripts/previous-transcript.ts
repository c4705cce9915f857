import fs from 'node:fs';
import path from 'node:path';
import type { AssistantName } from '../../../../../common/hook-events.js';

/** Which file names in a transcript folder are conversations of the same kind. */
const TRANSCRIPT_NAME: Record<AssistantName, RegExp> = {
  // `agent-*.jsonl` are sub-agent conversations (older layout), not the user's sessions.
  claude: /^(?!agent-).+\.jsonl$/,
  codex: /^rollout-.+\.jsonl$/,
  gemini: /^session-.+\.jsonl?$/,
};

function newestIn(dir: string, pattern: RegExp, exclude: string): string | undefined {
  let best: { file: string; mtime: number } | undefined;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (!pattern.test(name)) continue;
    const file = path.join(dir, name);
    if (file === exclude) continue;
    try {
      const stat = fs.statSync(file);
      if (stat.isFile() && (!best || stat.mtimeMs > best.mtime)) best = { file, mtime: stat.mtimeMs };
    } catch {
      /* vanished while listing */
    }
  }
  return best?.file;
}

const DIGITS = /^\d+$/;
/** How many earlier day folders a Codex fallback looks through. */
const CODEX_DAYS_BACK = 7;

/**
 * Codex files its rollouts by day (`sessions/YYYY/MM/DD/`), so the first session of a day has
 * no neighbour in its own folder: the previous conversation is in an earlier day's folder.
 */
function earlierCodexDays(dayDir: string): string[] {
  const day = path.basename(dayDir);
  const monthDir = path.dirname(dayDir);
  const yearDir = path.dirname(monthDir);
  const root = path.dirname(yearDir);
  if (![day, path.basename(monthDir), path.basename(yearDir)].every((part) => DIGITS.test(part))) return [];
  const current = `${path.basename(yearDir)}/${path.basename(monthDir)}/${day}`;
  const list = (dir: string) => {
    try {
      return fs
        .readdirSync(dir)
        .filter((name) => DIGITS.test(name))
        .sort()
        .reverse();
    } catch {
      return [];
    }
  };
  const days: string[] = [];
  for (const year of list(root)) {
    for (const month of list(path.join(root, year))) {
      for (const d of list(path.join(root, year, month))) {
        if (`${year}/${month}/${d}` >= current) continue;
        days.push(path.join(root, year, month, d));
        if (days.length >= CODEX_DAYS_BACK) return days;
      }
    }
  }
  return days;
}

/**
 * The most recently modified other transcript beside this one (CTX-6: a new session's own
 * transcript is nearly empty, so the handoff comes from the one before it). Undefined when
 * there is none.
 */
export function findPreviousTranscript(assistant: AssistantName, transcriptPath: string): string | undefined {
  const current = path.resolve(transcriptPath);
  const dir = path.dirname(current);
  const pattern = TRANSCRIPT_NAME[assistant];
  const sameFolder = newestIn(dir, pattern, current);
  if (sameFolder || assistant !== 'codex') return sameFolder;
  for (const day of earlierCodexDays(dir)) {
    const found = newestIn(day, pattern, current);
    if (found) return found;
  }
  return undefined;
}
