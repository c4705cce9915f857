import type { HookCall } from '../../../../common/hook-protocol.js';
import type { DialogTurn, HookEvent } from '../../../../common/hook-events.js';
import { explainInvalidRoleId } from '../../../../common/role-id.js';
import { adapterFor } from '../../integrations/assistants/adapters.js';
import { readRecentDialog, type RecentDialogOptions } from '../../integrations/assistants/transcripts/recent-dialog.js';
import { handleCapturedTurn } from '../../engine/capture/handle-capture.js';
import { handlePostCompact } from '../../engine/capture/post-compact.js';
import { redactSync } from '../../platform/privacy/redact-sync.js';
import { roleFilesExist } from '../../store/roles/role-repository.js';
import { activationGate } from '../../store/sessions/activation.js';
import { readCapturedTurn, turnKeyOf } from '../../store/sessions/captured-turn-file.js';
import { releaseSessionLocks } from '../../store/sessions/session-end.js';
import { sessionKeyOf } from '../../store/sessions/session-key.js';
import { readRoleHistory, roleAtOffset, roleAtTime } from '../../store/sessions/role-history.js';
import { resolveSessionRole } from '../../store/sessions/session-role.js';
import type { HookContext } from './hook-handler.js';

const normalized = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Shorter replies ("好。") end too many turns to be matched by their end alone. */
const MIN_TAIL_MATCH = 8;

/**
 * The assistant turn holds this reply: it is the whole turn, or its end — Claude Code's
 * last_assistant_message is the turn's final text, while the transcript merges every text block
 * of the turn (the ones between tool calls too) into one.
 */
function holdsReply(turnText: string, reply: string): boolean {
  const turn = normalized(turnText);
  const wanted = normalized(reply);
  return wanted !== '' && (turn === wanted || (wanted.length >= MIN_TAIL_MATCH && turn.endsWith(wanted)));
}

/** The newest assistant turn holding the reply; the transcript's text is redacted, so the reply is compared redacted too. */
function replyIndex(dialog: readonly DialogTurn[], reply: string): number | undefined {
  const wanted = redactSync(reply);
  for (let i = dialog.length - 1; i >= 0; i--) if (dialog[i]!.role === 'assistant' && holdsReply(dialog[i]!.text, wanted)) return i;
  return undefined;
}

/** Where a live Stop's reply is: among the newest turns. */
const NEAR: RecentDialogOptions = { maxTurns: 40, maxChars: 200_000, withOffsets: true };
/** Where a replayed Stop's reply may be; the reader's own scan bound (the last 8 MB) still holds. */
const FAR: RecentDialogOptions = { maxTurns: 5_000, maxChars: 5_000_000, withOffsets: true };

export interface LastTurn {
  userText: string;
  assistantText: string;
  /** When the user's line was written (transcript timestamp), if the transcript says. */
  userAt?: string;
}

/** The turn, and where its reply starts in the transcript when the reply was found there. */
interface LocatedTurn extends LastTurn {
  replyOffset?: number;
  /** The Stop's reply is in the transcript (false: the transcript has not caught up with it). */
  replyFound: boolean;
}

/**
 * The turn this Stop ended: the reply comes from the payload (the transcript is written
 * asynchronously and may lag behind the hook, ASSISTANTS.md), the user's words from the
 * transcript line before THAT reply. When events are replayed from the spool later, the
 * transcript has grown since; taking its last user line would give every queued turn the words
 * of the newest one — so when the reply is not among the newest turns of a long transcript, the
 * search goes further back (a daemon that was down while a session went on for 20 more turns).
 * Only a reply found nowhere (the transcript has not caught up yet) takes the last user line.
 */
