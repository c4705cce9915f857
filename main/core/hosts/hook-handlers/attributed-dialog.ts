import path from 'node:path';
import type { DialogTurn, HookEvent } from '../../../../common/hook-events.js';
import type { DialogAttribution } from '../../integrations/assistants/transcripts/recent-dialog.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { readRoleHistory, roleAtOffset, type RoleHistoryEntry } from '../../store/sessions/role-history.js';
import { safeSessionKey, sessionKeyOf } from '../../store/sessions/session-key.js';

/**
 * Who said each line of the dialog handoff (CTX-6, issue 19). A transcript is one session's, but
 * a session may have been several roles in turn (a call by name, a handback); its role history
 * (sessions/role-history.ts) says from which byte on each was the one answering. Labelled all
 * with the loading role's name, a called role read the other role's replies as its own, believed
 * it had said them and drifted toward that role's voice.
 *
 * What is done with another role's lines — the choice, and why:
 * - In THIS session's transcript they are kept, under that role's name. The conversation is
 *   already in the model's window (the call happens inside it), so leaving them out would hide
 *   nothing: it would only make the handoff disagree with the window, and drop the context the
 *   user means when they say "what do you think of what 西莉卡 just said". The name tells the
 *   loading role these words are not its own.
 * - In the PREVIOUS session's transcript (the fallback of a session that has almost no dialog
 *   yet) the rounds answered by another role are left out, question and answer. That was a
 *   conversation between the user and that role, never in this role's window: reading it would
 *   be reading another role's memories, which PRIV-4 forbids ("a role never reads another
 *   role's files; it delegates"), and the role skill names the harm: cross-role contamination.
 * - A line the history does not reach (no history at all: a session older than it, a lost or
 *   garbled file; or a line before its first recorded change) is labelled as before the history
 *   existed: as the loading role's.
 */
export function dialogAttribution(
  config: KiokuConfig,
  event: Pick<HookEvent, 'sessionId' | 'transcriptPath'>,
  loadingRoleId: string,
): DialogAttribution {
  return (transcript, turns, current) => {
    const history = current ? historyOf(config, sessionKeyOf(event)) : previousHistory(config, transcript);
    if (history.length === 0) return turns;
    const labelled = turns.map((turn) => {
      const speaker = turn.role === 'assistant' && turn.offset !== undefined ? roleAtOffset(history, turn.offset, transcript) : undefined;
      return speaker ? { ...turn, speaker } : turn;
    });
    return current ? labelled : withoutOtherRoles(labelled, loadingRoleId);
  };
}

function historyOf(config: KiokuConfig, key: string | undefined): RoleHistoryEntry[] {
  if (!key) return [];
  try {
    return readRoleHistory(config, key);
  } catch {
    return []; // an unsafe key: no history
  }
}

const TRAILING_UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * The history of the session that wrote another transcript. Claude Code names a transcript
 * `<session id>.jsonl`, so its name is the key; Codex's `rollout-<time>-<session id>.jsonl` ends
 * with the id. Gemini's names carry neither: no history, the old labelling.
 */
function previousHistory(config: KiokuConfig, transcript: string): RoleHistoryEntry[] {
  const byName = historyOf(config, sessionKeyOf({ sessionId: undefined, transcriptPath: transcript }));
  if (byName.length > 0) return byName;
  const uuid = TRAILING_UUID.exec(path.basename(transcript).replace(/\.[^.]*$/, ''))?.[1];
  return uuid ? historyOf(config, safeSessionKey(uuid)) : [];
}

/** Drop the assistant turns of another role, each with the user turn it answered. */
function withoutOtherRoles(turns: readonly DialogTurn[], roleId: string): DialogTurn[] {
  const kept: DialogTurn[] = [];
  turns.forEach((turn, i) => {
    const other = turn.role === 'assistant' && turn.speaker !== undefined && turn.speaker !== roleId;
    if (!other) {
      kept.push(turn);
      return;
    }
    if (i > 0 && turns[i - 1]!.role === 'user' && kept[kept.length - 1] === turns[i - 1]) kept.pop();
  });
  return kept;
}
