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
  // A role the daemon has not read yet (it has just started, or the role is called for the first
  // time) is loaded from the prepared load, as without the daemon, while the cache reads its files
  // in the background: the same load, without a hook waiting for thousands of files to be parsed.
  const cached = ctx.memories?.loadIfWarm(roleId);
  // One moment for the whole load: the prepared load is judged valid at the moment it is used at.
  const now = config.clock.now();
  const project = sessionProject(config.env, event.cwd);
  // The daemon writes the prepared load itself, from its cache, once the role is read (load-warmer.ts).
  const save = !options.readOnly && !ctx.memories;
  const fromFiles = cached ? undefined : memoriesFromFiles(config, role, now, ctx.logger, project, { save });
  const { memories, problems } = cached ?? fromFiles!;
  traceMark('memories');
  if (fromFiles)
    ctx.logger.info(
      'context',
      `${roleId}: long-term memory from ${fromFiles.source}${ctx.memories ? ' (its files are still being read)' : ''}`,
    );
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
 * The daemon, idle after a role's memory files changed: bring its cache up to date and prepare the
 * memory part of that role's next load (assemble-session-context.ts `warmSessionContext`). False
 * when the cache has not read the role yet: nothing is prepared, and its warm is started.
 */
export function warmRoleLoad(ctx: HookContext, roleId: string): boolean {
  // Not read yet: its warm is under way, and prepares the load when it ends (daemon-hook-handlers.ts).
  const cached = ctx.memories?.loadIfWarm(roleId);
  if (!cached) return false;
  const role = readRoleDefinition(ctx.config.paths.roleHome, roleId);
  warmSessionContext({
    config: ctx.config,
    role,
    memories: cached.memories,
    longTermMemories: cached.longTerm,
    inboxMemories: cached.inbox,
  });
  return true;
}