function locateLastTurn(event: Pick<HookEvent, 'assistant' | 'transcriptPath' | 'lastAssistantMessage' | 'prompt'>): LocatedTurn {
  const reply = event.lastAssistantMessage;
  let dialog = readRecentDialog(event.assistant, event.transcriptPath, NEAR);
  let at = reply ? replyIndex(dialog, reply) : undefined;
  if (reply && at === undefined && dialog.length >= NEAR.maxTurns - 1) {
    const wider = readRecentDialog(event.assistant, event.transcriptPath, FAR);
    const found = replyIndex(wider, reply);
    if (found !== undefined) [dialog, at] = [wider, found];
  }
  const user = dialog
    .slice(0, at ?? dialog.length)
    .reverse()
    .find((turn) => turn.role === 'user');
  const assistant = [...dialog].reverse().find((turn) => turn.role === 'assistant');
  const assistantText = reply ?? assistant?.text ?? '';
  // A PreCompact has no reply of its own: its turn is the newest, answered by the last assistant turn.
  const answered = at !== undefined ? dialog[at] : reply ? undefined : assistant;
  const where = { replyFound: at !== undefined, ...(answered?.offset !== undefined ? { replyOffset: answered.offset } : {}) };
  // Gemini's AfterAgent names the turn's prompt itself (the adapter has removed the hooks' text
  // from it): those are the user's words when the transcript has not caught up, or holds another
  // turn's. When the transcript's line is the same words, it is taken as before (with its time),
  // so a PreCompress reading the transcript computes the same turn key.
  const sameLine = event.prompt === undefined || (user !== undefined && normalized(redactSync(event.prompt)) === normalized(user.text));
  if (!sameLine) return { userText: event.prompt!, assistantText, ...where };
  return { userText: user?.text ?? '', assistantText, ...(user?.timestamp ? { userAt: user.timestamp } : {}), ...where };
}

export function lastTurn(event: Pick<HookEvent, 'assistant' | 'transcriptPath' | 'lastAssistantMessage' | 'prompt'>): LastTurn {
  const { replyOffset: _where, replyFound: _found, ...turn } = locateLastTurn(event);
  return turn;
}

const usable = (config: HookContext['config'], roleId: string | undefined) =>
  roleId && !explainInvalidRoleId(roleId) && roleFilesExist(config.paths.roleHome, roleId) ? roleId : undefined;

/**
 * Whose memory a queued event goes to (CAP-2, CALL-3, issue 13 and 19): the role that answered
 * the turn. In order: the session's role history at the reply's place in the transcript (a Stop
 * ingested late, after the session called another role, still goes to the role that said it);
 * the role the hook resolved when it spooled the event; the history at the event's time (a reply
 * the transcript does not hold yet); the session's role now (`.role`, else `ROLE_NAME`/`.active`,
 * as before the history existed). A role whose files are gone is skipped at every step.
 */
function answeringRole(
  config: HookContext['config'],
  event: HookEvent,
  call: { roleId?: string },
  when: Date,
  replyOffset: number | undefined,
): { id: string } | undefined {
  const key = sessionKeyOf(event);
  const history = key ? readRoleHistory(config, key) : [];
  const id =
    (replyOffset !== undefined ? usable(config, roleAtOffset(history, replyOffset, event.transcriptPath)) : undefined) ??
    usable(config, call.roleId) ??
    usable(config, roleAtTime(history, when));
  return id ? { id } : resolveSessionRole(config, event);
}

/**
 * How long a live Stop waits for its transcript to hold the reply. Claude Code 2.1 writes a
 * turn's transcript lines after its Stop hook has run (the real-client suite, issue 13: on an
 * idle machine the daemon read a transcript without the turn's user line, took no words and let
 * the turn go as too short). The daemon's queue is off the hook's path, so waiting costs the
 * assistant nothing; a replayed event (spooled long ago) finds its transcript complete.
 */
const CATCH_UP_MS = 3_000;
const CATCH_UP_POLL_MS = 100;
/** Events older than this are replays: their transcript has long caught up, or never will. */
const LIVE_EVENT_MS = 30_000;

