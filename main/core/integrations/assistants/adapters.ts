import { ASSISTANTS, type AssistantName } from '../../../../common/hook-events.js';
import { KiokuError } from '../../../../common/errors.js';
import type { AssistantAdapter } from './adapter-types.js';
import { claudeAdapter } from './claude-adapter.js';
import { codexAdapter } from './codex-adapter.js';
import { geminiAdapter } from './gemini-adapter.js';

export type { AssistantAdapter } from './adapter-types.js';
export { parseHookStdin } from '../../platform/ipc/payload-fields.js';

const ADAPTERS: Record<AssistantName, AssistantAdapter> = {
  claude: claudeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
};

export function isAssistantName(value: string): value is AssistantName {
  return (ASSISTANTS as readonly string[]).includes(value);
}

/** The adapter for an assistant; a clear error (listing the known ones) for any other name. */
export function adapterFor(name: string): AssistantAdapter {
  const key = name.trim().toLowerCase();
  if (isAssistantName(key)) return ADAPTERS[key];
  throw new KiokuError('BAD_USAGE', `unknown assistant "${name}"`, { hint: `use one of: ${ASSISTANTS.join(', ')}` });
}
