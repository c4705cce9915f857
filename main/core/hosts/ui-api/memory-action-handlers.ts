import type { ForgottenList, MemoryActionDone, MemoryForgottenDone, UiParsedRequest } from '../../../../common/ui-contract.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import type { Logger } from '../../platform/config/log.js';
import { editMemory, type EditResult } from '../../store/memory/edit-memory.js';
import { forgetMemory } from '../../store/memory/forget-one.js';
import { listForgotten } from '../../store/memory/list-forgotten.js';
import { markMemoryWrong } from '../../store/memory/mark-wrong.js';
import { restoreForgotten } from '../../store/memory/restore-forgotten.js';
import { resolveWritableRole } from './memory-action-role.js';

/**
 * Issue 16: the timeline's memory actions (common/ui-contract-memory-actions.ts), each one call
 * of the core function the CLI uses. The files change; the timeline hears `memories.changed`.
 */
function done(role: string, result: EditResult): MemoryActionDone {
  return { role, id: result.memory.id, category: result.memory.category, changed: result.changed, warnings: result.warnings };
}

export function createMemoryActionHandlers(config: KiokuConfig, logger: Logger) {
  return {
    edit: async ({ role, id, changes }: UiParsedRequest<'memories.edit'>): Promise<MemoryActionDone> =>
      done(role, await editMemory(config, resolveWritableRole(config, role), id, changes)),
    pin: async ({ role, id, pinned }: UiParsedRequest<'memories.pin'>): Promise<MemoryActionDone> =>
      done(role, await editMemory(config, resolveWritableRole(config, role), id, { pinned })),
    markWrong: async ({ role, id, correction }: UiParsedRequest<'memories.markWrong'>): Promise<MemoryActionDone> => {
      const result = await markMemoryWrong(config, resolveWritableRole(config, role), id, correction);
      return {
        role,
        id: result.memory.id,
        category: result.memory.category,
        changed: ['superseded'],
        ...(result.correction ? { correctionId: result.correction.id } : {}),
        warnings: result.warnings,
      };
    },
    forget: ({ role, id }: UiParsedRequest<'memories.forget'>): MemoryForgottenDone => {
      const result = forgetMemory(config, resolveWritableRole(config, role), id);
      return { role, id: result.id, category: result.category, name: result.name };
    },
    restore: ({ role, name }: UiParsedRequest<'memories.restore'>): MemoryActionDone => {
      const result = restoreForgotten(config, resolveWritableRole(config, role), name);
      return {
        role,
        id: result.id,
        category: result.category,
        changed: ['restored'],
        warnings: result.forgetAgain ? [`the next forget will archive it again (${result.forgetAgain})`] : [],
      };
    },
    forgotten: ({ role }: UiParsedRequest<'memories.forgotten'>): ForgottenList => {
      const { entries, total, problems } = listForgotten(config.paths.memoryHome, role);
      if (problems.length)
        logger.warn('web', `${problems.length} forgotten archive(s) could not be read, e.g. ${problems[0]!.path}: ${problems[0]!.message}`);
      return {
        items: entries.map(({ name, memory, forgottenAt }) => ({
          name,
          id: memory.id,
          role,
          category: memory.category,
          memory_type: memory.memory_type,
          priority: memory.priority,
          summary: memory.summary,
          body: memory.body,
          tags: [...memory.tags],
          created: memory.created,
          forgottenAt,
        })),
        total,
        unreadable: problems.length,
      };
    },
  };
}
