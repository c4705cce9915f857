import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AssistantName } from '../../../../common/hook-events.js';
import { KiokuError } from '../../../../common/errors.js';
import { findOnPath } from '../../engine/llm-cli/cli-commands.js';
import { expandHome } from '../../platform/config/paths.js';
import { defaultHookClientPath } from './hook-client-path.js';
import { HOOK_CLIENT_MARK, HOOK_REGISTRATIONS, hookGroup, type HookLauncher } from './hook-registrations.js';
import { addGroups, findKiokuHooks, fingerprint, removeKiokuHooks, type KiokuHookFound } from './hooks-edit.js';
import { readSettingsFile, writeSettingsFile, type SettingsDocument } from './settings-file.js';

export interface HooksOptions {
  /** The environment whose HOME / CLAUDE_CONFIG_DIR / CODEX_HOME locate the settings files. */
  env: NodeJS.ProcessEnv;
  /** The hook client to register; default: this install's `dist/hooks/kioku-hook.js`. */
  clientPath?: string;
  /** The Node binary that runs it; default: the one running now (`process.execPath`). */
  execPath?: string;
}

export interface HooksChange {
  assistant: AssistantName;
  settingsFile: string;
  /** installed: none were there; updated: ours were there but differed; removed: uninstall took some out. */
  action: 'installed' | 'updated' | 'unchanged' | 'removed';
  /** Kioku entries in the file after the change (install) or taken out (uninstall). */
  hooks: number;
  /** The .bak written by this change, when it was the first change to the file. */
  backup?: string;
  notes: string[];
}

export interface HookCommandStatus {
  event: string;
  clientPath?: string;
  /** Undefined when the path cannot be checked (a plugin-root placeholder). */
  clientExists?: boolean;
}

export interface HookStatus {
  assistant: AssistantName;
  settingsFile: string;
  fileExists: boolean;
  /** Set when the file cannot be read as settings (it is then reported, not changed). */
  problem?: string;
  installed: boolean;
  /** Every event Kioku registers for this assistant has a Kioku entry. */
  complete: boolean;
  events: string[];
  missingEvents: string[];
  commands: HookCommandStatus[];
  expectedClientPath: string;
  expectedClientExists: boolean;
  notes: string[];
}

function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME || env.USERPROFILE || os.homedir();
}

/** Where each assistant keeps the hooks of the user's own settings. */
export function settingsPathFor(assistant: AssistantName, env: NodeJS.ProcessEnv): string {
  const home = homeOf(env);
  const from = (value: string | undefined, fallback: string) => path.resolve(expandHome(value?.trim() || fallback, home));
  if (assistant === 'claude') return path.join(from(env.CLAUDE_CONFIG_DIR, path.join(home, '.claude')), 'settings.json');
  if (assistant === 'codex') return path.join(from(env.CODEX_HOME, path.join(home, '.codex')), 'hooks.json');
  return path.join(home, '.gemini', 'settings.json');
}

/** The assistants whose configuration folder exists in this HOME (what `install` does by default). */
export function detectAssistants(env: NodeJS.ProcessEnv): AssistantName[] {
  return (['claude', 'codex', 'gemini'] as const).filter((a) => fs.existsSync(path.dirname(settingsPathFor(a, env))));
}

/**
 * The Node that runs the hook client. Normally the one running now; inside the Electron app that
 * would be the app binary itself, which without ELECTRON_RUN_AS_NODE starts a second app for every
 * assistant event — so there a `node` on PATH is used, and installing without one is refused.
 */
export function nodeForHooks(
  env: NodeJS.ProcessEnv,
  versions: NodeJS.ProcessVersions = process.versions,
  execPath = process.execPath,
): string {
  if (!versions.electron) return execPath;
  const node = findOnPath('node', env);
  if (node) return node;
  throw new KiokuError('NOT_FOUND', 'the hooks need Node.js to run, and none was found on PATH', {
    hint: 'install Node.js 20 or later, or run `kioku hooks install` from a terminal where `node` works',
  });
}

function launcherFor(options: HooksOptions): HookLauncher & { kind: 'installed' } {
  const execPath = options.execPath ?? nodeForHooks(options.env);
  return { kind: 'installed', execPath, clientPath: options.clientPath ?? defaultHookClientPath() };
}

const hooksOf = (data: Record<string, unknown>) => (data.hooks ?? {}) as Record<string, unknown>;

/** Things worth telling the user about an assistant's settings, whatever the command. */
function notesFor(assistant: AssistantName, data: Record<string, unknown>): string[] {
  const notes: string[] = [];
  const hooks = hooksOf(data);
  if (assistant === 'claude') {
    const plugins = data.enabledPlugins;
    if (plugins && typeof plugins === 'object' && Object.entries(plugins).some(([key, on]) => key.startsWith('kioku@') && on === true)) {
      notes.push('the Kioku plugin is enabled too, so every hook would run twice: keep either the plugin or these hooks');
    }
    if (data.disableAllHooks === true) notes.push('"disableAllHooks": true in this file: Claude Code runs no hooks at all');
  }
  if (assistant === 'gemini') {
    if (hooks.enabled === false) notes.push('"hooks.enabled": false in this file: Gemini CLI runs no hooks');
    if (Array.isArray(hooks.disabled) && hooks.disabled.some((name) => typeof name === 'string' && name.startsWith('kioku-'))) {
      notes.push('"hooks.disabled" lists Kioku hooks: Gemini CLI skips them');
    }
  }
  return notes;
}

