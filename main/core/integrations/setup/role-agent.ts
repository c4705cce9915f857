import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { expandHome } from '../../platform/config/paths.js';
import { createFileExclusiveSync, writeFileAtomicSync } from '../../platform/fs/atomic-write.js';
import { currentKiokuInstall, launcherPath } from './cron-launcher.js';
import { shellQuote } from './cron-entries.js';
import { agentNameFor, renderAgentFile } from './role-agent-text.js';
import { readRoleDefinition } from '../../store/roles/role-repository.js';

/**
 * `kioku role agent <ID> [dir]` (ROLE-11): export a role as a Claude Code
 * sub-agent file, `<dir>/<name>.md`, default `~/.claude/agents/` (ROLE-11's default; a project's `./.claude/agents` is the other place Claude Code reads).
 * Like every role write (ROLE-5), an existing file with other text is replaced only after the
 * user saw what changes and confirmed the token; the write itself is atomic.
 */
export interface AgentFilePlan {
  id: string;
  name: string;
  file: string;
  text: string;
  /** `create`: no file yet; `unchanged`: the file already says exactly this; `replace`: needs the token. */
  action: 'create' | 'unchanged' | 'replace';
  /** For `replace`: apply only with this token (a hash of the current file and the new text). */
  token?: string;
  /** For `replace`: the lines that go and the lines that come, for the confirmation. */
  removed: string[];
  added: string[];
}

export interface AgentExportOptions {
  tools?: string[];
  /** Kioku's entry at export time (tests); default: this install's bin/kioku.js. */
  kiokuEntry?: string;
}

export function defaultAgentDir(config: KiokuConfig): string {
  return path.join(config.env.HOME || os.homedir(), '.claude', 'agents');
}

/** The homes are named in the commands only when they were set explicitly for this export. */
function envPrefix(config: KiokuConfig): string {
  const parts: string[] = [];
  if (config.env.ROLE_HOME?.trim()) parts.push(`ROLE_HOME=${shellQuote(config.paths.roleHome)}`);
  if (config.env.ROLE_MEMORY_HOME?.trim()) parts.push(`ROLE_MEMORY_HOME=${shellQuote(config.paths.memoryHome)}`);
  return parts.length ? `${parts.join(' ')} ` : '';
}

function fallbacks(config: KiokuConfig, entry: string): string[] {
  const out: string[] = [];
  const launcher = launcherPath(config.paths.stateDir);
  if (fs.existsSync(launcher)) out.push(shellQuote(launcher));
  out.push(`node ${shellQuote(entry)}`);
  return out;
}

function tokenFor(current: string, next: string): string {
  return createHash('sha256').update(current).update('\0').update(next).digest('hex').slice(0, 10);
}

/** Lines only in one of the texts, in order (enough to show what a replace changes). */
function lineChanges(before: string, after: string): { removed: string[]; added: string[] } {
  const oldLines = before.split('\n');
  const newLines = after.split('\n');
  const oldSet = new Set(oldLines);
  const newSet = new Set(newLines);
  return { removed: oldLines.filter((line) => !newSet.has(line)), added: newLines.filter((line) => !oldSet.has(line)) };
}

/** Work out the file and its text; reads only. */
export function planAgentFile(config: KiokuConfig, id: string, dir: string | undefined, options: AgentExportOptions = {}): AgentFilePlan {
  const role = readRoleDefinition(config.paths.roleHome, id);
  const target = path.resolve(dir ? expandHome(dir, config.env.HOME || os.homedir()) : defaultAgentDir(config));
  if (fs.existsSync(target) && !fs.statSync(target).isDirectory()) {
    throw new KiokuError('BAD_USAGE', `${target} is a file, not a folder`, {
      path: target,
      hint: 'give the folder to write the agent file into, e.g. ./.claude/agents',
    });
  }
  const name = agentNameFor(role.id);
  const file = path.join(target, `${name}.md`);
  const text = renderAgentFile(role, {
    tools: options.tools,
    fallbacks: fallbacks(config, options.kiokuEntry ?? currentKiokuInstall().entry),
    envPrefix: envPrefix(config),
  });
  let current: string | undefined;
  try {
    current = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (current === undefined) return { id: role.id, name, file, text, action: 'create', removed: [], added: [] };
  if (current === text) return { id: role.id, name, file, text, action: 'unchanged', removed: [], added: [] };
  return { id: role.id, name, file, text, action: 'replace', token: tokenFor(current, text), ...lineChanges(current, text) };
}

/**
 * Write the planned file. A `replace` needs the plan's token, and the file must still be what the
 * token was computed from; otherwise nothing is written (exit 3 with the token to confirm).
 */
export function writeAgentFile(plan: AgentFilePlan, confirmToken?: string): void {
  if (plan.action === 'unchanged') return;
  if (plan.action === 'replace') {
    let current = '';
    try {
      current = fs.readFileSync(plan.file, 'utf8');
    } catch {
      /* gone since the plan: the token no longer matches */
    }
    const token = confirmToken?.trim().toLowerCase();
    if (token !== plan.token || tokenFor(current, plan.text) !== plan.token) {
      throw new KiokuError('CONFIRM_NEEDED', `${plan.file} exists with other text; nothing was written`, {
        path: plan.file,
        hint: `check what changes, then run again with --confirm ${plan.token}`,
      });
    }
  }
  if (plan.action === 'create') {
    if (createFileExclusiveSync(plan.file, plan.text)) return;
    throw new KiokuError('CONFIRM_NEEDED', `${plan.file} appeared while it was being written; nothing was written`, {
      path: plan.file,
      hint: 'run the command again to see what would change',
    });
  }
  writeFileAtomicSync(plan.file, plan.text);
}
