import { cleanForStorage } from '../../platform/privacy/clean-for-storage.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { silentLogger, type Logger } from '../../platform/config/log.js';
import { appendBond } from '../../store/memory/bonds.js';
import { readMemoryState, type PersonalMemoryConsent } from '../../store/memory/memory-state.js';
import type { MemoryDraft } from '../../store/memory/memory-writer.js';
import { readRoleDefinition } from '../../store/roles/role-repository.js';
import { readCapturedTurn, readCapturedTurnEntry, writeCapturedTurn } from '../../store/sessions/captured-turn-file.js';
import { shouldCondense } from './capture-filter.js';
import {
  CondenseFailure,
  type CapturedTurnRecord,
  type CaptureReport,
  type CondensedMemory,
  type Condenser,
  type TurnInput,
} from './capture-types.js';
import { isCaptured, writeCapturedMemory } from './capture-writer.js';
import { resolveCliCondenser } from './cli-condenser.js';
import { localCondenser } from './local-condenser.js';
import { stripPersonalDetails } from './personal-details.js';
import { bindToTurn } from './turn-dates.js';
import { captureProject, capturedProjectExtra } from './capture-project.js';
import { recordTurnActivity } from './relationship-counters.js';
import { asksNotToRememberTurn, detectConsentChange, isPositiveFeedback } from './turn-signals.js';

/**
 * The daemon's entry for a Stop or PreCompact turn (CAP-1…6): counters first, then filter,
 * condense, write.
 * Design notes: docs/design-notes.md, "main/core/engine/capture/handle-capture.ts".
 */
export interface CaptureOptions {
  /** Use this condenser instead of the ROLE_CLI choice; the local condenser stays the fallback. */
  condenser?: Condenser;
  logger?: Logger;
  signal?: AbortSignal;
}

export function turnTime(config: KiokuConfig, receivedAt: string | undefined): Date {
  const at = receivedAt ? new Date(receivedAt) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : config.clock.now();
}

export function emptyReport(eventId: string, roleId: string): CaptureReport {
  return { eventId, roleId, written: [], existing: [], countersUpdated: false, bondsAdded: 0, personalDetailsRemoved: 0, warnings: [] };
}

function roleFacts(config: KiokuConfig, roleId: string): { name: string; relationship?: string } {
  try {
    const role = readRoleDefinition(config.paths.roleHome, roleId);
    return { name: role.name || roleId, ...(role.relationship.trim() ? { relationship: role.relationship } : {}) };
  } catch {
    return { name: roleId };
  }
}

/**
 * The guard rails of MEM-5 applied to every condenser's output (a model
 * can forget them): emotional → priority ≥ 4 and relevance `emotional`; an expiry → `temporary`.
 */
export function toDraft(
  memory: CondensedMemory,
  record: CapturedTurnRecord,
  condenser: string,
  project: Record<string, unknown> = {},
): MemoryDraft {
  const emotional = memory.memory_type === 'emotional';
  const relevance = new Set(memory.relevance);
  if (emotional) relevance.add('emotional');
  if (memory.expires) relevance.add('temporary');
  const priority = Math.max(emotional ? 4 : 1, Math.min(5, Math.round(memory.priority) || 3));
  return {
    category: 'inbox',
    summary: memory.summary,
    body: memory.keyPoints.map((point) => `- ${point}`).join('\n') || memory.summary,
    tags: memory.tags,
    priority,
    relevance: [...relevance],
    memory_type: memory.memory_type,
    ...(memory.expires ? { expires: memory.expires } : {}),
    retention_stage: 'working',
    sleep_stage: 'encoding',
    extra: {
      category_guess: memory.category,
      source: `capture:${record.assistant}`,
      capture_trigger: record.trigger,
      condenser,
      ...project,
    },
  };
}

