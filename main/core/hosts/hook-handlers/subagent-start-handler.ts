import type { HookEvent, HookResult } from '../../../../common/hook-events.js';
import { readProjectMemory } from '../../engine/context/context-files.js';
import { subagentContext } from '../../engine/context/special-contexts.js';
import { projectMemoryFolder, sessionProject } from '../../engine/context/session-project.js';
import { activationGate } from '../../store/sessions/activation.js';
import type { HookContext } from './hook-handler.js';

/** SubagentStart (DSH-5): project memory only — no persona, no global facts. */
export function handleSubagentStart(ctx: HookContext, event: HookEvent): HookResult {
  if (activationGate(ctx.config, event) !== undefined) return {};
  // The same MEMORY.md as the main session's: the cwd's own, else the project's top level (issue 12).
  const folder = projectMemoryFolder(event.cwd, sessionProject(ctx.config.env, event.cwd));
  const text = subagentContext(folder ? readProjectMemory(folder) : undefined);
  return text ? { additionalContext: text } : {};
}
