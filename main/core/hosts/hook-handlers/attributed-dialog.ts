import path from 'node:path';
import type { DialogTurn, HookEvent } from '../../../../common/hook-events.js';
import type { DialogAttribution } from '../../integrations/assistants/transcripts/recent-dialog.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { readRoleHistory, roleAtOffset, type RoleHistoryEntry } from '../../store/sessions/role-history.js';
import { safeSessionKey, sessionKeyOf } from '../../store/sessions/session-key.js';

/**
 * Who said each line of the dialog handoff (CTX-6, issue 19), from the session's role history,
 * so a called role does not read another role's replies as its own.
 * Design notes: docs/design-notes.md, "main/core/hosts/hook-handlers/attributed-dialog.ts".
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
