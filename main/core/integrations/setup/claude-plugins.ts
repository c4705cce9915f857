import fs from 'node:fs';
import path from 'node:path';
import { HOOK_REGISTRATIONS } from './hook-registrations.js';
import { findKiokuHooks } from './hooks-edit.js';
import { readSettingsFile } from './settings-file.js';

/**
 * Kioku's hooks as Claude Code gets them from a plugin (issue 13): the repo is a Claude Code
 * plugin, so a user may have no Kioku entry in settings.json and still have every hook.
 * Design notes: docs/design-notes.md, "main/core/integrations/setup/claude-plugins.ts".
 */
export type ClaudePluginScope = 'user' | 'project' | 'local' | 'skills-dir';

export interface ClaudePluginHooks {
  /** `name@marketplace`, or `name@skills-dir`. */
  id: string;
  scope: ClaudePluginScope;
  /** The plugin's folder (installPath). */
  root: string;
  enabled: boolean;
  /** The settings file whose `enabledPlugins` decided, or null when none names the plugin. */
  decidedBy: string | null;
  events: string[];
  missingEvents: string[];
}

export interface ClaudePluginsReport {
  /** CLAUDE_CONFIG_DIR (or ~/.claude) exists: the user runs Claude Code here. */
  configDirExists: boolean;
  /** Plugins whose hooks run the Kioku hook client. */
  plugins: ClaudePluginHooks[];
  /** Files that decide about plugins and could not be read. */
  problems: Array<{ file: string; problem: string }>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

function readJson(file: string): Json | undefined {
  try {
    const data: unknown = JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
    return isObject(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

/** The hooks files a plugin declares: hooks/hooks.json, and what plugin.json's `hooks` names. */
function pluginHooks(root: string): Json[] {
  const docs: Json[] = [];
  const standard = readJson(path.join(root, 'hooks', 'hooks.json'));
  if (standard && isObject(standard.hooks)) docs.push(standard.hooks);
  const manifest = readJson(path.join(root, '.claude-plugin', 'plugin.json'));
  const declared = manifest?.hooks;
  for (const item of Array.isArray(declared) ? declared : [declared]) {
    if (typeof item === 'string' && path.normalize(item) !== path.normalize('./hooks/hooks.json')) {
      const doc = readJson(path.resolve(root, item));
      if (doc && isObject(doc.hooks)) docs.push(doc.hooks);
    } else if (isObject(item)) docs.push(isObject(item.hooks) ? item.hooks : item);
  }
  return docs;
}

interface Candidate {
  id: string;
  scope: ClaudePluginScope;
  root: string;
}

/** Installed plugins that apply in `cwd`: user-wide ones, and project/local ones of this folder. */
function installed(configDir: string, cwd: string, problems: ClaudePluginsReport['problems']): Candidate[] {
  const file = path.join(configDir, 'plugins', 'installed_plugins.json');
  if (!fs.existsSync(file)) return [];
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    problems.push({ file, problem: `is not valid JSON (${(error as Error).message})` });
    return [];
  }
  const plugins = isObject(data) ? data.plugins : undefined;
  if (!isObject(plugins)) {
    problems.push({ file, problem: 'has no "plugins" object' });
    return [];
  }
  const here = path.resolve(cwd);
  const out: Candidate[] = [];
  for (const [id, value] of Object.entries(plugins)) {
    // Version 2 keeps a list per plugin (one per scope); version 1 kept one object.
    for (const install of Array.isArray(value) ? value : [value]) {
      if (!isObject(install) || typeof install.installPath !== 'string') continue;
      const scope = install.scope === 'project' || install.scope === 'local' ? install.scope : 'user';
      if (scope !== 'user' && (typeof install.projectPath !== 'string' || path.resolve(install.projectPath) !== here)) continue;
      out.push({ id, scope, root: install.installPath });
    }
  }
  return out;
}

function skillsDirPlugins(configDir: string): Candidate[] {
  const skills = path.join(configDir, 'skills');
  let names: string[];
  try {
    names = fs.readdirSync(skills);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const root = path.join(skills, name);
    const manifest = readJson(path.join(root, '.claude-plugin', 'plugin.json'));
    if (!manifest) return [];
    const pluginName = typeof manifest.name === 'string' && manifest.name ? manifest.name : name;
    return [{ id: `${pluginName}@skills-dir`, scope: 'skills-dir' as const, root }];
  });
}

/** `enabledPlugins` of user, project and local settings, in the order Claude Code lets them win. */
function enabledLayers(configDir: string, cwd: string, problems: ClaudePluginsReport['problems']): Array<{ file: string; enabled: Json }> {
  const files = [
    path.join(configDir, 'settings.json'),
    path.join(cwd, '.claude', 'settings.json'),
    path.join(cwd, '.claude', 'settings.local.json'),
  ];
  const layers: Array<{ file: string; enabled: Json }> = [];
  for (const [index, file] of [...new Set(files.map((f) => path.resolve(f)))].entries()) {
    try {
      const { data } = readSettingsFile(file);
      if (isObject(data.enabledPlugins)) layers.push({ file, enabled: data.enabledPlugins });
    } catch (error) {
      // The user's settings.json is reported with the hooks it holds; the project's are ours to say.
      if (index > 0) problems.push({ file, problem: (error as Error).message });
    }
  }
  return layers;
}

export function claudePluginHooks(configDir: string, cwd: string): ClaudePluginsReport {
  const problems: ClaudePluginsReport['problems'] = [];
  const configDirExists = fs.existsSync(configDir);
  if (!configDirExists) return { configDirExists, plugins: [], problems };
  const layers = enabledLayers(configDir, cwd, problems);
  const expected = HOOK_REGISTRATIONS.claude.map((r) => r.native);
  const plugins: ClaudePluginHooks[] = [];
  const seen = new Set<string>();
  for (const candidate of [...installed(configDir, cwd, problems), ...skillsDirPlugins(configDir)]) {
    // Installed for the user and for this project too: one plugin, one enabledPlugins entry.
    if (seen.has(candidate.id)) continue;
    seen.add(candidate.id);
    const found = pluginHooks(candidate.root).flatMap((hooks) => findKiokuHooks(hooks));
    if (found.length === 0) continue;
    // An installed plugin is off until a settings file turns it on; a skills-dir one is on until one turns it off.
    let enabled = candidate.scope === 'skills-dir';
    let decidedBy: string | null = null;
    for (const layer of layers) {
      const value = layer.enabled[candidate.id];
      if (value === undefined) continue;
      enabled = value !== false;
      decidedBy = layer.file;
    }
    const events = [...new Set(found.map((f) => f.native))];
    plugins.push({ ...candidate, enabled, decidedBy, events, missingEvents: expected.filter((e) => !events.includes(e)) });
  }
  return { configDirExists, plugins, problems };
}
