import type { HookEvent, HookResult } from '../../../common/hook-events.js';
import { readProjectMemory } from '../context/context-files.js';
import { subagentContext } from '../context/special-contexts.js';
import { activationGate } from '../sessions/activation.js';
import type { HookContext } from './hook-handler.js';

/** SubagentStart (DSH-5): project memory only — no persona, no global facts. */
export function handleSubagentStart(ctx: HookContext, event: HookEvent): HookResult {
  if (activationGate(ctx.config, event) !== undefined) return {};
  const text = subagentContext(readProjectMemory(event.cwd));
  return text ? { additionalContext: text } : {};
}
