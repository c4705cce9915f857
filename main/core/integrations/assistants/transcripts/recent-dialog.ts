import type { AssistantName, DialogTurn } from '../../../../../common/hook-events.js';
import { settledFileStamp } from '../../../platform/fs/file-stamp.js';
import { redactSync } from '../../../platform/privacy/redact-sync.js';
import { claudeLineMayHoldDialog, parseClaudeLine } from './claude-transcript.js';
import { codexLineMayHoldDialog, parseCodexLine } from './codex-transcript.js';
import { fitDialog, TurnCollector, type DialogBudget, type DialogEntry } from './dialog-turns.js';
import { createGeminiLineParser } from './gemini-transcript.js';
import { findPreviousTranscript } from './previous-transcript.js';
import { scanLinesBackward, type TailScanOptions, type TailScanResult } from './tail-lines.js';

export type { DialogBudget } from './dialog-turns.js';

export interface RecentDialogOptions extends DialogBudget, Pick<TailScanOptions, 'maxScanBytes'> {
  /** Give each turn the byte where it starts in its transcript (DialogTurn.offset). */
  withOffsets?: boolean;
}

/**
 * Sets who said each assistant turn of one transcript (DialogTurn.speaker) and drops what the
 * reader must not see, before the budget is applied (so what is dropped leaves room for more).
 * `current` is false for the previous transcript the fallback reads. Turns come with offsets.
 */
export type DialogAttribution = (transcript: string, turns: DialogTurn[], current: boolean) => DialogTurn[];

interface LineReader {
  accept?: (line: Buffer) => boolean;
  parse: (line: string) => DialogEntry[];
}

function lineReaderFor(assistant: AssistantName): LineReader {
  if (assistant === 'claude') return { accept: claudeLineMayHoldDialog, parse: parseClaudeLine };
  if (assistant === 'codex') return { accept: codexLineMayHoldDialog, parse: parseCodexLine };
  // Gemini's pretty-printed document spans lines: every line matters to the parser's state.
  return { parse: createGeminiLineParser() };
}

/**
 * The turns last collected from each transcript, by the budget asked and the file's stamp. The
 * daemon answers SessionStart after SessionStart from the same few transcripts (a new session is
 * handed the previous one's dialog, which no longer changes), and reading, parsing and redacting
 * them again was a fifth of its work on each (issue 17's profile). Only settled files are kept
 * (file-stamp.ts): a transcript written since has another stamp, and one still being written —
 * every Stop's — is read afresh and not kept. Frozen turns: callers copy what they label.
 */
const collected = new Map<string, { stamp: string; turns: readonly DialogTurn[] }>();
/** A few sessions' worth: one entry per transcript and budget. */
const COLLECTED_KEEP = 16;

function collectTurns(assistant: AssistantName, file: string, options: RecentDialogOptions): DialogTurn[] {
  let stamp: string | undefined;
  try {
    stamp = settledFileStamp(file);
  } catch {
    stamp = undefined; // not a file we may look at: the read below says what it has
  }
  const key = `${assistant}\n${options.maxTurns}\n${options.maxChars}\n${options.maxScanBytes ?? ''}\n${options.withOffsets ? 1 : 0}\n${file}`;
  const known = stamp === undefined ? undefined : collected.get(key);
  if (known && known.stamp === stamp) return [...known.turns];
  const turns = readTurns(assistant, file, options).map((turn) => Object.freeze(turn));
  if (stamp !== undefined) {
    collected.delete(key);
    collected.set(key, { stamp, turns });
    if (collected.size > COLLECTED_KEEP) collected.delete(collected.keys().next().value!);
  }
  return turns;
}

/**
 * The last whole turns of one transcript, oldest first, merged and redacted but not yet fitted
 * (the fallback joins two files before fitting). Never throws: a missing, unreadable or
 * unparseable file has no dialog.
 */
function readTurns(assistant: AssistantName, file: string, options: RecentDialogOptions): DialogTurn[] {
  const collector = new TurnCollector(options);
  const { accept, parse } = lineReaderFor(assistant);
  let scan: TailScanResult;
  try {
    scan = scanLinesBackward(
      file,
      (line, offset) => {
        const entries = parse(line);
        for (let i = entries.length - 1; i >= 0; i--)
          if (!collector.add(options.withOffsets ? { ...entries[i]!, offset } : entries[i]!)) return false;
        return true;
      },
      { maxScanBytes: options.maxScanBytes, accept },
    );
  } catch {
    return [];
  }
  // PRIV-1: transcript text never went through the model's own care; mask before it is injected.
  return collector.result(!scan.stopped && !scan.reachedStart).map((turn) => ({ ...turn, text: redactSync(turn.text) }));
}

/**
 * CTX-6: the recent dialog of a session for the SessionStart handoff — user and assistant
 * text only, merged per turn, redacted, the oldest whole question/answer pairs dropped to fit
 * `maxTurns` turns and `maxChars` characters of text. Reads from the end of the file, so a
 * transcript of any size costs about the same. Missing path or file → [].
 */
export function readRecentDialog(assistant: AssistantName, transcriptPath: string | undefined, options: RecentDialogOptions): DialogTurn[] {
  if (!transcriptPath || options.maxTurns <= 0 || options.maxChars <= 0) return [];
  return fitDialog(collectTurns(assistant, transcriptPath, options), options);
}

/**
 * readRecentDialog, and when the current transcript holds fewer than 2 turns (a brand-new
 * session's holds almost nothing), the dialog of the most recently modified other transcript
 * in the same folder (Codex: also the previous day folders) comes before it.
 */
export function readRecentDialogWithFallback(
  assistant: AssistantName,
  transcriptPath: string | undefined,
  options: RecentDialogOptions,
  attribute?: DialogAttribution,
): DialogTurn[] {
  if (!transcriptPath || options.maxTurns <= 0 || options.maxChars <= 0) return [];
  const read = attribute ? { ...options, withOffsets: true } : options;
  const raw = collectTurns(assistant, transcriptPath, read);
  const current = attribute ? attribute(transcriptPath, raw, true) : raw;
  // Counted before attribution: a session of its own with dialog never borrows another's.
  if (raw.length >= 2) return fitDialog(current, options);
  const previous = findPreviousTranscript(assistant, transcriptPath);
  if (!previous) return fitDialog(current, options);
  const before = collectTurns(assistant, previous, read);
  return fitDialog([...(attribute ? attribute(previous, before, false) : before), ...current], options);
}