/** The configured condenser (or options.condenser), the local one on any failure or an empty answer. */
export async function condenseWithFallback(
  config: KiokuConfig,
  record: CapturedTurnRecord,
  input: TurnInput,
  options: CaptureOptions,
): Promise<{ memories: CondensedMemory[]; condenser: string; fallback?: CaptureReport['fallback'] }> {
  const resolved = options.condenser ? { condenser: options.condenser } : resolveCliCondenser(config, record.assistant);
  const primary = resolved.condenser;
  let fallback: CaptureReport['fallback'];
  if ('missing' in resolved && resolved.missing) {
    fallback = { from: `cli:${resolved.missing}`, kind: 'not-found', message: `ROLE_CLI=${resolved.missing} is not on PATH` };
  }
  if (primary && primary !== localCondenser) {
    try {
      const memories = await primary.condense(input, options.signal);
      if (memories.length) return { memories, condenser: primary.name };
      throw new CondenseFailure('schema-mismatch', `${primary.name} returned no memories`);
    } catch (error) {
      const kind = error instanceof CondenseFailure ? error.kind : 'error';
      fallback = { from: primary.name, kind, message: (error as Error).message };
    }
  }
  return { memories: await localCondenser.condense(input), condenser: localCondenser.name, ...(fallback ? { fallback } : {}) };
}