interface Plan {
  assistant: AssistantName;
  doc: SettingsDocument;
  next?: Record<string, unknown>;
  change: HooksChange;
}

/** Write the plans that change something; only after every file has been read and planned. */
function apply(plans: Plan[]): HooksChange[] {
  for (const plan of plans) if (plan.next) plan.change.backup = writeSettingsFile(plan.doc, plan.next);
  return plans.map((plan) => {
    if (plan.change.backup === undefined) delete plan.change.backup;
    return plan.change;
  });
}

/**
 * Register Kioku's hooks in each assistant's user settings. Idempotent: when the file already
 * holds exactly these entries it is not written at all. Every file is read and checked first,
 * so one invalid file means nothing is written anywhere.
 */
export function installHooks(assistants: readonly AssistantName[], options: HooksOptions): HooksChange[] {
  const launcher = launcherFor(options);
  const plans = assistants.map((assistant): Plan => {
    const doc = readSettingsFile(settingsPathFor(assistant, options.env));
    const desired = HOOK_REGISTRATIONS[assistant].map((r) => ({ native: r.native, group: hookGroup(assistant, r, launcher) }));
    const wanted = desired.map(({ native, group }) => ({ native, matcher: group.matcher, entry: (group.hooks as unknown[])[0] }));
    const present = findKiokuHooks(hooksOf(doc.data));
    const notes = notesFor(assistant, doc.data);
    if (!fs.existsSync(launcher.clientPath))
      notes.push(`the hook client ${launcher.clientPath} does not exist yet: build Kioku (npm run build) before starting a session`);
    if (assistant === 'codex')
      notes.push('Codex runs new hooks only once you trust them: open /hooks in Codex and trust the Kioku entries');
    const change: HooksChange = { assistant, settingsFile: doc.file, action: 'unchanged', hooks: wanted.length, notes };
    if (fingerprint(present) === fingerprint(wanted)) return { assistant, doc, change };
    change.action = present.length > 0 ? 'updated' : 'installed';
    const next = { ...doc.data, hooks: addGroups(removeKiokuHooks(hooksOf(doc.data)).hooks, desired) };
    return { assistant, doc, next, change };
  });
  return apply(plans);
}

/** Take Kioku's entries out of each assistant's settings; other entries and keys stay as they were. */
export function uninstallHooks(assistants: readonly AssistantName[], options: HooksOptions): HooksChange[] {
  const plans = assistants.map((assistant): Plan => {
    const doc = readSettingsFile(settingsPathFor(assistant, options.env));
    const { hooks, removed } = removeKiokuHooks(hooksOf(doc.data));
    const change: HooksChange = {
      assistant,
      settingsFile: doc.file,
      action: removed > 0 ? 'removed' : 'unchanged',
      hooks: removed,
      notes: [],
    };
    return removed > 0 ? { assistant, doc, next: { ...doc.data, hooks }, change } : { assistant, doc, change };
  });
  return apply(plans);
}

/** The hook client path inside an entry: the argument that names it, unquoted. */
export function clientPathOf(entry: Record<string, unknown>): string | undefined {
  const words = Array.isArray(entry.args)
    ? entry.args.filter((arg): arg is string => typeof arg === 'string')
    : typeof entry.command === 'string'
      ? [...entry.command.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!))
      : [];
  return words.find((word) => word.includes(HOOK_CLIENT_MARK));
}

function commandStatus(found: KiokuHookFound): HookCommandStatus {
  const clientPath = clientPathOf(found.entry);
  const checkable = clientPath !== undefined && !clientPath.includes('${') && path.isAbsolute(clientPath);
  const status: HookCommandStatus = { event: found.native };
  if (clientPath !== undefined) status.clientPath = clientPath;
  if (checkable) status.clientExists = fs.existsSync(clientPath);
  else if (clientPath === undefined) status.clientExists = false;
  return status;
}

/** Per assistant: installed?, which events, does each command's client exist? Never writes. */
export function hooksStatus(assistants: readonly AssistantName[], options: HooksOptions): HookStatus[] {
  const expectedClientPath = launcherFor(options).clientPath;
  const expectedClientExists = fs.existsSync(expectedClientPath);
  return assistants.map((assistant) => {
    const settingsFile = settingsPathFor(assistant, options.env);
    const expectedEvents = HOOK_REGISTRATIONS[assistant].map((r) => r.native);
    const base = { assistant, settingsFile, expectedClientPath, expectedClientExists };
    let doc: SettingsDocument;
    try {
      doc = readSettingsFile(settingsFile);
    } catch (error) {
      const problem = (error as Error).message;
      return {
        ...base,
        fileExists: true,
        problem,
        installed: false,
        complete: false,
        events: [],
        missingEvents: expectedEvents,
        commands: [],
        notes: [],
      };
    }
    const found = findKiokuHooks(hooksOf(doc.data));
    const events = [...new Set(found.map((f) => f.native))];
    const missingEvents = expectedEvents.filter((e) => !events.includes(e));
    return {
      ...base,
      fileExists: doc.exists,
      installed: found.length > 0,
      complete: found.length > 0 && missingEvents.length === 0,
      events,
      missingEvents,
      commands: found.map(commandStatus),
      notes: notesFor(assistant, doc.data),
    };
  });
}