async function locateWhenWritten(config: HookContext['config'], event: HookEvent, eventTime: Date): Promise<LocatedTurn> {
  let located = locateLastTurn(event);
  const live = Math.abs(config.clock.now().getTime() - eventTime.getTime()) < LIVE_EVENT_MS;
  if (event.event !== 'stop' || !event.lastAssistantMessage || !event.transcriptPath || !live) return located;
  // Caught up: the reply is there, in a turn no earlier event of this session has judged (the
  // same words may answer two turns — "好的，我記住了。" — and the older one is found first).
  const sessionKey = sessionKeyOf(event);
  const judged = sessionKey ? readCapturedTurn(config, sessionKey) : undefined;
  const caughtUp = (turn: LocatedTurn) => turn.replyFound && (judged === undefined || turnKeyOf(turn.userText, turn.userAt) !== judged);
  if (caughtUp(located)) return located;
  // Real time, not the config clock: this waits for another process's writes.
  const deadline = Date.now() + CATCH_UP_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, CATCH_UP_POLL_MS));
    const again = locateLastTurn(event);
    if (caughtUp(again)) return again;
    if (again.replyFound || !located.replyFound) located = again;
  }
  return located;
}

/**
 * The daemon's capture queue (CAP-1…7, LOCK-4): Stop and PreCompact become inbox memories,
 * PostCompact keeps the harness's summary, SessionEnd releases the session's locks. Runs only in
 * the daemon (it loads the condensers); every step is idempotent by `eventId`, because the spool
 * delivers at least once.
 */
export async function handleQueuedCall(ctx: HookContext, call: HookCall & { spooledAt?: string; roleId?: string }): Promise<void> {
  const { config } = ctx;
  const adapter = adapterFor(call.assistant);
  const spooled = call.spooledAt ? new Date(call.spooledAt) : undefined;
  const eventTime = spooled && !Number.isNaN(spooled.getTime()) ? spooled : config.clock.now();
  const event = adapter.parseEvent(call.event, call.payload, eventTime);
  if (event.event === 'session-end') {
    releaseSessionLocks(config, event);
    return;
  }
  if (activationGate(config, event) !== undefined) return;
  if (event.event === 'stop' || event.event === 'pre-compact') {
    const { userAt, replyOffset, replyFound: _found, ...turn } = await locateWhenWritten(config, event, eventTime);
    const role = answeringRole(config, event, call, eventTime, replyOffset);
    if (!role) return;
    const base = {
      eventId: call.eventId,
      roleId: role.id,
      assistant: event.assistant,
      sessionId: event.sessionId ?? null,
      receivedAt: event.receivedAt,
    };
    const sessionKey = sessionKeyOf(event);
    const key = turnKeyOf(turn.userText, userAt);
    const report = await handleCapturedTurn(config, {
      ...base,
      trigger: event.event === 'stop' ? 'stop' : 'pre-compact',
      ...turn,
      ...(event.cwd ? { cwd: event.cwd } : {}),
      ...(sessionKey && key ? { turn: { sessionKey, key } } : {}),
    });
    ctx.logger.info(
      'capture',
      `${event.event} ${call.eventId} for ${role.id}: ${report.written.length} written${report.skipped ? `, skipped (${report.skipped})` : ''}`,
    );
  } else if (event.event === 'post-compact') {
    const role = answeringRole(config, event, call, eventTime, undefined);
    if (!role) return;
    const base = {
      eventId: call.eventId,
      roleId: role.id,
      assistant: event.assistant,
      sessionId: event.sessionId ?? null,
      receivedAt: event.receivedAt,
    };
    await handlePostCompact(config, {
      ...base,
      ...(event.trigger ? { trigger: event.trigger } : {}),
      ...(event.compactSummary ? { compactSummary: event.compactSummary } : {}),
      payloadKeys: event.payloadKeys,
      ...(event.cwd ? { cwd: event.cwd } : {}),
    });
  }
}