export async function handleCapturedTurn(
  config: KiokuConfig,
  record: CapturedTurnRecord,
  options: CaptureOptions = {},
): Promise<CaptureReport> {
  const logger = options.logger ?? silentLogger;
  const report = emptyReport(record.eventId, record.roleId);
  const at = turnTime(config, record.receivedAt);
  const userText = typeof record.userText === 'string' ? record.userText : '';
  const assistantText = typeof record.assistantText === 'string' ? record.assistantText : '';

  // A PreCompact with no new dialogue since the last capture writes nothing at all, state.json
  // included (issue 13): Gemini fires PreCompress at every session start and before model calls,
  // with nothing to compress. No dialogue is a transcript without the user's words (empty, or only
  // hooks' injected text); no new dialogue is the turn the session's last Stop already judged.
  if (record.trigger === 'pre-compact') {
    if (userText.trim() === '') return { ...report, skipped: 'no-new-dialogue' };
    if (record.turn && readCapturedTurn(config, record.turn.sessionKey) === record.turn.key)
      return { ...report, skipped: 'already-captured' };
  }

  const consentChange = detectConsentChange(userText, assistantText);
  let consent: PersonalMemoryConsent;
  try {
    const activity = recordTurnActivity(config, record.roleId, {
      eventId: record.eventId,
      at,
      countsAsTurn: record.trigger === 'stop',
      positiveFeedback: isPositiveFeedback(userText),
      ...(consentChange ? { consent: consentChange } : {}),
    });
    report.countersUpdated = activity.counted;
    if (activity.counted && consentChange) report.consentChange = consentChange;
    consent = activity.state.personal_memory_consent;
  } catch (error) {
    // Counting must not cost the memory: go on with the consent on disk (or the one just stated).
    logger.error('capture', `state.json of ${record.roleId} was not updated for event ${record.eventId}: ${(error as Error).message}`);
    consent = consentChange ?? readMemoryState(config.paths.memoryHome, record.roleId).state.personal_memory_consent;
  }

  const decision = shouldCondense({ userText, assistantText }, config.settings, { force: record.trigger === 'pre-compact' });
  // A Stop that judged its turn not worth keeping has still captured it: a later PreCompact of the
  // same turn has nothing new to add (before, it kept every short "好。" that a Stop had let go).
  if (!decision.condense) {
    if (decision.reason !== 'disabled') rememberCapturedTurn(config, record, logger);
    return { ...report, skipped: decision.reason };
  }
  if (asksNotToRememberTurn(userText)) {
    rememberCapturedTurn(config, record, logger);
    return { ...report, skipped: 'user-asked-not-to-remember' };
  }
  // The Stop of a turn a PreCompact already captured in its middle (Gemini fires PreCompress
  // before each model call of a turn, Claude Code may compact during a long one): counted above
  // as a turn, but its words are in the inbox once already.
  if (record.trigger === 'stop' && record.turn) {
    const captured = readCapturedTurnEntry(config, record.turn.sessionKey);
    if (captured?.by === 'pre-compact' && captured.key === record.turn.key) return { ...report, skipped: 'already-captured' };
  }
  // Memories are written last index first, so index 0 on disk means the whole event was written.
  if (isCaptured(config, record.roleId, 'inbox', record.eventId, 0, at)) {
    rememberCapturedTurn(config, record, logger);
    return { ...report, skipped: 'already-captured' };
  }

  // PRIV-1 and PRIV-2 on the raw words, before anything is composed or derived from them. Redacted
  // here, not only by the writer: a condenser cuts words out of the turn for tags and cues (at
  // most 31 characters, turn-text.ts extractTags), and a cut piece of a token (`npm_` and 27 of
  // its 36 characters, one segment of a JWT) no longer looks like a secret when the writer
  // cleans that tag on its own (issue 14). The writer guards the script again, but it judges
  // sentence by sentence, and a Simplified quote inside our Traditional label line
  // ("角色當時的回應：好，之后…") reads as Traditional there and would be left as it was.
  let user = (await cleanForStorage(userText)).text;
  let reply = (await cleanForStorage(assistantText)).text;
  if (consent !== 'accepted') {
    const strippedUser = stripPersonalDetails(user);
    const strippedReply = stripPersonalDetails(reply);
    user = strippedUser.text;
    reply = strippedReply.text;
    report.personalDetailsRemoved = strippedUser.removed + strippedReply.removed;
  }
  const role = roleFacts(config, record.roleId);
  const input: TurnInput = {
    roleId: record.roleId,
    roleName: role.name,
    userText: user,
    assistantText: reply,
    consent,
    now: at,
    trigger: record.trigger,
    ...(role.relationship ? { relationship: role.relationship } : {}),
  };
  const result = await condenseWithFallback(config, record, input, options);
  // Dates said relatively become absolute; a grant is bound to this session or a day (issues 12, 19).
  result.memories = result.memories.map((memory) => bindToTurn(memory, { userText: user, now: at, sessionId: record.sessionId }));
  report.condenser = result.condenser;
  if (result.fallback) {
    report.fallback = result.fallback;
    logger.warn(
      'capture',
      `condenser ${result.fallback.from} failed (${result.fallback.message}); used the local condenser for event ${record.eventId}`,
    );
  }

  const project = captureProject(config, record.cwd);
  for (let index = result.memories.length - 1; index >= 0; index--) {
    const memory = result.memories[index]!;
    const draft = toDraft(memory, record, result.condenser, capturedProjectExtra(project, memory, user));
    const written = await writeCapturedMemory(config, record.roleId, { eventId: record.eventId, index, at }, draft);
    (written.written ? report.written : report.existing).push(written.memory.id);
    report.warnings.push(...written.warnings);
    if (written.written && memory.bond) {
      const bond = await appendBond(config, record.roleId, memory.bond);
      if (bond.added) report.bondsAdded++;
      report.warnings.push(...bond.warnings);
    }
  }
  report.written.reverse();
  report.existing.reverse();
  rememberCapturedTurn(config, record, logger);
  return report;
}

/** The turn is in the inbox now; a failure to note it costs at most a duplicate, never the memory. */
function rememberCapturedTurn(config: KiokuConfig, record: CapturedTurnRecord, logger: Logger): void {
  if (!record.turn) return;
  try {
    writeCapturedTurn(config, record.turn.sessionKey, record.turn.key, record.trigger);
  } catch (error) {
    logger.warn('capture', `could not note the captured turn of session ${record.turn.sessionKey}: ${(error as Error).message}`);
  }
}
