import os from 'node:os';
import path from 'node:path';
import type { HookEvent } from '../../../../common/hook-events.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import type { MemoryCache } from '../../store/memory/memory-cache.js';
import type { LoadReport, OmittedKey } from '../../engine/context/assemble-session-context.js';
import { languageOfRole } from '../../platform/text/context-language.js';
import { lockedContext, sleepingContext } from '../../engine/context/special-contexts.js';
import { claudeProjectFolderName } from '../../integrations/mcp/mcp-role.js';
import { readRoleDefinition } from '../../store/roles/role-repository.js';
import { isInSleepWindow } from '../../engine/schedule/sleep-window.js';
import { activationGate, type GateOffReason } from '../../store/sessions/activation.js';
import { liveHolderActivity, readLockFile, roleLockPath } from '../../store/sessions/role-lock-file.js';
import { locksApply } from '../../store/sessions/role-locks.js';
import { loadRoleContext } from './load-role-context.js';

/**
 * "Next session": what SessionStart would inject now for a new session of `role` in `project`,
 * through the hook's own reading and assembly, so it cannot drift; unlike the hook it writes nothing.
 * Design notes: docs/design-notes.md, "main/core/hosts/hook-handlers/session-start-preview.ts".
 */
export interface SessionStartPreview {
  role: string;
  /** The folder the session would start in (the home folder when no project was chosen). */
  cwd: string;
  /** load: the role's persona and memories; asleep: the sleep-window note only; locked: another live session holds the role; off: nothing is injected. */
  state: 'load' | 'asleep' | 'locked' | 'off';
  offReason?: GateOffReason;
  /** Exactly what one registered SessionStart command prints for the model (the parts joined). */
  text: string;
  parts: string[];
  omitted: Record<OmittedKey, number> | null;
  report: LoadReport | null;
}

/** The transcript a new Claude Code session in `cwd` would write: the fallback reads the one before it (CTX-6). */
export function newClaudeTranscriptPath(env: NodeJS.ProcessEnv, cwd: string): string {
  const base = env.CLAUDE_CONFIG_DIR?.trim() || path.join(env.HOME || os.homedir(), '.claude');
  return path.join(base, 'projects', claudeProjectFolderName(path.resolve(cwd)), 'kioku-next-session-preview.jsonl');
}

/** `memories`: a host's parsed memories (the daemon's kind of cache), so a large role is not parsed again; same load. */
export function previewSessionStart(
  config: KiokuConfig,
  logger: Logger,
  request: { role: string; project?: string },
  memories?: MemoryCache,
): SessionStartPreview {
  const cwd = path.resolve(request.project ?? (config.env.HOME || os.homedir()));
  const now = config.clock.now();
  const event: HookEvent = {
    assistant: 'claude',
    event: 'session-start',
    sessionId: undefined,
    transcriptPath: newClaudeTranscriptPath(config.env, cwd),
    cwd,
    source: 'startup',
    receivedAt: now.toISOString(),
    payloadKeys: [],
  };
  const base = { role: request.role, cwd };
  const off = activationGate(config, event);
  if (off) return { ...base, state: 'off', offReason: off, text: '', parts: [], omitted: null, report: null };
  // Read first: a role that does not exist is refused here with the repository's own message.
  const role = readRoleDefinition(config.paths.roleHome, request.role);
  if (isInSleepWindow(config.settings.ROLE_SLEEP_START, config.settings.ROLE_SLEEP_END, now)) {
    const text = sleepingContext({
      language: languageOfRole(role),
      roleName: role.name,
      sleepStart: config.settings.ROLE_SLEEP_START,
      sleepEnd: config.settings.ROLE_SLEEP_END,
    });
    return { ...base, state: 'asleep', text, parts: [text], omitted: null, report: null };
  }
  // LOCK-1: a role another live session holds gives a new session the notice, not the persona.
  // Judged as claimRole judges it, without claiming or taking anything over.
  const lock = locksApply(config, event) ? readLockFile(roleLockPath(config, request.role)) : undefined;
  if (lock?.kind === 'held' && liveHolderActivity(config, lock.lock, now, { ownTranscript: event.transcriptPath })) {
    const text = lockedContext({
      language: languageOfRole(role),
      roleId: request.role,
      roleName: role.name,
      ...(lock.lock.sessionKey ? { holderSessionId: lock.lock.sessionKey } : {}),
      ...(lock.lock.since ? { holderSince: lock.lock.since } : {}),
      idleMinutes: config.settings.ROLE_INSTANCE_IDLE_MINUTES,
    });
    return { ...base, state: 'locked', text, parts: [text], omitted: null, report: null };
  }
  const load = loadRoleContext({ config, logger, host: 'daemon', ...(memories ? { memories } : {}) }, event, request.role, {
    maxParts: 1,
    readOnly: true,
  });
  // One registered command prints every part (session-start-handler.ts `pick`).
  return { ...base, state: 'load', text: load.parts.join('\n\n'), parts: load.parts, omitted: load.omitted, report: load.report };
}
