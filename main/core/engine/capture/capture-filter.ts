import type { Settings } from '../../platform/config/settings-schema.js';
import { FILTER_CUES, matchForm } from '../../platform/text/cue-words.js';

/**
 * CAP-1, seed 000 §額度控制策略 ("先用本地規則略過短回合與無記憶線索的對話，只有值得保存才呼叫模型"):
 * the cheap local gate in front of every condensing.
 */
export interface TurnText {
  userText: string;
  assistantText: string;
}

export type FilterDecision =
  | {
      condense: true;
      reason: 'forced' | 'cue' | 'long-enough';
      /** Which cue kept the turn (`remember`, `preference`, `feedback`, `emotion`, `consent`, …). */
      cue?: string;
    }
  | { condense: false; reason: 'disabled' | 'empty' | 'too-short' };

export interface FilterOptions {
  /** PreCompact (CAP-5): skip the length test — after compaction the words cannot be recovered. */
  force?: boolean;
}

/** The first cue group found in the user's words, if any. */
export function findMemoryCue(userText: string): string | undefined {
  const text = matchForm(userText);
  for (const [name, pattern] of Object.entries(FILTER_CUES)) if (pattern.test(text)) return name;
  return undefined;
}

/** Characters, not UTF-16 units: 240 characters of Chinese are 240, as a person counts them. */
function charCount(text: string): number {
  let n = 0;
  for (const _ of text.trim()) n++;
  return n;
}

export function shouldCondense(
  turn: TurnText,
  settings: Pick<Settings, 'ROLE_CAPTURE_ENABLED' | 'ROLE_CAPTURE_MIN_CHARS'>,
  options: FilterOptions = {},
): FilterDecision {
  if (!settings.ROLE_CAPTURE_ENABLED) return { condense: false, reason: 'disabled' };
  const length = charCount(turn.userText) + charCount(turn.assistantText);
  if (length === 0) return { condense: false, reason: 'empty' };
  if (options.force) return { condense: true, reason: 'forced' };
  const cue = findMemoryCue(turn.userText);
  if (cue) return { condense: true, reason: 'cue', cue };
  if (length >= settings.ROLE_CAPTURE_MIN_CHARS) return { condense: true, reason: 'long-enough' };
  return { condense: false, reason: 'too-short' };
}
