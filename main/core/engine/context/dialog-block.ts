import type { DialogTurn } from '../../../../common/hook-events.js';
import { formatLocalDate, formatLocalDateTime, parseLooseDate } from '../../platform/config/clock.js';
import { redactSync } from '../../platform/privacy/redact-sync.js';
import { EMPTY_BLOCK, fitWholeItems, moreNotShown, renderBlock, type ContextBlock } from './context-block.js';
import { say, type ContextLanguage } from '../../platform/text/context-language.js';

/**
 * DIALOG: the last few turns as they were said (CTX-6), keeping the tone long-term memory
 * condenses away; over budget the oldest whole rounds go, so questions and answers stay paired.
 * Design notes: docs/design-notes.md, "main/core/engine/context/dialog-block.ts".
 */
export interface DialogBlockOptions {
  language: ContextLanguage;
  /** The role's display name, labelling its lines. */
  roleName: string;
  /** The loading role's ID: an assistant line whose speaker is this ID is its own. */
  roleId?: string;
  /**
   * Display names of the other roles, by ID, for lines the session's role history gives to
   * another role (DialogTurn.speaker, hook-handlers/attributed-dialog.ts; issue 19).
   */
  speakerNames?: ReadonlyMap<string, string>;
  /** ROLE_LOAD_DIALOG_TURNS: rounds of one user message and its answer; 0 turns the block off. */
  turns: number;
  /** ROLE_LOAD_DIALOG_LIMIT; 0 turns the block off. */
  limit: number;
  /**
   * The session's now: a round said on another day is labelled with its date, so yesterday's
   * 「明天早上十點」 is not read as tomorrow's (issue 12's quality bench, issue 19).
   */
  now?: Date;
}

/**
 * Rounds: a user message and what followed it. Text before the first user message (a greeting)
 * is a round of its own. Consecutive parts of one speaker are merged — unmerged, 8 rounds left only 2
 * of the user's messages (as measured with the role skill's loader).
 */
export function dialogRounds(turns: readonly DialogTurn[]): DialogTurn[][] {
  const rounds: DialogTurn[][] = [];
  for (const turn of turns) {
    const text = turn.text.trim();
    if (!text) continue;
    const current = rounds[rounds.length - 1];
    const last = current?.[current.length - 1];
    // Two replies by different roles stay apart: each keeps the name of the one who said it.
    if (last && last.role === turn.role && last.speaker === turn.speaker) last.text = `${last.text}\n${text}`;
    else if (!current || turn.role === 'user') rounds.push([{ ...turn, text }]);
    else current.push({ ...turn, text });
  }
  return rounds;
}

/**
 * `〔2026-03-02（一）21:40〕` before a round said on an earlier local day than `now`: its 今天/明天
 * mean that day's. Rounds of today, or without a time in the transcript, carry no label.
 */
function roundDate(round: readonly DialogTurn[], options: DialogBlockOptions): string | undefined {
  const stamp = round.find((turn) => turn.timestamp)?.timestamp;
  const at = stamp ? parseLooseDate(stamp) : undefined;
  if (!at || !options.now || formatLocalDate(at) >= formatLocalDate(options.now)) return undefined;
  const weekday = say(
    options.language,
    `（${'日一二三四五六'[at.getDay()]}）`,
    ` ${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][at.getDay()]}`,
  );
  const clock = formatLocalDateTime(at).slice(11, 16);
  return say(options.language, `〔${formatLocalDate(at)}${weekday}${clock} 說的〕`, `[said ${formatLocalDate(at)}${weekday} ${clock}]`);
}

/** Whether an assistant line was said by someone other than the loading role. */
function isOthers(turn: DialogTurn, options: DialogBlockOptions): boolean {
  return turn.role === 'assistant' && turn.speaker !== undefined && turn.speaker !== options.roleId;
}

/**
 * The label of a line: the user; the loading role (its own lines, and lines nobody attributed —
 * the labelling before issue 19); another role by its name (its ID when it has no name any more).
 */
function speakerLabel(turn: DialogTurn, options: DialogBlockOptions): string {
  if (turn.role === 'user') return say(options.language, '使用者', 'User');
  if (!isOthers(turn, options)) return options.roleName;
  return options.speakerNames?.get(turn.speaker!) ?? turn.speaker!;
}

/**
 * The last texts redacted here, by their text: the daemon hands the same transcript's last turns
 * to every SessionStart in its folder, and redacting them again was 0.09 ms of each (its profile
 * in the hooks bench, session 31). redactSync depends on the text alone. A few rounds' worth.
 */
const redacted = new Map<string, string>();
const REDACTED_KEPT = 64;

function redactedOnce(text: string): string {
  let out = redacted.get(text);
  if (out === undefined) {
    out = redactSync(text);
    if (redacted.size >= REDACTED_KEPT) redacted.delete(redacted.keys().next().value!);
    redacted.set(text, out);
  }
  return out;
}

function roundText(round: readonly DialogTurn[], options: DialogBlockOptions): string {
  // Redacted again here: the transcript reader redacts too, but this text reaches the model
  // unfiltered by any other step (PRIV-1), and the pattern pass is idempotent.
  const lines = round.map((turn) => `${speakerLabel(turn, options)}: ${redactedOnce(turn.text)}`);
  const date = roundDate(round, options);
  return (date ? [date, ...lines] : lines).join('\n');
}

/** `turns` oldest first, as in the transcript. */
export function dialogBlock(turns: readonly DialogTurn[], options: DialogBlockOptions): ContextBlock {
  if (options.turns <= 0 || options.limit <= 0) return EMPTY_BLOCK;
  const rounds = dialogRounds(turns);
  if (rounds.length === 0) return EMPTY_BLOCK;
  const recent = rounds.slice(-options.turns);
  const beyondCount = rounds.length - recent.length;
  const newestFirst = recent.map((round) => roundText(round, options)).reverse();
  const baseHeading = say(
    options.language,
    '## 最近的對話（逐字，最舊在前）\n上一段最後幾輪真正說過的話；這只是交接，不是完整歷史。標了日期的是之前說的：裡面的「今天」「明天」以那天為準。',
    '## Recent conversation (verbatim, oldest first)\nThe last few rounds as actually said: a handoff, not the full history. Dated rounds were said earlier: their "today" and "tomorrow" are that day\'s.',
  );
  const others = recent.some((round) => round.some((turn) => isOthers(turn, options)));
  const heading = others
    ? `${baseHeading}\n${say(
        options.language,
        `標著其他角色名字的那幾行不是${options.roleName}說的：是那時在這段對話裡的另一個角色說的。`,
        `Lines under another role's name were not said by ${options.roleName}: that role said them in this conversation.`,
      )}`
    : baseHeading;
  const note = (n: number) => moreNotShown(options.language, n, '輪較早的對話', 'earlier rounds');
  const fit = fitWholeItems({
    heading,
    items: newestFirst,
    limit: options.limit,
    note,
    separator: '\n\n',
    contiguous: true,
    alreadyOmitted: beyondCount,
  });
  const shown = fit.chosen.map((i) => newestFirst[i]!).reverse();
  // The note sits first here: what was left out is older than everything shown.
  if (shown.length === 0) return renderBlock(heading, [], fit.omitted + beyondCount, note, '\n\n', options.limit);
  const omitted = fit.omitted + beyondCount;
  const pieces = omitted > 0 ? [heading, note(omitted), ...shown] : [heading, ...shown];
  return { text: pieces.join('\n\n'), shown: shown.length, omitted };
}
