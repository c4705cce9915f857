import fs from 'node:fs';
import path from 'node:path';
import { KiokuError } from '../../../../common/errors.js';
import { isValidRoleId } from '../../../../common/role-id.js';
import type { KiokuConfig } from '../../platform/config/config.js';
import { roleMemoryDir } from '../../store/memory/memory-layout.js';
import { resolveCurrentRole } from '../../store/roles/role-active.js';
import { resolveRoleReference, roleFilesExist } from '../../store/roles/role-repository.js';
import { sessionKeyOf } from '../../store/sessions/session-key.js';
import { readSessionRole } from '../../store/sessions/session-role-file.js';

/**
 * Which role an MCP tool call works on (X-MCP): an explicit argument, else the session's role, else
 * `.active`.
 * Design notes: docs/design-notes.md, "main/core/integrations/mcp/mcp-role.ts".
 */
export type McpRoleSource = 'argument' | 'session' | 'env' | 'active';

export interface McpRole {
  id: string;
  source: McpRoleSource;
}

export type McpAssistant = 'claude' | 'codex' | 'gemini';

export interface McpRoleContext {
  config: KiokuConfig;
  /** The client assistant, when known (`kioku mcp --assistant claude`, or CLAUDECODE=1 in its env). */
  assistant: McpAssistant | undefined;
  /** The project folder of the client session. */
  cwd: string;
}

/** Claude Code's folder name for a project: the cwd with every non-alphanumeric character as `-`. */
export function claudeProjectFolderName(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

function claudeConfigDir(env: NodeJS.ProcessEnv): string | undefined {
  const custom = env.CLAUDE_CONFIG_DIR?.trim();
  if (custom) return custom;
  return env.HOME ? path.join(env.HOME, '.claude') : undefined;
}

/** The transcript written last in the project's Claude Code folder, if any. */
export function newestClaudeTranscript(env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const base = claudeConfigDir(env);
  if (!base) return undefined;
  const dir = path.join(base, 'projects', claudeProjectFolderName(path.resolve(cwd)));
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return undefined;
  }
  let newest: { file: string; mtimeMs: number } | undefined;
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const { mtimeMs } = fs.statSync(file);
      if (!newest || mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
    } catch {
      /* removed meanwhile */
    }
  }
  return newest?.file;
}

/** The role a Claude Code session switched to by a call, when the calling session can be told. */
export function sessionRoleOfClient(context: McpRoleContext): string | undefined {
  if (context.assistant !== 'claude') return undefined;
  const transcriptPath = newestClaudeTranscript(context.config.env, context.cwd);
  const key = transcriptPath ? sessionKeyOf({ sessionId: undefined, transcriptPath }) : undefined;
  if (!key) return undefined;
  const id = readSessionRole(context.config, key);
  return id && roleFilesExist(context.config.paths.roleHome, id) ? id : undefined;
}

/**
 * An explicit role: an ID (whose definition or memory folder exists — an imported role may have
 * only memories), a display name or an alias.
 */
function explicitRole(config: KiokuConfig, reference: string): string {
  const ref = reference.trim();
  if (isValidRoleId(ref) && (roleFilesExist(config.paths.roleHome, ref) || fs.existsSync(roleMemoryDir(config.paths.memoryHome, ref))))
    return ref;
  return resolveRoleReference(config.paths.roleHome, ref);
}

export function resolveMcpRole(context: McpRoleContext, explicit?: string): McpRole {
  if (explicit?.trim()) return { id: explicitRole(context.config, explicit), source: 'argument' };
  const session = sessionRoleOfClient(context);
  if (session) return { id: session, source: 'session' };
  const current = resolveCurrentRole(context.config);
  if (current) return { id: current.id, source: current.source };
  throw new KiokuError('BAD_USAGE', 'no role: no `role` argument was given, ROLE_NAME is not set and there is no active role', {
    hint: 'pass `role` (an ID or display name from persona_list), or let the user choose the active role with `kioku role use ID`',
  });
}

export const ROLE_SOURCE_LABELS: Record<McpRoleSource, string> = {
  argument: '由參數指定 (the role argument)',
  session: '本工作階段切換的角色 (switched to in this session)',
  env: '環境變數 ROLE_NAME',
  active: '目前啟用的角色 (.active)',
};
