import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';

/**
 * Has the user trusted Kioku's Codex hooks? (issue 13).
 * Design notes: docs/design-notes.md, "main/core/integrations/setup/codex-hook-trust.ts".
 */
export type CodexTrustState = 'trusted' | 'untrusted' | 'modified' | 'disabled';

export interface CodexHookTrust {
  /** The event's name in hooks.json (SessionStart, …). */
  event: string;
  key: string;
  state: CodexTrustState;
}

export interface CodexTrustReport {
  /** `$CODEX_HOME/config.toml`, where Codex records trust. */
  configFile: string;
  hooks: CodexHookTrust[];
  /** config.toml exists but is not TOML (or its hooks.state is not tables): nothing could be judged. */
  problem?: string;
}

/** A Kioku entry as found in hooks.json, with its place there (Codex's key is positional). */
export interface CodexHookPlace {
  event: string;
  groupIndex: number;
  handlerIndex: number;
  matcher: unknown;
  entry: Record<string, unknown>;
}

/** SessionStart → session_start: the label Codex uses in keys and in the hashed identity. */
export function codexEventLabel(event: string): string {
  return event.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();
}

// Codex ignores a group's matcher for these events (matcher_pattern_for_event), so it is not hashed.
const EVENTS_WITHOUT_MATCHER = new Set(['UserPromptSubmit', 'Stop']);

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * The hash Codex compares with `trusted_hash`: sha256 of the compact JSON, keys sorted, of
 * `{event_name, matcher?, hooks:[{type, command, timeout, async, statusMessage?}]}` with Codex's
 * defaults filled in (timeout 600 s, at least 1; async false). Checked against `codex app-server`
 * `hooks/list` (currentHash) for Kioku-shaped entries with and without a matcher and timeout.
 */
export function codexHookHash(place: Pick<CodexHookPlace, 'event' | 'matcher' | 'entry'>): string {
  const { entry } = place;
  const timeout = typeof entry.timeout === 'number' ? Math.max(1, Math.floor(entry.timeout)) : 600;
  const handler: Record<string, unknown> = { type: 'command', command: entry.command, timeout, async: entry.async === true };
  if (typeof entry.statusMessage === 'string') handler.statusMessage = entry.statusMessage;
  const identity: Record<string, unknown> = { event_name: codexEventLabel(place.event), hooks: [handler] };
  if (typeof place.matcher === 'string' && !EVENTS_WITHOUT_MATCHER.has(place.event)) identity.matcher = place.matcher;
  return `sha256:${crypto
    .createHash('sha256')
    .update(JSON.stringify(canonical(identity)))
    .digest('hex')}`;
}

/**
 * The hooks.json path as Codex spells it in keys: CODEX_HOME is resolved to its real path
 * (a symlinked CODEX_HOME gives the target's path), the default `~/.codex` is taken as HOME
 * says — both observed with `codex app-server` `hooks/list`.
 */
export function codexKeySource(hooksFile: string, env: NodeJS.ProcessEnv): string {
  if (!env.CODEX_HOME?.trim()) return hooksFile;
  try {
    return path.join(fs.realpathSync(path.dirname(hooksFile)), path.basename(hooksFile));
  } catch {
    return hooksFile;
  }
}

type HookState = { trusted_hash?: unknown; enabled?: unknown };

function readStates(configFile: string): { states: Record<string, HookState>; problem?: string } {
  let text: string;
  try {
    text = fs.readFileSync(configFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { states: {} };
    return { states: {}, problem: (error as Error).message };
  }
  let data: Record<string, unknown>;
  try {
    data = parseToml(text);
  } catch (error) {
    // smol-toml's message ends with a snippet of the file; the first line and the position say it.
    const where = error instanceof TomlError ? `line ${error.line}: ` : '';
    return { states: {}, problem: `it is not valid TOML (${where}${(error as Error).message.split('\n')[0]})` };
  }
  const hooks = data.hooks;
  const states = hooks !== null && typeof hooks === 'object' ? (hooks as Record<string, unknown>).state : undefined;
  if (states === undefined) return { states: {} };
  if (states === null || typeof states !== 'object' || Array.isArray(states))
    return { states: {}, problem: '"hooks.state" is not a table' };
  return { states: states as Record<string, HookState> };
}

/** How Codex would treat each of Kioku's entries of `hooksFile`, judged from `configFile`. */
export function codexHookTrust(
  hooksFile: string,
  configFile: string,
  places: readonly CodexHookPlace[],
  env: NodeJS.ProcessEnv,
): CodexTrustReport {
  const { states, problem } = readStates(configFile);
  if (problem) return { configFile, hooks: [], problem };
  const source = codexKeySource(hooksFile, env);
  const hooks = places.map((place): CodexHookTrust => {
    const key = `${source}:${codexEventLabel(place.event)}:${place.groupIndex}:${place.handlerIndex}`;
    const state = states[key];
    const stateOf = (): CodexTrustState => {
      if (state?.enabled === false) return 'disabled';
      if (typeof state?.trusted_hash !== 'string') return 'untrusted';
      return state.trusted_hash === codexHookHash(place) ? 'trusted' : 'modified';
    };
    return { event: place.event, key, state: stateOf() };
  });
  return { configFile, hooks };
}
