import type { HookEvent } from '../../../../common/hook-events.js';
import { readRecentDialogWithFallback } from '../../integrations/assistants/transcripts/recent-dialog.js';
import { assembleSessionContext, warmSessionContext, type SessionContext } from '../../engine/context/assemble-session-context.js';
import { countJournalEntries, readFactsText, readProjectMemory } from '../../engine/context/context-files.js';
import type { PeerInfo } from '../../engine/context/peers-block.js';
import { readBonds } from '../../store/memory/bonds-reader.js';
import { readMemoryState } from '../../store/memory/memory-state.js';
import { loadAllRoles, readRoleDefinition } from '../../store/roles/role-repository.js';
import type { RoleDefinition } from '../../store/roles/role-definition.js';
import { projectMemoryFolder, sessionProject } from '../../engine/context/session-project.js';
import { dialogAttribution } from './attributed-dialog.js';
import { traceMark } from '../../platform/config/trace.js';
import { memoriesFromFiles } from './file-mode-memories.js';
import type { HookContext } from './hook-handler.js';

/**
 * Read everything one role's load needs from the files and assemble it (CTX-1…6); shared by
 * SessionStart and a call by name (CALL-3) so the two never drift.
 * Design notes: docs/design-notes.md, "main/core/hosts/hook-handlers/load-role-context.ts".
 */
export function loadRoleContext(
  ctx: HookContext,
  event: HookEvent,
  roleId: string,
  options: { maxParts?: number; readOnly?: boolean; role?: RoleDefinition } = {},
): SessionContext {
  const { config } = ctx;
  const { settings, paths } = config;
  // The caller's, when it read the role already: one reading of the role's files per event.
  const role = options.role ?? readRoleDefinition(paths.roleHome, roleId);
  const cached = ctx.memories?.load(roleId);
  // One moment for the whole load: the prepared load is judged valid at the moment it is used at.
  const now = config.clock.now();
  const project = sessionProject(config.env, event.cwd);
  const fromFiles = cached ? undefined : memoriesFromFiles(config, role, now, ctx.logger, project, { save: !options.readOnly });
  const { memories, problems } = cached ?? fromFiles!;
  traceMark('memories');
  if (fromFiles) ctx.logger.info('context', `${roleId}: long-term memory from ${fromFiles.source}`);
  for (const problem of problems) ctx.logger.warn('context', `skipped ${problem.path}: ${problem.message}`);
  const state = readMemoryState(paths.memoryHome, roleId).state;
  const dialog =
    settings.ROLE_LOAD_DIALOG_TURNS > 0 && settings.ROLE_LOAD_DIALOG_LIMIT > 0
      ? readRecentDialogWithFallback(
          event.assistant,
          event.transcriptPath,
          { maxTurns: settings.ROLE_LOAD_DIALOG_TURNS, maxChars: settings.ROLE_LOAD_DIALOG_LIMIT },
          dialogAttribution(config, event, roleId),
        )
      : [];
  const peers: PeerInfo[] = loadAllRoles(paths.roleHome, role).flatMap((listing) => (listing.definition ? [listing.definition] : []));
  const memoryFolder = projectMemoryFolder(event.cwd, project);
  traceMark('read');
  return assembleSessionContext({
    config: fromFiles ? { settings, paths, clock: { now: () => new Date(now.getTime()) } } : config,
    role,
    memories,
    ...(cached ? { longTermMemories: cached.longTerm, inboxMemories: cached.inbox } : {}),
    ...(fromFiles ? { preparedLongTerm: fromFiles.preparedLongTerm } : {}),
    ...(fromFiles?.inbox ? { inboxMemories: fromFiles.inbox } : {}),
    ...(fromFiles?.olderInbox ? { olderInbox: fromFiles.olderInbox } : {}),
    state,
    bonds: readBonds(paths.memoryHome, roleId),
    dialog,
    facts: readFactsText(paths.factsFile),
    projectMemory: memoryFolder ? readProjectMemory(memoryFolder) : undefined,
    ...(project ? { project } : {}),
    journalEntries: countJournalEntries(paths.journalFile),
    peers,
    ...(options.maxParts ? { maxParts: options.maxParts } : {}),
  });
}

/**
 * The daemon, idle after a role's memory files changed: load them into the cache and prepare the
 * memory part of that role's next load (assemble-session-context.ts `warmSessionContext`).
 */
export function warmRoleLoad(ctx: HookContext, roleId: string): void {
  if (!ctx.memories) return;
  const role = readRoleDefinition(ctx.config.paths.roleHome, roleId);
  const cached = ctx.memories.load(roleId);
  warmSessionContext({
    config: ctx.config,
    role,
    memories: cached.memories,
    longTermMemories: cached.longTerm,
    inboxMemories: cached.inbox,
  });
}
