import type { AssistantName, HookEventName } from '../../../../common/hook-events.js';

/**
 * Which events Kioku registers with each assistant, under what native name, with what timeout
 * (HOOK-1). One table feeds both the repo's plugin files (hooks/hooks.json,
 * hooks/codex-hooks.json, hooks/gemini-settings.json — a test checks they match it) and
 * `kioku hooks install`, so the two can never drift apart.
 */
export interface HookRegistration {
  event: HookEventName;
  /** The assistant's own event name (the key under `hooks`). */
  native: string;
  /** Claude/Codex SessionStart: matched against `source`. */
  matcher?: string;
  /** In the assistant's unit: seconds for Claude Code and Codex, milliseconds for Gemini CLI. */
  timeout: number;
}

/** What identifies our entries in a settings file that holds other tools' hooks too. */
export const HOOK_CLIENT_MARK = 'kioku-hook';
/** The hook client, relative to the repo or app root (the lead's build writes it). */
export const HOOK_CLIENT_RELATIVE = 'dist/hooks/kioku-hook.js';

// Seconds. The hook client answers within its own short deadlines and falls back to the files
// (HOOK-5); these are only the assistant's hard stop. SessionEnd: Claude Code allows about
// 1.5 s for all SessionEnd hooks together whatever a hook asks for, so ours asks for 1 s and
// releases its locks first (LOCK-4).
const CLAUDE_LIKE: readonly HookRegistration[] = [
  { event: 'session-start', native: 'SessionStart', matcher: 'startup|resume|clear|compact', timeout: 15 },
  { event: 'user-prompt-submit', native: 'UserPromptSubmit', timeout: 10 },
  { event: 'stop', native: 'Stop', timeout: 10 },
  { event: 'pre-compact', native: 'PreCompact', timeout: 15 },
  { event: 'post-compact', native: 'PostCompact', timeout: 10 },
  { event: 'session-end', native: 'SessionEnd', timeout: 1 },
  { event: 'subagent-start', native: 'SubagentStart', timeout: 10 },
];

export const HOOK_REGISTRATIONS: Record<AssistantName, readonly HookRegistration[]> = {
  claude: CLAUDE_LIKE,
  // Codex has no SessionEnd; its locks end by the idle timeout (LOCK-2).
  codex: CLAUDE_LIKE.filter((r) => r.event !== 'session-end'),
  // Milliseconds. No matcher on SessionStart: Gemini compares lifecycle matchers as exact
  // strings, so `startup|resume|clear` would match nothing.
  gemini: [
    { event: 'session-start', native: 'SessionStart', timeout: 15_000 },
    { event: 'user-prompt-submit', native: 'BeforeAgent', timeout: 10_000 },
    { event: 'stop', native: 'AfterAgent', timeout: 10_000 },
    { event: 'pre-compact', native: 'PreCompress', timeout: 15_000 },
    { event: 'session-end', native: 'SessionEnd', timeout: 1_500 },
  ],
};

/**
 * How an entry starts the hook client:
 * - `plugin`: the repo's own files, where the assistant substitutes its plugin root
 *   (`${CLAUDE_PLUGIN_ROOT}`; Codex plugins `${PLUGIN_ROOT}`; Gemini extensions `${extensionPath}`);
 * - `installed`: `kioku hooks install`, with absolute paths to this install's Node and client.
 */
export type HookLauncher = { kind: 'plugin' } | { kind: 'installed'; execPath: string; clientPath: string };

const PLUGIN_ROOT: Record<AssistantName, string> = {
  claude: '${CLAUDE_PLUGIN_ROOT}',
  codex: '${PLUGIN_ROOT}',
  gemini: '${extensionPath}',
};

/**
 * One argument for the shell the assistant runs `command` with (sh/bash; cmd.exe for Codex on
 * Windows). Windows paths hold no `"`, and backslashes must stay single there.
 */
export function quoteForShell(arg: string, platform: NodeJS.Platform = process.platform): string {
  if (/^[A-Za-z0-9_/.:@%+=,-]+$/.test(arg)) return arg;
  if (platform === 'win32') return `"${arg}"`;
  return `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The settings entry for one event: `{type:"command", …}` in the assistant's own shape. */
export function hookEntry(assistant: AssistantName, registration: HookRegistration, launcher: HookLauncher): Record<string, unknown> {
  const tail = [registration.event, '--assistant', assistant];
  if (launcher.kind === 'plugin' && assistant === 'claude') {
    // The form the plugin spec shows: no shell, so a plugin root with spaces needs no quoting.
    return {
      type: 'command',
      command: 'node',
      args: [`${PLUGIN_ROOT.claude}/${HOOK_CLIENT_RELATIVE}`, ...tail],
      timeout: registration.timeout,
    };
  }
  // Codex and Gemini document only a shell `command` string; so does every Claude Code version
  // for user settings, which is why installed entries use it for all three.
  const command =
    launcher.kind === 'plugin'
      ? `node "${PLUGIN_ROOT[assistant]}/${HOOK_CLIENT_RELATIVE}" ${tail.join(' ')}`
      : [launcher.execPath, launcher.clientPath, ...tail].map((arg) => quoteForShell(arg)).join(' ');
  // Gemini has a `name` field: a second mark of ours, and what its `hooks.disabled` list uses.
  const named = assistant === 'gemini' ? { name: `kioku-${registration.event}` } : {};
  return { ...named, type: 'command', command, timeout: registration.timeout };
}

/** `{matcher?, hooks:[entry]}`: the group Kioku adds under one event. */
export function hookGroup(assistant: AssistantName, registration: HookRegistration, launcher: HookLauncher): Record<string, unknown> {
  const entry = hookEntry(assistant, registration, launcher);
  return registration.matcher ? { matcher: registration.matcher, hooks: [entry] } : { hooks: [entry] };
}

/**
 * The whole document the repo ships for an assistant's plugin form. Claude Code's plugin
 * hooks.json takes a top-level `description`; the others get the bare `{"hooks": …}` shape
 * their settings files use, so they can be merged into one by hand as they are.
 */
export function pluginHooksDocument(assistant: AssistantName): { description?: string; hooks: Record<string, unknown[]> } {
  const hooks: Record<string, unknown[]> = {};
  for (const registration of HOOK_REGISTRATIONS[assistant])
    hooks[registration.native] = [hookGroup(assistant, registration, { kind: 'plugin' })];
  return assistant === 'claude' ? { description: PLUGIN_DESCRIPTION, hooks } : { hooks };
}

const PLUGIN_DESCRIPTION =
  'Kioku (記憶): loads the active role and its memory at session start, calls roles by name, and captures each turn into memory';
